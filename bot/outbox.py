"""The outbox: broadcasts that survive crashes, and the workers that deliver them.

A broadcast and one delivery row per recipient are written to SQLite in one
transaction *before anything is sent*. A :class:`DeliveryWorker` per platform
then drains its platform's rows through the adapter's
:class:`bot.messages.Sender`, under the platform's limits.

Delivery guarantee. A worker marks a row ``sending`` (committed) before the
send and ``sent`` / ``failed`` / ``blocked`` (committed) right after it, in the
same task, before that task takes another row; at most ``concurrency`` tasks
send at once. After a crash (``kill -9``) the next worker for the platform
puts every ``sending`` row back to ``pending`` and sends it again. So every
recipient gets each broadcast, and only the sends that were in flight at the
crash - at most ``[limits] delivery_concurrency`` per platform - can arrive
twice. One worker per platform runs at a time (a lease in ``delivery_workers``,
taken over when its holder's process is gone or its heartbeat is stale).

Limits: Telegram about 30 messages/s overall (``[limits] telegram_per_second``),
one per second per chat and 20 per minute per group; a 429's ``retry_after``
pauses the whole worker. Discord's limits are discord.py's own (its HTTP
client waits out 429s), so no extra limiter applies there. Transient errors
are retried with exponential back-off, up to ``max_attempts``; a recipient
that blocked the bot is marked inactive and not retried.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import socket
import sqlite3
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from bot.messages import Sender, SendOutcome, SendStatus
from bot.settings import Settings
from knowledge.model import ALL_BOARDS
from knowledge.store import Store, utcnow

log = logging.getLogger("schoolbot.outbox")

# Subscribers on these platforms have no way to receive a message later.
UNDELIVERABLE = frozenset({"console", "cli"})
LEASE_STALE_SECONDS = 30.0  # another host's worker is gone when its heartbeat is this old
LEASE_STALE_LOCAL_SECONDS = 300.0  # same host: the pid is checked; this catches pid reuse
HEARTBEAT_SECONDS = 5.0
SETTLE_ATTEMPTS = 5  # tries to record a send's outcome before the worker stops
SEND_TIMEOUT_SECONDS = 60.0

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS broadcasts (
        id INTEGER PRIMARY KEY,
        created TEXT NOT NULL,
        board TEXT NOT NULL,              -- a board id or 'all'
        body TEXT NOT NULL,               -- the author's text, verbatim
        text TEXT NOT NULL,               -- exactly what recipients get: header + body
        author TEXT NOT NULL,             -- 'platform:user_id'
        notify_platform TEXT,             -- where the final counts are reported
        notify_chat TEXT,
        key TEXT UNIQUE,                  -- idempotency: one broadcast per confirmation
        state TEXT NOT NULL DEFAULT 'sending',  -- sending | done
        total INTEGER NOT NULL DEFAULT 0,
        delivered INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        blocked INTEGER NOT NULL DEFAULT 0,
        finished TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS deliveries (
        id INTEGER PRIMARY KEY,
        broadcast_id INTEGER NOT NULL REFERENCES broadcasts(id),
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        chat_kind TEXT NOT NULL DEFAULT 'private',
        kind TEXT NOT NULL DEFAULT 'message',   -- message | report (the counts, to the sender)
        text TEXT,                              -- reports only; messages use the broadcast's text
        state TEXT NOT NULL DEFAULT 'pending',  -- pending | sending | sent | failed | blocked
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at REAL NOT NULL DEFAULT 0,        -- unix time before which it is not tried
        claim TEXT,                             -- the worker that marked it sending
        detail TEXT,
        done_at TEXT,
        UNIQUE (broadcast_id, platform, chat_id, kind)
    )""",
    "CREATE INDEX IF NOT EXISTS idx_deliveries_pending ON deliveries(platform, next_at, id) WHERE state = 'pending'",
    "CREATE INDEX IF NOT EXISTS idx_deliveries_sending ON deliveries(platform) WHERE state = 'sending'",
    """CREATE TABLE IF NOT EXISTS delivery_workers (
        platform TEXT PRIMARY KEY,
        token TEXT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        started TEXT NOT NULL,
        heartbeat REAL NOT NULL
    )""",
]

