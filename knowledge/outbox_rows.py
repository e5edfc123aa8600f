"""The outbox's rows (tables ``broadcasts`` and ``deliveries``): a broadcast, one delivery row per recipient.

A part of :class:`knowledge.store.Store` (``store.outbox``), on its connection and lock. It
reads and writes rows only; what a broadcast says, who may send one, ringing the workers and
the sender's report are :class:`bot.broadcast.outbox.Outbox`'s.

A delivery row is ``pending`` until a worker claims it (``sending``, committed before the
send), then ``sent``, ``failed`` or ``blocked``, or ``pending`` again (rescheduled, given
back, or recovered after a worker was killed). A broadcast is ``done`` when every message
row is settled.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

FINAL_STATES = ("sent", "failed", "blocked")
_COUNTER = {"sent": "delivered", "failed": "failed", "blocked": "blocked"}


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
    language: str = "en"  # which of the broadcast's texts (messages)


@dataclass(frozen=True, slots=True)
class Finished:
    """A broadcast whose last message row was just settled: what its author's report says."""

    id: int
    board: str
    total: int
    delivered: int
    failed: int
    blocked: int
    language: str  # the author's


# A recipient chat's language, in SQL over `subscriptions`: the user's remembered language for a private
# chat, else the language the chat subscribed in; 'fr' or 'en'.
_LANGUAGE = ("CASE WHEN COALESCE(CASE WHEN chat_kind = 'private' THEN (SELECT u.language FROM users u "
             "WHERE u.platform = subscriptions.platform AND u.user_id = subscriptions.user_id) END, language) = 'fr' "
             "THEN 'fr' ELSE 'en' END")
_COLUMNS = "id, board, created, author, state, total, delivered, failed, blocked, finished, body"


