"""Moved to :mod:`bot.broadcast`; this name stays only until every importer uses the package.

The worker side is imported only when asked for, so `schoolbot ask` does not load it.
"""

from bot.broadcast import UNDELIVERABLE, BroadcastError, Outbox, Progress, board_title, broadcast_text, check_broadcast

_LATER = {
    "DeliveryWorker": "bot.broadcast.worker",
    "WorkerStats": "bot.broadcast.worker",
    "run_workers": "bot.broadcast.worker",
    "run_delivery": "bot.broadcast.supervise",
    "LEASE_STALE_SECONDS": "bot.broadcast.lease",
}

__all__ = ["UNDELIVERABLE", "BroadcastError", "Outbox", "Progress", "board_title", "broadcast_text",
           "check_broadcast", *_LATER]


def __getattr__(name: str):
    if name in _LATER:
        from importlib import import_module

        return getattr(import_module(_LATER[name]), name)
    raise AttributeError(f"module 'bot.outbox' has no attribute {name!r}")
