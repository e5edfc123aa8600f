"""Test doubles for the broadcast tests: a scripted Sender (the platform boundary), subscribers, a fast worker."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

from bot.broadcast.worker import DeliveryWorker
from bot.messages import SendOutcome, SendStatus
from knowledge.store import Store


class Scripted:
    """A Sender whose outcomes per chat follow a script; records every call."""

    platform = "test"

    def __init__(self, script: dict[str, list[SendOutcome]] | None = None, delay: float = 0.0):
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.calls: list[tuple[str, str, float]] = []
        self.delay = delay

    async def send_text(self, chat_id: str, text: str) -> SendOutcome:
        self.calls.append((chat_id, text, time.monotonic()))
        if self.delay:
            await asyncio.sleep(self.delay)
        queue = self.script.get(chat_id)
        if queue:
            return queue.pop(0)
        return SendOutcome(SendStatus.SENT)

    def received(self) -> Counter:
        return Counter(c for c, _, _ in self.calls)


def subscribe(store: Store, count: int, board: str = "tdsb", platform: str = "test", start: int = 0) -> list[str]:
    chats = [str(100000 + i) for i in range(start, start + count)]
    with store.lock:
        store.conn.executemany(
            "INSERT OR REPLACE INTO subscriptions (platform, chat_id, board, chat_kind, user_id, active, created, updated) "
            "VALUES (?, ?, ?, 'private', ?, 1, '2019-10-01', '2019-10-01')",
            [(platform, c, board, c) for c in chats],
        )
    return chats


def worker(store, sender, settings, **kw) -> DeliveryWorker:
    kw.setdefault("poll_interval", 0.01)
    kw.setdefault("base_backoff", 0.01)
    return DeliveryWorker(store, sender, settings, **kw)