FINAL_STATES = ("sent", "failed", "blocked")
_COUNTER = {"sent": "delivered", "failed": "failed", "blocked": "blocked"}


class BroadcastError(ValueError):
    """A broadcast that cannot be made (too long, empty, nobody to send to); the message says why."""


TELEGRAM_MAX_CHARS = 4096


def board_title(knowledge, board_id: str) -> str:
    """How a broadcast names its board: "Toronto District School Board (TDSB)"."""
    if board_id == ALL_BOARDS:
        return "all Ontario school boards"
    board = knowledge.board(board_id)
    return f"{board.name} ({board.id.upper()})" if board else board_id


def broadcast_text(board_name: str, at: datetime, body: str) -> str:
    """Exactly what recipients get: a header naming the board and the time, then the text, plain."""
    from bot.answers import when_published

    return (f"Official update for {board_name}, {when_published(at)}:\n\n{body}\n\n"
            "(You get this because you subscribed. Send /unsubscribe to stop.)")


def check_broadcast(body: str, max_chars: int) -> None:
    """Raise BroadcastError with a clear message when the text is empty or too long."""
    if not body or not body.strip():
        raise BroadcastError("The broadcast text is empty. Usage: /broadcast BOARD|all TEXT")
    if len(body) > max_chars:
        raise BroadcastError(
            f"The broadcast text is {len(body):,} characters long; the limit is {max_chars:,} "
            f"([limits] broadcast_max_chars). Please shorten it by {len(body) - max_chars:,} characters. Nothing was sent."
        )
    if "\x00" in body:
        raise BroadcastError("The broadcast text contains a NUL character. Nothing was sent.")


@dataclass(frozen=True, slots=True)
class Progress:
    id: int
    board: str
    created: str
    author: str
    state: str
    total: int
    delivered: int
    failed: int
    blocked: int
    finished: str | None
    body: str = ""

    @property
    def done_count(self) -> int:
        return self.delivered + self.failed + self.blocked

    @property
    def remaining(self) -> int:
        return self.total - self.done_count

    @property
    def done(self) -> bool:
        return self.state == "done"

    def line(self) -> str:
        return (f"#{self.id} {self.board}: {self.state}, {self.done_count}/{self.total} done - "
                f"{self.delivered} delivered, {self.failed} failed, {self.blocked} blocked")


@dataclass(frozen=True, slots=True)
class Job:
    """One claimed delivery."""

    id: int
    broadcast_id: int
    chat_id: str
    chat_kind: str
    kind: str
    text: str | None
    attempts: int


def _wall() -> float:
    return time.time()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# In-process wake-ups: a broadcast created in this process starts its workers at once.
_wakers: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
_wakers_lock = threading.Lock()


def wake_workers() -> None:
    with _wakers_lock:
        wakers = list(_wakers)
    for loop, event in wakers:
        try:
            loop.call_soon_threadsafe(event.set)
        except RuntimeError:  # the loop is closed
            pass


