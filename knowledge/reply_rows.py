"""The replies to users not sent yet (table ``replies``): one row per message, deleted once sent.

A part of :class:`knowledge.store.Store` (``store.replies``), on its connection and lock. A row is
``pending`` while it is being tried, and kept as ``failed`` or ``blocked`` (with why) once given up on.
:class:`bot.reply_queue.ReplyQueue` and :class:`bot.reply_lanes.ReplyLanes` decide what to send and when.
"""

from __future__ import annotations

from collections.abc import Callable

# (chat_id, text, extra as JSON or None, created: unix time)
NewReply = tuple[str, str, str | None, float]
# (id, chat_id, text, extra as JSON or None, attempts, created)
WaitingReply = tuple[int, str, str, str | None, int, float]


class ReplyRows:
    """One table of every platform account's replies."""

    def __init__(self, store):
        self.store = store

    def add(self, platform: str, account: str, replies: list[NewReply], also: Callable[[], object] | None = None
            ) -> list[int]:
        """Write the replies (and run `also`, e.g. an update journal's mark) in one transaction; their ids.

        Raises what the database raises."""
        with self.store.transaction(knowledge=False) as conn:
            ids = [conn.execute(
                "INSERT INTO replies (platform, account, chat_id, text, extra, created) VALUES (?, ?, ?, ?, ?, ?)",
                (platform, account, chat_id, text, extra, created)).lastrowid
                for chat_id, text, extra, created in replies]
            if also is not None:
                also()
        return ids

    def waiting(self, platform: str, account: str) -> list[WaitingReply]:
        """The account's pending replies, oldest first."""
        return self.store.conn.execute(
            "SELECT id, chat_id, text, extra, attempts, created FROM replies "
            "WHERE platform = ? AND account = ? AND state = 'pending' ORDER BY id", (platform, account)).fetchall()

    def sent(self, reply_id: int) -> None:
        """A reply sent: its row goes."""
        with self.store.transaction(knowledge=False) as conn:
            conn.execute("DELETE FROM replies WHERE id = ?", (reply_id,))

    def tried(self, reply_id: int, attempts: int, detail: str) -> None:
        """A try that will be repeated: its count and what went wrong."""
        with self.store.transaction(knowledge=False) as conn:
            conn.execute("UPDATE replies SET attempts = ?, detail = ? WHERE id = ?", (attempts, detail, reply_id))

    def settle(self, settled: list[tuple[str, str, int, str, int]]) -> None:
        """Replies given up on, in one transaction: (state, detail, attempts, done_at, id) each."""
        with self.store.transaction(knowledge=False) as conn:
            conn.executemany("UPDATE replies SET state = ?, detail = ?, attempts = ?, done_at = ? WHERE id = ?", settled)

    def counts(self) -> dict[str, dict[str, int]]:
        """platform -> state -> count of the replies not sent (pending: still being tried; failed, blocked: given up)."""
        out: dict[str, dict[str, int]] = {}
        for platform, state, count in self.store.conn.execute(
                "SELECT platform, state, COUNT(*) FROM replies GROUP BY platform, state ORDER BY platform, state"):
            out.setdefault(platform, {})[state] = count
        return out

    def given_up(self, limit: int = 10) -> list[tuple]:
        """(platform, chat, state, attempts, detail, done_at) of the newest replies given up on."""
        return self.store.conn.execute(
            "SELECT platform, chat_id, state, attempts, detail, done_at FROM replies WHERE state IN ('failed', 'blocked') "
            "ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
