"""Sending the reply queue: one lane per chat, in order, so a chat that cannot be sent to waits alone.

Each chat's replies go out one after the other (a parent reads them in the
order they were written); different chats go out side by side, at most
``window`` sends in flight at once. A reply that is not sent is handled in
its own lane:

- RETRY (Telegram's 429 flood control, a 5xx, a network error): the lane waits
  (``retry_after`` for a 429, else the back-off of :mod:`bot.retry`) and tries
  again; the other lanes go on. After ``give_up_attempts`` tries *and*
  ``give_up_seconds`` since it was queued, the reply is kept as ``failed``
  with one warning line: staff see it in ``schoolbot deliveries``.
- FAILED (a request the platform refuses): kept as ``failed``, one warning.
- BLOCKED (the user blocked the bot, the bot left the group): this reply and
  the chat's others are kept as ``blocked``; ``on_blocked`` stops its
  subscriptions.

Delivery guarantee. A sent reply's row is deleted right after the send,
inside the window, so a kill (``kill -9``) leaves at most ``window`` replies
sent but still queued: those are sent again at the next start
(:meth:`ReplyLanes.resume`), every other queued reply exactly once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable

from bot.messages import SendOutcome, SendStatus
from bot.reply_queue import Outgoing, ReplyQueue
from bot.retry import Backoff, pause
from knowledge.store_errors import STORE_ERRORS

log = logging.getLogger("schoolbot.replies")

WINDOW = 8  # sends in flight at once, every chat together: what a kill can make be sent twice
BACKOFF = Backoff(base=0.1, cap=60.0, jitter=0.2)  # after a 5xx or a network error: 0.1, 0.2, 0.4 ... 60 s
GIVE_UP_ATTEMPTS = 12
GIVE_UP_SECONDS = 600.0  # a reply still not sent after both is kept as failed (an answer 10 minutes late is stale)
SEND_TIMEOUT = 60.0

Send = Callable[[Outgoing], Awaitable[SendOutcome]]


class ReplyLanes:
    """Per-chat lanes over one :class:`ReplyQueue`; `send` makes one try of one reply."""

    def __init__(self, queue: ReplyQueue, send: Send, *, window: int = WINDOW, backoff: Backoff = BACKOFF,
                 give_up_attempts: int = GIVE_UP_ATTEMPTS, give_up_seconds: float = GIVE_UP_SECONDS,
                 on_blocked: Callable[[str], object] | None = None, logger: logging.Logger | None = None):
        self.log = logger or log  # an adapter passes its own (which hides its secrets)
        self.queue = queue
        self.send = send
        self.window = asyncio.Semaphore(window)
        self.backoff = backoff
        self.give_up_attempts = give_up_attempts
        self.give_up_seconds = give_up_seconds
        self.on_blocked = on_blocked
        self.where = queue.platform
        self.sent = self.failed = self.retried = 0
        self._lanes: dict[str, deque[Outgoing]] = {}
        self._tasks: dict[str, asyncio.Task] = {}
        self._held = 0  # replies sent from memory because the database refused them
        self._no_waits = asyncio.Event()  # stopping: no lane waits for a retry any more
        self._stop = asyncio.Event()  # stopped: no lane starts another send

    # ------------------------------------------------------------ queueing
    def queue_and_send(self, items: list[Outgoing], also: Callable[[], object] | None = None) -> None:
        """Write the replies to the queue (with `also`, in its transaction) and start sending them.

        When the database refuses the write they are sent from memory all the same (and `also` is not done)."""
        try:
            self.queue.add(items, also)
        except STORE_ERRORS as exc:
            store = self.queue.store
            if not store.trouble.is_refusal(exc):
                raise
            self._held += len(items)
            store.trouble.refused(f"{self.where} reply", self._held, exc)
        self.add(items)

    def resume(self) -> int:
        """Start sending what the queue holds from before this start. Returns how many."""
        waiting = self.queue.waiting()
        if waiting:
            self.log.warning("%s: %d repl%s queued before the last stop not sent yet; sending now", self.where,
                             len(waiting), "y" if len(waiting) == 1 else "ies")
            self.add(waiting)
        return len(waiting)

    def add(self, items: list[Outgoing]) -> None:
        for item in items:
            lane = self._lanes.get(item.chat_id)
            if lane is None:
                lane = self._lanes[item.chat_id] = deque()
            lane.append(item)
            if item.chat_id not in self._tasks and not self._stop.is_set():
                task = asyncio.create_task(self._run(item.chat_id), name=f"replies-{item.chat_id}")
                task.add_done_callback(_retrieved)
                self._tasks[item.chat_id] = task

    def waiting(self) -> int:
        """Replies not sent yet, in every lane."""
        return sum(len(lane) for lane in self._lanes.values())

    async def close(self, drain: float) -> None:
        """Send what is ready for up to `drain` seconds, then stop; what is left stays queued for the next start."""
        self._no_waits.set()
        tasks = list(self._tasks.values())
        if tasks:
            await asyncio.wait(tasks, timeout=drain)
        self._stop.set()
        tasks = list(self._tasks.values())
        if tasks:
            await asyncio.wait(tasks)  # each ends after the send it is in (bounded by SEND_TIMEOUT)
        left = self.waiting()
        if left:
            self.log.info("%s: %d repl%s not sent at shutdown; kept in the queue for the next start", self.where, left,
                     "y" if left == 1 else "ies")

    # ------------------------------------------------------------- sending
    async def _run(self, chat_id: str) -> None:
        lane = self._lanes[chat_id]
        try:
            while lane and not self._stop.is_set():
                item = lane[0]
                async with self.window:
                    if self._stop.is_set():
                        break
                    outcome = await self._try(item)
                    wait = self._settle(chat_id, lane, item, outcome)  # recorded inside the window
                if wait and await pause(wait, self._no_waits):
                    break  # stopping: the reply stays queued
        finally:
            self._tasks.pop(chat_id, None)
            if not lane:
                self._lanes.pop(chat_id, None)

    async def _try(self, item: Outgoing) -> SendOutcome:
        item.attempts += 1
        try:
            return await asyncio.wait_for(self.send(item), timeout=SEND_TIMEOUT)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the adapter should not raise; treat it as transient
            return SendOutcome(SendStatus.RETRY, 0.0, f"error: {exc!r}"[:300])

    def _settle(self, chat_id: str, lane: deque, item: Outgoing, outcome: SendOutcome) -> float:
        """Record one try; the seconds this lane waits before its next try (0: go on)."""
        if outcome.status is SendStatus.SENT:
            lane.popleft()
            self.sent += 1
            self._record(self.queue.sent, item)
            return 0.0
        if outcome.status is SendStatus.BLOCKED:
            gone = list(lane)
            lane.clear()
            self.failed += len(gone)
            self.log.warning("%s: chat %s takes no more messages (%s); %d repl%s kept as blocked", self.where, chat_id,
                        outcome.detail, len(gone), "y" if len(gone) == 1 else "ies")
            self._record(self.queue.settle, gone, "blocked", outcome.detail)
            if self.on_blocked is not None:
                self.on_blocked(chat_id)
            return 0.0
        waited = time.time() - item.created
        if outcome.status is SendStatus.FAILED or (
                item.attempts >= self.give_up_attempts and waited >= self.give_up_seconds):
            lane.popleft()
            self.failed += 1
            self.log.warning("%s: a reply to chat %s was not delivered after %d tr%s in %.0f s (%s); kept as failed "
                        "(schoolbot deliveries)", self.where, chat_id, item.attempts,
                        "y" if item.attempts == 1 else "ies", waited, outcome.detail)
            self._record(self.queue.settle, [item], "failed", outcome.detail)
            return 0.0
        self.retried += 1
        rate_limited = outcome.detail.startswith("flood")
        wait = outcome.retry_after if rate_limited else self.backoff.delay(item.attempts)
        self.log.info("%s: sending to chat %s: %s; trying again in %.1fs", self.where, chat_id, outcome.detail, wait)
        self._record(self.queue.tried, item, outcome.detail)
        return wait

    def _record(self, write: Callable, *args) -> None:
        """A queue write after a send: the send happened, so a database that refuses it costs only the record."""
        try:
            write(*args)
        except STORE_ERRORS as exc:
            store = self.queue.store
            if not store.trouble.is_refusal(exc):
                self.log.exception("%s: could not record a reply's delivery", self.where)
                return
            store.trouble.refused(f"{self.where} reply record", 1, exc)


def _retrieved(task: asyncio.Task) -> None:
    """Mark a lane's end as seen. A lane that meets a deleted database (DatabaseGone, a SystemExit) stops the event
    loop, which stops serve with its one line; the task keeps that exception too, and unseen, asyncio would print
    it again with a traceback ("Task exception was never retrieved") when the task is collected."""
    if not task.cancelled():
        task.exception()