class Outbox:
    """The outbox tables in the store's database (same connection and lock as the store)."""

    def __init__(self, store: Store):
        self.store = store
        self.conn = store.conn
        with store.lock:
            for statement in _SCHEMA:
                self.conn.execute(statement)
        self._texts: dict[int, str] = {}

    def transaction(self):
        """A write transaction that does not mark the knowledge changed (deliveries are not knowledge)."""
        return self.store.transaction(knowledge=False)

    # ------------------------------------------------------------ creating
    @staticmethod
    def _recipients_query(board: str) -> tuple[str, tuple]:
        marks = ", ".join("?" for _ in UNDELIVERABLE)
        where, args = Store.reached_by(board)
        return (f"FROM subscriptions WHERE {where} AND platform NOT IN ({marks}) GROUP BY platform, chat_id",
                args + tuple(sorted(UNDELIVERABLE)))

    def recipients(self, board: str) -> dict[str, int]:
        """Recipients of a broadcast to `board` now, per platform (each chat once)."""
        tail, args = self._recipients_query(board)
        counts: dict[str, int] = {}
        for (platform,) in self.conn.execute(f"SELECT platform {tail}", args):
            counts[platform] = counts.get(platform, 0) + 1
        return counts

    def create(
        self,
        board: str,
        body: str,
        text: str,
        author: str,
        *,
        notify: tuple[str, str] | None = None,
        key: str | None = None,
        at: datetime | None = None,
        audit: dict | None = None,
        inside: Callable[[object], bool] | None = None,
    ) -> int | None:
        """Write a broadcast and its deliveries in one transaction; returns its id.

        `key` makes it idempotent (the same key returns the first broadcast).
        `inside(conn)` runs in the transaction first; if it returns False,
        nothing is written and None is returned. `audit` (action, target,
        platform, user_id, before) adds an audit row in the same transaction.
        """
        at = at or utcnow()
        with self.transaction() as conn:
            if key is not None:
                row = conn.execute("SELECT id FROM broadcasts WHERE key = ?", (key,)).fetchone()
                if row is not None:
                    return row[0]
            if inside is not None and not inside(conn):
                return None
            if notify is not None and notify[0] in UNDELIVERABLE:
                notify = None
            cur = conn.execute(
                "INSERT INTO broadcasts (created, board, body, text, author, notify_platform, notify_chat, key) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (at.isoformat(), board, body, text, author, notify[0] if notify else None,
                 notify[1] if notify else None, key),
            )
            broadcast_id = cur.lastrowid
            tail, args = self._recipients_query(board)
            cur = conn.execute(
                f"INSERT INTO deliveries (broadcast_id, platform, chat_id, chat_kind) "
                f"SELECT ?, platform, chat_id, MAX(chat_kind) {tail}",
                (broadcast_id, *args),
            )
            total = cur.rowcount
            conn.execute("UPDATE broadcasts SET total = ? WHERE id = ?", (total, broadcast_id))
            if total == 0:
                conn.execute("UPDATE broadcasts SET state = 'done', finished = ? WHERE id = ?", (at.isoformat(), broadcast_id))
            if audit is not None:
                import json

                after = {"broadcast": broadcast_id, "board": board, "recipients": total, "text": body}
                conn.execute(
                    "INSERT INTO audit (at, platform, user_id, action, target, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (at.isoformat(), audit["platform"], audit["user_id"], audit.get("action", "broadcast"), board,
                     None, json.dumps(after, default=str)),
                )
        wake_workers()
        return broadcast_id

    # ------------------------------------------------------------- reading
    _COLUMNS = "id, board, created, author, state, total, delivered, failed, blocked, finished, body"

    def progress(self, broadcast_id: int) -> Progress | None:
        row = self.conn.execute(f"SELECT {self._COLUMNS} FROM broadcasts WHERE id = ?", (broadcast_id,)).fetchone()
        return Progress(*row) if row else None

    def recent(self, limit: int = 10) -> list[Progress]:
        rows = self.conn.execute(f"SELECT {self._COLUMNS} FROM broadcasts ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return [Progress(*r) for r in rows]

    def by_platform(self, broadcast_id: int) -> dict[str, dict[str, int]]:
        """platform -> state -> count, for one broadcast's recipient messages."""
        out: dict[str, dict[str, int]] = {}
        for platform, state, n in self.conn.execute(
            "SELECT platform, state, COUNT(*) FROM deliveries WHERE broadcast_id = ? AND kind = 'message' "
            "GROUP BY platform, state", (broadcast_id,)
        ):
            out.setdefault(platform, {})[state] = n
        return out

    def text_of(self, broadcast_id: int) -> str:
        text = self._texts.get(broadcast_id)
        if text is None:
            text = self.conn.execute("SELECT text FROM broadcasts WHERE id = ?", (broadcast_id,)).fetchone()[0]
            if len(self._texts) > 256:
                self._texts.clear()
            self._texts[broadcast_id] = text
        return text

    def unfinished(self, platform: str) -> int:
        return self.conn.execute(
            "SELECT (SELECT COUNT(*) FROM deliveries WHERE platform = ? AND state = 'pending') + "
            "(SELECT COUNT(*) FROM deliveries WHERE platform = ? AND state = 'sending')",
            (platform, platform),
        ).fetchone()[0]

    def next_due(self, platform: str) -> float | None:
        row = self.conn.execute(
            "SELECT MIN(next_at) FROM deliveries WHERE platform = ? AND state = 'pending'", (platform,)
        ).fetchone()
        return row[0]

    def pending_platforms(self) -> list[str]:
        return [r[0] for r in self.conn.execute(
            "SELECT DISTINCT platform FROM deliveries WHERE state IN ('pending', 'sending') ORDER BY platform")]

    # ------------------------------------------------------------ delivering
    def claim(self, platform: str, token: str, limit: int, now: float | None = None) -> list[Job]:
        """Mark up to `limit` due rows of this platform as being sent by `token`."""
        now = _wall() if now is None else now
        with self.transaction() as conn:
            rows = conn.execute(
                "UPDATE deliveries SET state = 'sending', claim = ?, attempts = attempts + 1 WHERE id IN ("
                " SELECT id FROM deliveries WHERE platform = ? AND state = 'pending' AND next_at <= ?"
                " ORDER BY next_at, id LIMIT ?) "
                "RETURNING id, broadcast_id, chat_id, chat_kind, kind, text, attempts",
                (token, platform, now, limit),
            ).fetchall()
        rows.sort()
        return [Job(*r) for r in rows]

    def finish(self, job: Job, token: str, state: str, detail: str = "") -> bool:
        """Record a final outcome. Returns False if the row was no longer ours."""
        assert state in FINAL_STATES
        now = utcnow().isoformat()
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE deliveries SET state = ?, detail = ?, done_at = ? WHERE id = ? AND state = 'sending' AND claim = ?",
                (state, detail[:500] or None, now, job.id, token),
            )
            if cur.rowcount != 1:
                return False
            if job.kind != "message":
                return True
            counter = _COUNTER[state]
            conn.execute(f"UPDATE broadcasts SET {counter} = {counter} + 1 WHERE id = ?", (job.broadcast_id,))
            row = conn.execute(
                "SELECT total, delivered + failed + blocked, state, notify_platform, notify_chat, board, delivered, failed, blocked "
                "FROM broadcasts WHERE id = ?", (job.broadcast_id,)
            ).fetchone()
            total, done, bstate, nplatform, nchat, board, delivered, failed, blocked = row
            if done >= total and bstate != "done":
                conn.execute("UPDATE broadcasts SET state = 'done', finished = ? WHERE id = ?", (now, job.broadcast_id))
                if nplatform:
                    report = (f"Your broadcast #{job.broadcast_id} to {board} is done: {delivered} delivered, "
                              f"{failed} failed, {blocked} blocked (of {total} recipients).")
                    conn.execute(
                        "INSERT OR IGNORE INTO deliveries (broadcast_id, platform, chat_id, chat_kind, kind, text) "
                        "VALUES (?, ?, ?, 'private', 'report', ?)",
                        (job.broadcast_id, nplatform, nchat, report),
                    )
        return True

    def reschedule(self, job: Job, token: str, next_at: float, detail: str = "", count_attempt: bool = True) -> bool:
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE deliveries SET state = 'pending', next_at = ?, detail = ?, claim = NULL, "
                "attempts = attempts - ? WHERE id = ? AND state = 'sending' AND claim = ?",
                (next_at, detail[:500] or None, 0 if count_attempt else 1, job.id, token),
            )
        return cur.rowcount == 1

    def release(self, jobs: list[Job], token: str) -> None:
        """Give back rows claimed but never sent (a worker stopping)."""
        if not jobs:
            return
        with self.transaction() as conn:
            conn.executemany(
                "UPDATE deliveries SET state = 'pending', claim = NULL, attempts = attempts - 1 "
                "WHERE id = ? AND state = 'sending' AND claim = ?",
                [(job.id, token) for job in jobs],
            )

    def recover(self, platform: str) -> int:
        """Rows left 'sending' by a worker that is gone go back to 'pending' (they may have been sent)."""
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE deliveries SET state = 'pending', claim = NULL, detail = 'interrupted; resent' "
                "WHERE platform = ? AND state = 'sending'", (platform,)
            )
        return cur.rowcount

    # ---------------------------------------------------------------- lease
    def acquire(self, platform: str, token: str) -> dict | None:
        """Become the platform's worker. Returns None, or the live holder's row if another has it."""
        host, pid, now = socket.gethostname(), os.getpid(), _wall()
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT token, host, pid, started, heartbeat FROM delivery_workers WHERE platform = ?", (platform,)
            ).fetchone()
            if row is not None and row[0] != token:
                holder = {"token": row[0], "host": row[1], "pid": row[2], "started": row[3], "heartbeat": row[4]}
                age = now - row[4]
                if row[1] == host:
                    alive = _pid_alive(row[2]) and age < LEASE_STALE_LOCAL_SECONDS
                else:
                    alive = age < LEASE_STALE_SECONDS
                if alive:
                    return holder
            conn.execute(
                "INSERT INTO delivery_workers (platform, token, host, pid, started, heartbeat) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(platform) DO UPDATE SET token = excluded.token, host = excluded.host, pid = excluded.pid, "
                "started = excluded.started, heartbeat = excluded.heartbeat",
                (platform, token, host, pid, utcnow().isoformat(), now),
            )
        return None

    def heartbeat(self, platform: str, token: str) -> bool:
        with self.store.lock:
            cur = self.conn.execute(
                "UPDATE delivery_workers SET heartbeat = ? WHERE platform = ? AND token = ?", (_wall(), platform, token)
            )
        return cur.rowcount == 1

    def release_lease(self, platform: str, token: str) -> None:
        with self.store.lock:
            self.conn.execute("DELETE FROM delivery_workers WHERE platform = ? AND token = ?", (platform, token))

    def workers(self) -> list[dict]:
        return [
            {"platform": r[0], "host": r[1], "pid": r[2], "started": r[3], "heartbeat": r[4]}
            for r in self.conn.execute("SELECT platform, host, pid, started, heartbeat FROM delivery_workers ORDER BY platform")
        ]


