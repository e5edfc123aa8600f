"""The delivery worker: drains one platform's outbox rows through that platform's Sender.

Delivery guarantee. A worker marks a row ``sending`` (committed) before the send
and ``sent`` / ``failed`` / ``blocked`` (committed) right after it, in the same
task, before that task takes another row; at most ``concurrency`` tasks send at
once. After a crash (``kill -9``) the next worker for the platform puts every
``sending`` row back to ``pending`` and sends it again. So every recipient gets
each broadcast, and only the sends that were in flight at the crash - at most
``[limits] delivery_concurrency`` per platform - can arrive twice. One worker per
platform runs at a time (:mod:`bot.broadcast.lease`).

Limits are the sender's own (:class:`bot.messages.SendLimits`): Telegram's
30 messages/s, one per second per chat and 20 per minute per group; Discord's
library paces itself. Text longer than the sender's ``max_chars`` goes out in parts
(:func:`bot.text.split_text`), each taking its turn under the overall rate. A 429's ``retry_after`` pauses the whole worker. Transient
errors are retried with back-off up to ``max_attempts``; a recipient that blocked
the bot is marked inactive and not retried. When the database stays unusable
(bookkeeping fails ``settle_attempts`` times in a row) the worker stops cleanly:
the sends in flight finish, unsent rows go back to ``pending``, and
``stats.stopped`` says why.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field

from bot.broadcast.lease import HEARTBEAT_SECONDS, LEASE_STALE_SECONDS, Lease, new_token
from bot.broadcast.limiter import RateLimiter
from bot.broadcast.outbox import Job, Outbox
from bot.broadcast.wakeup import Wakeup
from bot.messages import Sender, SendLimits, SendOutcome, SendStatus
from bot.retry import Backoff, retry
from bot.settings import Settings
from bot.text import plain, split_text
from knowledge.store import Store
from knowledge.store_errors import STORE_ERRORS

log = logging.getLogger("schoolbot.outbox")

SETTLE_ATTEMPTS = 5  # tries to record a send's outcome before the worker stops
SETTLE_BACKOFF = Backoff(base=0.1, cap=2.0, jitter=0.0)  # 0.1, 0.2, 0.4, 0.8 s between them
SEND_TIMEOUT_SECONDS = 60.0


@dataclass(slots=True)
class WorkerStats:
    sent: int = 0
    failed: int = 0
    blocked: int = 0
    retried: int = 0
    recovered: int = 0
    busy_with: dict | None = None  # another live worker had the lease
    reports: int = 0
    outcomes: dict = field(default_factory=dict)
    stopped: str = ""  # why the worker stopped by itself (empty: drained, or asked to stop)


class DatabaseUnusable(Exception):
    """The outbox could not be read or written after several tries: the worker stops."""


class DeliveryWorker:
    """Drains one platform's deliveries through its Sender."""

    def __init__(
        self,
        store: Store,
        sender: Sender,
        settings: Settings | None = None,
        *,
        concurrency: int | None = None,
        limits: SendLimits | None = None,
        wakeup: Wakeup | None = None,
        poll_interval: float = 0.5,
        max_attempts: int = 8,
        base_backoff: float = 1.0,
        max_backoff: float = 300.0,
        heartbeat_seconds: float = HEARTBEAT_SECONDS,
        lease_stale_seconds: float = LEASE_STALE_SECONDS,
        settle_attempts: int = SETTLE_ATTEMPTS,
        settle_backoff: Backoff = SETTLE_BACKOFF,
        replaces: str | None = None,
    ):
        settings = settings or Settings()
        self.store = store
        self.outbox = Outbox(store)
        self.sender = sender
        self.platform = sender.platform
        self.concurrency = concurrency or settings.limits.delivery_concurrency
        self.limiter = RateLimiter(limits if limits is not None else getattr(sender, "limits", SendLimits()))
        self.wakeup = wakeup
        self.poll_interval = poll_interval
        self.max_attempts = max_attempts
        self.backoff = Backoff(base=base_backoff, cap=max_backoff)
        self.heartbeat_seconds = heartbeat_seconds
        self.lease_stale_seconds = lease_stale_seconds
        self.settle_attempts = settle_attempts
        self.settle_backoff = settle_backoff
        self.token = new_token()
        self.lease = Lease(store, self.platform, self.token, replaces)  # replaces: a stopped worker's token
        self.stats = WorkerStats()
        self._buffer: deque[Job] = deque()
        self._parts_sent: dict[int, int] = {}  # delivery id -> parts of a long text already sent
        self._inflight = 0
        self._stop = asyncio.Event()
        self._wake = asyncio.Event()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def stop(self, reason: str = "") -> None:
        if reason and not self.stats.stopped:
            self.stats.stopped = reason
        self._stop.set()
        self._wake.set()

    async def run(self, *, once: bool = False) -> WorkerStats:
        """Deliver until stopped (or, with once=True, until this platform's outbox is empty).

        Never raises for a database that stays unusable: it stops and ``stats.stopped`` says why.
        """
        try:
            if not await self._take_lease(once):
                return self.stats
        except DatabaseUnusable as exc:
            log.error("%s: %s; not delivering", self.platform, exc)
            self.stop(f"database unusable: {exc}")
            return self.stats
        try:
            self.stats.recovered = await self._record(lambda: self.outbox.recover(self.platform), "recover rows in flight")
            if self.stats.recovered:
                log.warning("%s: %d deliveries were in flight when the last worker stopped; sending them again",
                            self.platform, self.stats.recovered)
            with self.wakeup.listening(self._wake) if self.wakeup else nullcontext():
                await self._deliver_all(once)
        except DatabaseUnusable as exc:
            log.error("%s: %s; stopping the worker", self.platform, exc)
            self.stop(f"database unusable: {exc}")
        finally:
            await self._give_back()
        return self.stats

    async def _take_lease(self, once: bool) -> bool:
        """Become the platform's worker; with once=True give up at once if another has it (stats.busy_with)."""
        while True:
            holder = await self._record(self.lease.acquire, "take the outbox lease")
            if holder is None:
                return True
            if once:
                self.stats.busy_with = holder
                return False
            try:  # serve: wait for the other worker to go away
                await asyncio.wait_for(self._stop.wait(), timeout=self.heartbeat_seconds)
                return False
            except TimeoutError:
                continue

    async def _deliver_all(self, once: bool) -> None:
        beat = asyncio.create_task(self._heartbeat())
        tasks = [asyncio.create_task(self._loop(once)) for _ in range(self.concurrency)]
        try:
            await asyncio.gather(*tasks)
        finally:
            beat.cancel()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, beat, return_exceptions=True)

    async def _give_back(self) -> None:
        """Rows claimed but not sent go back to pending, and the lease is released (retried briefly)."""
        jobs = list(self._buffer)
        self._buffer.clear()
        try:
            await self._record(lambda: self.outbox.release(jobs, self.token), "give back unsent rows")
            await self._record(self.lease.release, "release the lease")
        except DatabaseUnusable:  # the next worker recovers the rows (they stay 'sending') once the lease is stale
            log.error("%s: stopped without giving back %d unsent rows; the next worker sends them", self.platform, len(jobs))

    async def _record(self, write: Callable[[], object], what: str):
        """One bookkeeping write, retried on a busy database; DatabaseUnusable when it stays unusable."""
        try:
            return write()  # the usual case: done at once, without the retry machinery
        except STORE_ERRORS as exc:
            first = exc

        def told(failures: int, exc: BaseException, wait: float) -> None:
            log.warning("%s: could not %s (%s), attempt %d", self.platform, what, exc, failures)

        try:
            return await retry(write, attempts=self.settle_attempts, backoff=self.settle_backoff,
                               retry_on=STORE_ERRORS, on_retry=told, failed=first)
        except STORE_ERRORS as exc:
            raise DatabaseUnusable(f"could not {what} after {self.settle_attempts} tries: {exc}") from exc

    async def _heartbeat(self) -> None:
        """Keep the lease fresh; stop delivering if it is lost or cannot be renewed.

        A failed renewal (say the database is busy) is retried at the next beat;
        only when the lease could go stale for another worker to take over does
        this worker stop, so two workers never deliver the same outbox at once.
        """
        beats = max(1, int(self.lease_stale_seconds / 2 / self.heartbeat_seconds))
        every_beat = Backoff(base=self.heartbeat_seconds, cap=self.heartbeat_seconds, jitter=0.0)

        def told(failures: int, exc: BaseException, wait: float) -> None:
            log.warning("%s: could not renew the outbox lease (%s), attempt %d", self.platform, exc, failures)

        while not self._stop.is_set():
            await asyncio.sleep(self.heartbeat_seconds)
            try:
                held = await retry(self.lease.renew, attempts=beats, backoff=every_beat, retry_on=STORE_ERRORS,
                                   on_retry=told, stop=self._stop)
            except STORE_ERRORS:
                if not self._stop.is_set():
                    log.error("%s: the outbox lease could not be renewed; stopping before it goes stale", self.platform)
                    self.stop("the outbox lease could not be renewed (database unusable)")
                return
            if not held:
                log.error("%s: another worker took over the outbox; stopping", self.platform)
                self.stop("another worker took over the outbox")

    async def _next(self) -> Job | None:
        if not self._buffer:
            batch = max(self.concurrency * 2, 16)
            claimed = await self._record(lambda: self.outbox.claim(self.platform, self.token, batch), "claim rows")
            if self._stop.is_set():  # stopped meanwhile: these go straight back
                self._buffer.extend(claimed)
                return None
            self._buffer.extend(claimed)
        return self._buffer.popleft() if self._buffer else None

    async def _idle(self, once: bool) -> bool:
        """Nothing due now. Returns True when this task should end."""
        if self._stop.is_set():
            return True
        if once and self._inflight == 0 and not self._buffer and self.outbox.unfinished(self.platform) == 0:
            return True
        due = self.outbox.next_due(self.platform)
        wait = self.poll_interval
        if due is not None:
            wait = min(wait, max(0.01, due - time.time()))
        elif once and self._inflight:
            wait = min(wait, 0.05)
        self._wake.clear()
        try:
            await asyncio.wait_for(self._wake.wait(), timeout=wait)
        except TimeoutError:
            pass
        return self._stop.is_set()

    async def _loop(self, once: bool) -> None:
        try:
            while not self._stop.is_set():
                job = await self._next()
                if job is None:
                    if await self._idle(once):
                        return
                    continue
                self._inflight += 1
                try:
                    await self._deliver(job)
                finally:
                    self._inflight -= 1
        except (DatabaseUnusable, *STORE_ERRORS) as exc:
            # Stop cleanly: the other sends in flight finish; a row whose outcome could not be recorded
            # stays 'sending' and is sent again after a restart, within the concurrency bound.
            log.error("%s: the outbox database is unusable (%s); stopping the worker", self.platform, exc)
            self.stop(f"database unusable: {exc}")

    async def _deliver(self, job: Job) -> None:
        group = job.chat_kind == "group"
        wait = self.limiter.chat_wait(job.chat_id, group)
        if wait > 1.5:  # don't hold a slot: come back to it later
            await self._record(lambda: self.outbox.reschedule(job, self.token, time.time() + wait, "per-chat limit",
                                                              count_attempt=False), "reschedule a delivery")
            return
        self.limiter.note_send(job.chat_id, group, wait)
        if wait > 0:
            await asyncio.sleep(wait)
        text = job.text if job.text is not None else self.outbox.text_of(job.broadcast_id, job.language)
        outcome = await self._send(job, text)
        self.stats.outcomes[outcome.status.value] = self.stats.outcomes.get(outcome.status.value, 0) + 1
        # The send happened: keep trying to record it while the database is busy.
        await self._record(lambda: self._settle(job, outcome), f"record the delivery to {job.chat_id}")

    async def _send(self, job: Job, text: str) -> SendOutcome:
        """Send `text` plain, in parts of at most the sender's `max_chars`, each in its turn under the rate limit.

        When a later part fails, the retry resumes after the parts already sent (while this worker runs).
        """
        limit = self.limiter.limits.max_chars
        parts = [text] if len(text) <= limit else split_text(plain(text), limit)  # the sender makes each part plain
        done = self._parts_sent.pop(job.id, 0)
        outcome = SendOutcome(SendStatus.SENT)
        for k in range(done, len(parts)):
            await self.limiter.slot()
            try:
                outcome = await asyncio.wait_for(self.sender.send_text(job.chat_id, parts[k]), timeout=SEND_TIMEOUT_SECONDS)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the adapter should not raise; treat it as transient
                log.warning("%s: sending to %s raised %r", self.platform, job.chat_id, exc)
                outcome = SendOutcome(SendStatus.RETRY, 0.0, f"error: {exc!r}")
            if outcome.status is not SendStatus.SENT:
                if k and outcome.status is SendStatus.RETRY:
                    self._parts_sent[job.id] = k
                break
        return outcome

    def _settle(self, job: Job, outcome: SendOutcome) -> None:
        """Record what happened to one send (all bookkeeping after the send itself)."""
        if outcome.status == SendStatus.SENT:
            self.outbox.finish(job, self.token, "sent")
            if job.kind == "message":
                self.stats.sent += 1
            else:
                self.stats.reports += 1
        elif outcome.status == SendStatus.BLOCKED:
            self.outbox.finish(job, self.token, "blocked", outcome.detail)
            if job.kind == "message":
                self.store.mark_blocked(self.platform, job.chat_id)
                self.stats.blocked += 1
        elif outcome.status == SendStatus.FAILED:
            self.outbox.finish(job, self.token, "failed", outcome.detail)
            self.stats.failed += 1 if job.kind == "message" else 0
        else:  # RETRY
            if outcome.retry_after > 0:
                self.limiter.pause(outcome.retry_after)
            if job.attempts >= self.max_attempts:
                self.outbox.finish(job, self.token, "failed", f"gave up after {job.attempts} attempts: {outcome.detail}")
                self.stats.failed += 1 if job.kind == "message" else 0
            else:
                delay = max(outcome.retry_after, self.backoff.delay(job.attempts))
                self.outbox.reschedule(job, self.token, time.time() + delay, outcome.detail or "retry")
                self.stats.retried += 1


async def run_workers(store: Store, senders: list[Sender], settings: Settings, *, once: bool = False,
                      **options) -> dict[str, WorkerStats]:
    """One DeliveryWorker per sender, together; with once=True, until every outbox is drained."""
    workers = [DeliveryWorker(store, sender, settings, **options) for sender in senders]
    try:
        results = await asyncio.gather(*(w.run(once=once) for w in workers))
    finally:
        for w in workers:
            w.stop()
    return {w.platform: r for w, r in zip(workers, results, strict=False)}
