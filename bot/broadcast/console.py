"""Broadcasts in the console: a Sender that shows the text in the session, and a drain after each turn.

Console subscribers (`schoolbot chat`, then /subscribe) are in the outbox like
any other platform. The console session delivers their rows itself, in
process, through the same :class:`~bot.broadcast.worker.DeliveryWorker`: when it
opens and after each turn. So staff can rehearse a broadcast without any token.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.broadcast.outbox import Outbox
from bot.broadcast.worker import DeliveryWorker, WorkerStats
from bot.messages import SendLimits, SendOutcome, SendStatus
from bot.settings import Settings
from bot.text import plain, split_text
from knowledge.store import Store

PLATFORM = "console"


class ConsoleSender:
    """Shows each message with `show(chat_id, text)` (the console prints it); always delivered."""

    platform = PLATFORM
    limits = SendLimits(max_chars=4096)

    def __init__(self, show: Callable[[str, str], None]):
        self.show = show

    async def send_text(self, chat_id: str, text: str) -> SendOutcome:
        text = plain(text)
        if not text:
            return SendOutcome(SendStatus.FAILED, detail="empty text")
        for chunk in split_text(text, self.limits.max_chars):
            self.show(chat_id, chunk)
        return SendOutcome(SendStatus.SENT)


def deliver_console(store: Store, show: Callable[[str, str], None], settings: Settings | None = None) -> WorkerStats | None:
    """Deliver every pending console row now, in order; None when there was nothing to deliver.

    Cheap when there is nothing (one read), so the console calls it after every turn.
    """
    if Outbox(store).unfinished(PLATFORM) == 0:
        return None
    worker = DeliveryWorker(store, ConsoleSender(show), settings, concurrency=1, poll_interval=0.01)
    return asyncio.run(worker.run(once=True))