# --------------------------------------------------------------------- limits
@dataclass(frozen=True, slots=True)
class Limits:
    per_second: float = 0.0  # overall sends per second; 0 = no limit
    per_chat_interval: float = 0.0  # seconds between two messages to one chat
    group_per_minute: int = 0  # messages per minute to one group; 0 = no limit


def limits_for(platform: str, settings: Settings) -> Limits:
    if platform == "telegram":
        return Limits(settings.limits.telegram_per_second, 1.0, 20)
    return Limits()  # discord.py paces its own requests and waits out 429s


class RateLimiter:
    """Spaces sends evenly at `per_second`, keeps per-chat and per-group gaps, and pauses on 429."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic):
        self.limits = limits
        self.interval = 1.0 / limits.per_second if limits.per_second > 0 else 0.0
        self.clock = clock
        self.next_slot = 0.0
        self.paused_until = 0.0
        self.last_chat: dict[str, float] = {}
        self.group_sends: dict[str, deque] = {}
        self._pruned = 0.0

    def pause(self, seconds: float) -> None:
        self.paused_until = max(self.paused_until, self.clock() + seconds)

    async def slot(self) -> None:
        """Wait for this send's turn under the overall rate and any pause."""
        while True:
            now = self.clock()
            at = max(now, self.paused_until)
            if self.interval:
                at = max(at, self.next_slot)
                self.next_slot = at + self.interval
            if at > now:
                await asyncio.sleep(at - now)
            if self.clock() >= self.paused_until:
                return

    def chat_wait(self, chat_id: str, group: bool) -> float:
        """Seconds until this chat may get another message (0 = now)."""
        now = self.clock()
        wait = 0.0
        if self.limits.per_chat_interval:
            last = self.last_chat.get(chat_id)
            if last is not None:
                wait = max(wait, last + self.limits.per_chat_interval - now)
        if group and self.limits.group_per_minute:
            sends = self.group_sends.get(chat_id)
            if sends:
                while sends and sends[0] <= now - 60:
                    sends.popleft()
                if len(sends) >= self.limits.group_per_minute:
                    wait = max(wait, sends[0] + 60 - now)
        return max(0.0, wait)

    def note_send(self, chat_id: str, group: bool, delay: float = 0.0) -> None:
        """Reserve this chat's turn (now, or after `delay` seconds)."""
        now = self.clock() + delay
        if self.limits.per_chat_interval:
            self.last_chat[chat_id] = now
        if group and self.limits.group_per_minute:
            self.group_sends.setdefault(chat_id, deque()).append(now)
        if now - self._pruned > 10:
            self._prune(now)

    def _prune(self, now: float) -> None:
        self._pruned = now
        horizon = now - max(self.limits.per_chat_interval, 1.0)
        self.last_chat = {c: t for c, t in self.last_chat.items() if t > horizon}
        self.group_sends = {c: d for c, d in self.group_sends.items() if d and d[-1] > now - 60}


