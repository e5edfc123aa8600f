"""Broadcasts: staff updates written to an outbox before anything is sent, then delivered.

- :mod:`~bot.broadcast.compose`: what recipients see (header + body, in each one's language; the
  author's text in one language or both, "... fr: ...") and the checks on the text
- :mod:`~bot.broadcast.outbox`: writing a broadcast and its deliveries, reading progress, claiming rows (the rows:
  ``store.outbox``, :mod:`knowledge.outbox_rows`)
- :mod:`~bot.broadcast.lease`: one delivery worker per platform (the rows: ``store.leases``)
- :mod:`~bot.broadcast.limiter`: pacing under each sender's declared limits
- :mod:`~bot.broadcast.worker`: the delivery worker (delivery guarantee in its docstring)
- :mod:`~bot.broadcast.wakeup`: the doorbell that starts this process's workers on a new broadcast
- :mod:`~bot.broadcast.supervise`: the workers that run alongside `schoolbot serve`
- :mod:`~bot.broadcast.console`: delivery to console subscribers, in the console session

Names are imported on first use (PEP 562): the core needs only the wakeup on every start, and the
outbox pulls in sockets and the store's writers, which `schoolbot ask` never uses.
"""

from importlib import import_module

# compose is light, and imported here so that `compose` is the function, not its module's name.
from bot.broadcast.compose import Broadcast, BroadcastError, board_title, broadcast_text, check_broadcast, compose

_HOMES = {"UNDELIVERABLE": "outbox", "Outbox": "outbox", "Progress": "outbox", "Wakeup": "wakeup"}
__all__ = ["UNDELIVERABLE", "Broadcast", "BroadcastError", "Outbox", "Progress", "Wakeup", "board_title",
           "broadcast_text", "check_broadcast", "compose"]


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'bot.broadcast' has no attribute {name!r}")
    value = getattr(import_module(f"bot.broadcast.{home}"), name)
    globals()[name] = value
    return value
