"""A toy platform: users' messages come in through a queue, everything the bot sends goes out through another.

It has no token, no network and no library; it is added to the bot through the
platform registry alone (`toy.platform` in adapters.platforms.PLATFORMS), and then
`serve` runs it and hands its Sender to the broadcast worker, `serve --toy` and
`deliver --platform toy` exist, and `deliver` delivers its users' broadcasts.
"""

from __future__ import annotations

import asyncio
import queue
from contextlib import asynccontextmanager

from adapters.platform import Platform
from bot.messages import Incoming, SendLimits, SendOutcome, SendStatus
from bot.text import plain, split_text

NAME = "toy"
LIMITS = SendLimits(max_chars=4096)


class ToySender:
    """Puts (chat, text) on the wire's `sent` queue: always delivered."""

    platform = NAME
    limits = LIMITS

    def __init__(self, sent: queue.SimpleQueue):
        self.sent = sent

    async def send_text(self, chat_id: str, text: str) -> SendOutcome:
        for chunk in split_text(plain(text), self.limits.max_chars):
            self.sent.put((chat_id, chunk))
        return SendOutcome(SendStatus.SENT)


class Toy:
    """Both ends of the wire: put (user, text) on `inbox`, `inbox.join()` until answered, read `sent`."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.sent: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()  # read from any thread or loop
        self.platform = Platform(name=NAME, title="Toy", chat_ids="the user's name", limits=lambda settings: LIMITS,
                                 run=self.run, open_sender=self.open_sender)

    async def run(self, bot, settings, stop: asyncio.Event, on_ready) -> None:
        sender = ToySender(self.sent)
        on_ready(sender)
        while True:  # until serve cancels it (not graceful)
            user, text = await self.inbox.get()
            for reply in bot.handle(Incoming(NAME, user, user, text, bot.clock())):
                await sender.send_text(user, reply.text)
            self.inbox.task_done()

    @asynccontextmanager
    async def open_sender(self, settings):
        yield ToySender(self.sent)
