"""Moved to :mod:`bot.broadcast`; this name stays only until every importer uses the package."""

from bot.broadcast import UNDELIVERABLE, BroadcastError, Outbox, Progress, board_title, broadcast_text, check_broadcast
from bot.broadcast.lease import LEASE_STALE_SECONDS
from bot.broadcast.supervise import run_delivery
from bot.broadcast.worker import DeliveryWorker, WorkerStats, run_workers

__all__ = ["LEASE_STALE_SECONDS", "UNDELIVERABLE", "BroadcastError", "DeliveryWorker", "Outbox", "Progress",
           "WorkerStats", "board_title", "broadcast_text", "check_broadcast", "run_delivery", "run_workers"]
