"""The outbox: a broadcast and one delivery row per recipient, written before anything is sent.

:meth:`Outbox.create` writes them in one transaction, each delivery with its recipient's
language (a private chat's user's remembered language, else the one the chat subscribed in;
English when neither says), so the text each recipient gets is settled before any send. Delivery workers then
``claim`` due rows (``sending``, committed before the send), and ``finish`` or
``reschedule`` each one right after its send; ``recover`` puts the rows a killed
worker left ``sending`` back to ``pending``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from bot.broadcast.lease import lease_holders
from bot.broadcast.wakeup import Wakeup
from knowledge.store import Store, utcnow

# Subscribers here cannot receive a message later (`schoolbot ask` answers once and exits).
UNDELIVERABLE = frozenset({"cli"})

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


# A recipient chat's language, in SQL over `subscriptions`: the user's remembered language for a private
# chat, else the language the chat subscribed in; 'fr' or 'en'.
_LANGUAGE = ("CASE WHEN COALESCE(CASE WHEN chat_kind = 'private' THEN (SELECT u.language FROM users u "
             "WHERE u.platform = subscriptions.platform AND u.user_id = subscriptions.user_id) END, language) = 'fr' "
             "THEN 'fr' ELSE 'en' END")


class Outbox:
    """The outbox tables in the store's database (same connection and lock as the store).

    `wakeup`, when given, is rung after each new broadcast so this process's workers start at once.
    """

    def __init__(self, store: Store, wakeup: Wakeup | None = None):
        self.store = store
        self.conn = store.conn
        self.wakeup = wakeup
        self._texts: dict[tuple[int, str], str] = {}

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
        return self.audience(board)[0]

    def audience(self, board: str) -> tuple[dict[str, int], dict[str, int]]:
        """Recipients of a broadcast to `board` now (each chat once): per platform, and per language."""
        tail, args = self._recipients_query(board)
        platforms: dict[str, int] = {}
        languages: dict[str, int] = {}
        for platform, language in self.conn.execute(f"SELECT platform, MAX({_LANGUAGE}) {tail}", args):
            platforms[platform] = platforms.get(platform, 0) + 1
            languages[language] = languages.get(language, 0) + 1
        return platforms, languages

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
        text_fr: str | None = None,
        language: str = "en",
    ) -> int | None:
        """Write a broadcast and its deliveries in one transaction; returns its id.

        `text` is what English-language recipients get, `text_fr` what French-language ones get
        (None: `text` too); `language` is the author's, in which their report is written.

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
                "INSERT INTO broadcasts (created, board, body, text, text_fr, language, author, notify_platform, "
                "notify_chat, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (at.isoformat(), board, body, text, text_fr, language, author, notify[0] if notify else None,
                 notify[1] if notify else None, key),
            )
            broadcast_id = cur.lastrowid
            tail, args = self._recipients_query(board)
            cur = conn.execute(
                f"INSERT INTO deliveries (broadcast_id, platform, chat_id, chat_kind, language) "
                f"SELECT ?, platform, chat_id, MAX(chat_kind), MAX({_LANGUAGE}) {tail}",
                (broadcast_id, *args),
            )
            total = cur.rowcount
            conn.execute("UPDATE broadcasts SET total = ? WHERE id = ?", (total, broadcast_id))
            if total == 0:
                conn.execute("UPDATE broadcasts SET state = 'done', finished = ? WHERE id = ?", (at.isoformat(), broadcast_id))
            if audit is not None:
                after = {"broadcast": broadcast_id, "board": board, "recipients": total, "text": body}
                conn.execute(
                    "INSERT INTO audit (at, platform, user_id, action, target, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (at.isoformat(), audit["platform"], audit["user_id"], audit.get("action", "broadcast"), board,
                     None, json.dumps(after, default=str)),
                )
        if self.wakeup is not None:
            self.wakeup.ring()
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

    def text_of(self, broadcast_id: int, language: str = "en") -> str:
        """What a recipient reading `language` gets of a broadcast (its one text when it has no French)."""
        key = (broadcast_id, language)
        text = self._texts.get(key)
        if text is None:
            text = self.conn.execute(
                "SELECT CASE WHEN ? = 'fr' THEN COALESCE(text_fr, text) ELSE text END FROM broadcasts WHERE id = ?",
                (language, broadcast_id)).fetchone()[0]
            if len(self._texts) > 256:
                self._texts.clear()
            self._texts[key] = text
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

    def pending_platforms(self, broadcast_id: int | None = None) -> list[str]:
        """Platforms with rows still to send (of one broadcast, or of any)."""
        where, args = ("AND broadcast_id = ?", (broadcast_id,)) if broadcast_id is not None else ("", ())
        return [r[0] for r in self.conn.execute(
            f"SELECT DISTINCT platform FROM deliveries WHERE state IN ('pending', 'sending') {where} ORDER BY platform",
            args)]

    def workers(self) -> list[dict]:
        """Every platform's current delivery worker (see :mod:`bot.broadcast.lease`)."""
        return lease_holders(self.store)

    # ------------------------------------------------------------ delivering
    def claim(self, platform: str, token: str, limit: int, now: float | None = None) -> list[Job]:
        """Mark up to `limit` due rows of this platform as being sent by `token`."""
        now = time.time() if now is None else now
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
                "SELECT total, delivered + failed + blocked, state, notify_platform, notify_chat, board, delivered, "
                "failed, blocked, language FROM broadcasts WHERE id = ?", (job.broadcast_id,)
            ).fetchone()
            total, done, bstate, nplatform, nchat, board, delivered, failed, blocked, language = row
            if done >= total and bstate != "done":
                conn.execute("UPDATE broadcasts SET state = 'done', finished = ? WHERE id = ?", (now, job.broadcast_id))
                if nplatform:
                    from bot.replies import say

                    report = say("broadcast_report", language, id=job.broadcast_id, board=board, delivered=delivered,
                                 failed=failed, blocked=blocked, total=total)
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