class OutboxRows:
    """The outbox tables in the store's database (same connection and lock as the store)."""

    def __init__(self, store):
        self.store = store
        self.conn = store.conn

    def transaction(self):
        """A write transaction that does not mark the knowledge changed (deliveries are not knowledge)."""
        return self.store.transaction(knowledge=False)

    # ------------------------------------------------------------ creating
    def _recipients(self, board: str, skip: Iterable[str]) -> tuple[str, tuple]:
        skip = tuple(sorted(skip))
        marks = ", ".join("?" for _ in skip)
        where, args = self.store.reached_by(board)
        return (f"FROM subscriptions WHERE {where} AND platform NOT IN ({marks}) GROUP BY platform, chat_id",
                args + skip)

    def audience(self, board: str, skip: Iterable[str] = ()) -> tuple[dict[str, int], dict[str, int]]:
        """Recipients of a broadcast to `board` now (each chat once, none on a `skip` platform): per platform,
        and per language."""
        tail, args = self._recipients(board, skip)
        platforms: dict[str, int] = {}
        languages: dict[str, int] = {}
        for platform, language in self.conn.execute(f"SELECT platform, MAX({_LANGUAGE}) {tail}", args):
            platforms[platform] = platforms.get(platform, 0) + 1
            languages[language] = languages.get(language, 0) + 1
        return platforms, languages

    def create(self, board: str, body: str, text: str, author: str, at: datetime, *,
               notify: tuple[str, str] | None = None, key: str | None = None, text_fr: str | None = None,
               language: str = "en", skip: Iterable[str] = ()) -> int:
        """Write a broadcast and one delivery row per recipient (each chat once, in its language; none on a
        `skip` platform) in one transaction (joining the caller's); returns its id. A broadcast reaching
        nobody is done at once. `key` makes it idempotent: the same key returns the first broadcast's id.
        `notify` (platform, chat): where the author's report goes when it is done."""
        with self.transaction() as conn:
            if key is not None:
                row = conn.execute("SELECT id FROM broadcasts WHERE key = ?", (key,)).fetchone()
                if row is not None:
                    return row[0]
            cur = conn.execute(
                "INSERT INTO broadcasts (created, board, body, text, text_fr, language, author, notify_platform, "
                "notify_chat, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (at.isoformat(), board, body, text, text_fr, language, author, notify[0] if notify else None,
                 notify[1] if notify else None, key),
            )
            broadcast_id = cur.lastrowid
            tail, args = self._recipients(board, skip)
            cur = conn.execute(
                f"INSERT INTO deliveries (broadcast_id, platform, chat_id, chat_kind, language) "
                f"SELECT ?, platform, chat_id, MAX(chat_kind), MAX({_LANGUAGE}) {tail}",
                (broadcast_id, *args),
            )
            total = cur.rowcount
            conn.execute("UPDATE broadcasts SET total = ? WHERE id = ?", (total, broadcast_id))
            if total == 0:
                conn.execute("UPDATE broadcasts SET state = 'done', finished = ? WHERE id = ?", (at.isoformat(), broadcast_id))
        return broadcast_id

    # ------------------------------------------------------------- reading
    def progress(self, broadcast_id: int) -> Progress | None:
        row = self.conn.execute(f"SELECT {_COLUMNS} FROM broadcasts WHERE id = ?", (broadcast_id,)).fetchone()
        return Progress(*row) if row else None

    def recent(self, limit: int = 10) -> list[Progress]:
        rows = self.conn.execute(f"SELECT {_COLUMNS} FROM broadcasts ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
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

    def troubled(self, broadcast_id: int, limit: int = 20) -> list[tuple[str, str, str, int, str | None]]:
        """(platform, chat, state, attempts, detail) of one broadcast's rows given up on or being retried,
        oldest first."""
        return self.conn.execute(
            "SELECT platform, chat_id, state, attempts, detail FROM deliveries WHERE broadcast_id = ? "
            "AND (state IN ('failed', 'blocked') OR (state = 'pending' AND attempts > 0)) ORDER BY id LIMIT ?",
            (broadcast_id, limit),
        ).fetchall()

    def text_of(self, broadcast_id: int, language: str = "en") -> str:
        """What a recipient reading `language` gets of a broadcast (its one text when it has no French)."""
        return self.conn.execute(
            "SELECT CASE WHEN ? = 'fr' THEN COALESCE(text_fr, text) ELSE text END FROM broadcasts WHERE id = ?",
            (language, broadcast_id)).fetchone()[0]

    def unfinished(self, platform: str) -> int:
        """How many of this platform's rows are still to send or being sent."""
        return self.conn.execute(
            "SELECT (SELECT COUNT(*) FROM deliveries WHERE platform = ? AND state = 'pending') + "
            "(SELECT COUNT(*) FROM deliveries WHERE platform = ? AND state = 'sending')",
            (platform, platform),
        ).fetchone()[0]

    def next_due(self, platform: str) -> float | None:
        """When this platform's next pending row is due (unix time); None when none is pending."""
        return self.conn.execute(
            "SELECT MIN(next_at) FROM deliveries WHERE platform = ? AND state = 'pending'", (platform,)
        ).fetchone()[0]

    def pending_platforms(self, broadcast_id: int | None = None) -> list[str]:
        """Platforms with rows still to send (of one broadcast, or of any)."""
        where, args = ("AND broadcast_id = ?", (broadcast_id,)) if broadcast_id is not None else ("", ())
        return [r[0] for r in self.conn.execute(
            f"SELECT DISTINCT platform FROM deliveries WHERE state IN ('pending', 'sending') {where} ORDER BY platform",
            args)]

    # ------------------------------------------------------------ delivering
    def claim(self, platform: str, token: str, limit: int, now: float) -> list[Job]:
        """Mark up to `limit` rows of this platform due at `now` as being sent by `token`, oldest due first."""
        with self.transaction() as conn:
            rows = conn.execute(
                "UPDATE deliveries SET state = 'sending', claim = ?, attempts = attempts + 1 WHERE id IN ("
                " SELECT id FROM deliveries WHERE platform = ? AND state = 'pending' AND next_at <= ?"
                " ORDER BY next_at, id LIMIT ?) "
                "RETURNING id, broadcast_id, chat_id, chat_kind, kind, text, attempts, language",
                (token, platform, now, limit),
            ).fetchall()
        rows.sort()
        return [Job(*r) for r in rows]

    def finish(self, job: Job, token: str, state: str, detail: str, at: str,
               report: Callable[[Finished], str]) -> bool:
        """Record a final outcome at `at` (ISO text). Returns False if the row was no longer `token`'s.

        When it settles a broadcast's last message, the broadcast is done and, if it names a chat to
        notify, a report row for that chat (its text: `report`) is written in the same transaction."""
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE deliveries SET state = ?, detail = ?, done_at = ? WHERE id = ? AND state = 'sending' AND claim = ?",
                (state, detail[:500] or None, at, job.id, token),
            )
            if cur.rowcount != 1:
                return False
            if job.kind != "message":
                return True
            counter = _COUNTER[state]
            conn.execute(f"UPDATE broadcasts SET {counter} = {counter} + 1 WHERE id = ?", (job.broadcast_id,))
            row = conn.execute(
                "SELECT total, delivered + failed + blocked, state, notify_platform, notify_chat, board, delivered, "
                "failed, blocked, language FROM broadcasts WHERE id = ?", (job.broadcast_id,)
            ).fetchone()
            total, done, bstate, nplatform, nchat, board, delivered, failed, blocked, language = row
            if done >= total and bstate != "done":
                conn.execute("UPDATE broadcasts SET state = 'done', finished = ? WHERE id = ?", (at, job.broadcast_id))
                if nplatform:
                    text = report(Finished(job.broadcast_id, board, total, delivered, failed, blocked, language))
                    conn.execute(
                        "INSERT OR IGNORE INTO deliveries (broadcast_id, platform, chat_id, chat_kind, kind, text) "
                        "VALUES (?, ?, ?, 'private', 'report', ?)",
                        (job.broadcast_id, nplatform, nchat, text),
                    )
        return True

    def reschedule(self, job: Job, token: str, next_at: float, detail: str = "", count_attempt: bool = True) -> bool:
        """Put a claimed row back to `pending` until `next_at`; False if it was no longer `token`'s.
        `count_attempt=False`: the try does not count (it was never sent)."""
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE deliveries SET state = 'pending', next_at = ?, detail = ?, claim = NULL, "
                "attempts = attempts - ? WHERE id = ? AND state = 'sending' AND claim = ?",
                (next_at, detail[:500] or None, 0 if count_attempt else 1, job.id, token),
            )
        return cur.rowcount == 1

    def release(self, jobs: list[Job], token: str) -> None:
        """Give back rows claimed but never sent (a worker stopping): pending again, the try not counted."""
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