# --------------------------------------------------------------------- worker
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


class DeliveryWorker:
    """Drains one platform's deliveries through its Sender."""

    def __init__(
        self,
        store: Store,
        sender: Sender,
        settings: Settings | None = None,
        *,
        concurrency: int | None = None,
        limits: Limits | None = None,
        poll_interval: float = 0.5,
        max_attempts: int = 8,
        base_backoff: float = 1.0,
        max_backoff: float = 300.0,
    ):
        settings = settings or Settings()
        self.store = store
        self.outbox = Outbox(store)
        self.sender = sender
        self.platform = sender.platform
        self.concurrency = concurrency or settings.limits.delivery_concurrency
        self.limiter = RateLimiter(limits if limits is not None else limits_for(self.platform, settings))
        self.poll_interval = poll_interval
        self.max_attempts = max_attempts
        self.base_backoff = base_backoff
        self.max_backoff = max_backoff
        self.token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.stats = WorkerStats()
        self._buffer: deque[Job] = deque()
        self._inflight = 0
        self._stop = asyncio.Event()
        self._wake: asyncio.Event | None = None

    def stop(self) -> None:
        self._stop.set()
        if self._wake is not None:
            self._wake.set()

    async def run(self, *, once: bool = False) -> WorkerStats:
        """Deliver until stopped (or, with once=True, until this platform's outbox is empty)."""
        loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        waker = (loop, self._wake)
        while True:
            holder = self.outbox.acquire(self.platform, self.token)
            if holder is None:
                break
            if once:
                self.stats.busy_with = holder
                return self.stats
            try:  # serve: wait for the other worker to go away
                await asyncio.wait_for(self._stop.wait(), timeout=HEARTBEAT_SECONDS)
                return self.stats
            except TimeoutError:
                continue
        with _wakers_lock:
            _wakers.add(waker)
        try:
            self.stats.recovered = self.outbox.recover(self.platform)
            if self.stats.recovered:
                log.warning("%s: %d deliveries were in flight when the last worker stopped; sending them again",
                            self.platform, self.stats.recovered)
            beat = asyncio.create_task(self._heartbeat())
            tasks = [asyncio.create_task(self._loop(once)) for _ in range(self.concurrency)]
            try:
                await asyncio.gather(*tasks)
            finally:
                beat.cancel()
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, beat, return_exceptions=True)
                self.outbox.release(list(self._buffer), self.token)
                self._buffer.clear()
        finally:
            with _wakers_lock:
                _wakers.discard(waker)
            self.outbox.release_lease(self.platform, self.token)
        return self.stats

    async def _heartbeat(self) -> None:
        """Keep the lease fresh; stop delivering if it is lost or cannot be renewed.

        A failed renewal (say the database is busy) is retried at the next beat;
        only when the lease could go stale for another worker to take over does
        this worker stop, so two workers never deliver the same outbox at once.
        """
        failures = 0
        while not self._stop.is_set():
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                held = self.outbox.heartbeat(self.platform, self.token)
                failures = 0
            except sqlite3.Error as exc:
                failures += 1
                log.warning("%s: could not renew the outbox lease (%s), attempt %d", self.platform, exc, failures)
                if failures * HEARTBEAT_SECONDS >= LEASE_STALE_SECONDS / 2:
                    log.error("%s: the outbox lease could not be renewed; stopping before it goes stale", self.platform)
                    self.stop()
                continue
            if not held:
                log.error("%s: another worker took over the outbox; stopping", self.platform)
                self.stop()

    def _next(self) -> Job | None:
        if not self._buffer:
            batch = max(self.concurrency * 2, 16)
            self._buffer.extend(self.outbox.claim(self.platform, self.token, batch))
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
            wait = min(wait, max(0.01, due - _wall()))
        elif once and self._inflight:
            wait = min(wait, 0.05)
        self._wake.clear()
        try:
            await asyncio.wait_for(self._wake.wait(), timeout=wait)
        except TimeoutError:
            pass
        return self._stop.is_set()

    async def _loop(self, once: bool) -> None:
        while not self._stop.is_set():
            job = self._next()
            if job is None:
                if await self._idle(once):
                    return
                continue
            self._inflight += 1
            try:
                await self._deliver(job)
            finally:
                self._inflight -= 1

    def _backoff(self, attempts: int) -> float:
        delay = min(self.max_backoff, self.base_backoff * (2 ** max(0, attempts - 1)))
        return delay * (0.75 + random.random() / 2)

    async def _deliver(self, job: Job) -> None:
        group = job.chat_kind == "group"
        wait = self.limiter.chat_wait(job.chat_id, group)
        if wait > 1.5:  # don't hold a slot: come back to it later
            self.outbox.reschedule(job, self.token, _wall() + wait, "per-chat limit", count_attempt=False)
            return
        self.limiter.note_send(job.chat_id, group, wait)
        if wait > 0:
            await asyncio.sleep(wait)
        text = job.text if job.text is not None else self.outbox.text_of(job.broadcast_id)
        await self.limiter.slot()
        try:
            outcome = await asyncio.wait_for(self.sender.send_text(job.chat_id, text), timeout=SEND_TIMEOUT_SECONDS)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the adapter should not raise; treat it as transient
            log.warning("%s: sending to %s raised %r", self.platform, job.chat_id, exc)
            outcome = SendOutcome(SendStatus.RETRY, 0.0, f"error: {exc!r}")
        self.stats.outcomes[outcome.status.value] = self.stats.outcomes.get(outcome.status.value, 0) + 1
        for attempt in range(SETTLE_ATTEMPTS):
            try:
                self._settle(job, outcome)
                return
            except sqlite3.Error as exc:  # the database is busy: the send happened, so keep trying to record it
                log.warning("%s: could not record the delivery to %s (%s), attempt %d",
                            self.platform, job.chat_id, exc, attempt + 1)
                await asyncio.sleep(0.1 * 2**attempt)
        # Still not recorded: stop cleanly and let the other sends in flight finish; the row stays
        # 'sending' and is sent again after a restart, within the concurrency bound.
        log.error("%s: could not record a delivery; stopping the worker", self.platform)
        self.stop()

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
                delay = max(outcome.retry_after, self._backoff(job.attempts))
                self.outbox.reschedule(job, self.token, _wall() + delay, outcome.detail or "retry")
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


async def run_delivery(store: Store, settings: Settings, senders: dict[str, Sender], stop: asyncio.Event) -> None:
    """For `schoolbot serve`: a worker for each platform whose Sender appears in `senders`, until `stop`.

    `senders` fills in as platforms connect; a worker that fails is logged and started again.
    """
    workers: dict[str, DeliveryWorker] = {}
    tasks: dict[str, asyncio.Task] = {}
    try:
        while not stop.is_set():
            for name, sender in list(senders.items()):
                task = tasks.get(name)
                if task is not None and task.done():
                    if not task.cancelled() and task.exception() is not None:
                        log.error("%s delivery worker failed; starting it again", name, exc_info=task.exception())
                    task = None
                if task is None:
                    workers[name] = DeliveryWorker(store, sender, settings)
                    tasks[name] = asyncio.create_task(workers[name].run(), name=f"delivery-{name}")
            try:
                await asyncio.wait_for(stop.wait(), timeout=1.0)
            except TimeoutError:
                pass
    finally:
        for worker in workers.values():
            worker.stop()
        if tasks:
            await asyncio.gather(*tasks.values(), return_exceptions=True)
