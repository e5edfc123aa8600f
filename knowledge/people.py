"""What the store keeps of people: each user's memory (board, conversation) and each chat's subscriptions.

A part of :class:`knowledge.store.Store` (it relies on the store's connection,
lock and file check), kept apart so each file holds one subject.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from knowledge.model import ALL_BOARDS

LANGUAGES = ("en", "fr")


def _now() -> str:
    return datetime.now(UTC).isoformat()


class PeopleRecords:
    # ----------------------------------------------------------- user memory
    def get_user(self, platform: str, user_id: str) -> dict | None:
        row = self.conn.execute(
            "SELECT board, pending FROM users WHERE platform = ? AND user_id = ?", (platform, user_id)
        ).fetchone()
        if row is None:
            return None
        return {"board": row[0], "pending": json.loads(row[1]) if row[1] else None}

    def set_user(self, platform: str, user_id: str, *, board: str | type | None = ..., pending: dict | type | None = ...) -> None:
        """Change what is remembered of a user (one statement: only the fields given change).

        The language the conversation memory holds (`pending["language"]`) is kept in its own column
        too, so a broadcast can pick each subscriber's language in SQL."""
        changes = {}
        if board is not ...:
            changes["board"] = board
        if pending is not ...:
            changes["pending"] = json.dumps(pending) if pending else None
            language = pending.get("language") if isinstance(pending, dict) else None
            changes["language"] = language if language in LANGUAGES else None
        if not changes:
            return
        updates = ", ".join(f"{column} = excluded.{column}" for column in (*changes, "updated"))
        with self._writing():
            self.conn.execute(
                "INSERT INTO users (platform, user_id, board, pending, language, updated) VALUES (?, ?, ?, ?, ?, ?) "
                f"ON CONFLICT(platform, user_id) DO UPDATE SET {updates}",
                (platform, user_id, changes.get("board"), changes.get("pending"), changes.get("language"), _now()),
            )

    # --------------------------------------------------------- subscriptions
    def subscribe(self, platform: str, chat_id: str, board: str, chat_kind: str, user_id: str,
                  language: str | None = None) -> bool:
        """Subscribe a chat to a board (or 'all'). Returns False if it already was.

        `language` is the one the subscriber was answered in: a group's broadcasts come in it (a
        private chat's in its user's remembered language, else this one)."""
        now = _now()
        with self._writing():
            row = self.conn.execute(
                "SELECT active FROM subscriptions WHERE platform = ? AND chat_id = ? AND board = ?", (platform, chat_id, board)
            ).fetchone()
            self.conn.execute(
                "INSERT INTO subscriptions (platform, chat_id, board, chat_kind, user_id, active, created, updated, "
                "language) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?) ON CONFLICT(platform, chat_id, board) DO UPDATE SET "
                "active = 1, updated = excluded.updated, user_id = excluded.user_id, "
                "language = COALESCE(excluded.language, language)",
                (platform, chat_id, board, chat_kind, user_id, now, now, language),
            )
        return not (row and row[0])

    def unsubscribe(self, platform: str, chat_id: str, board: str | None = None) -> list[str]:
        """Stop a chat's subscriptions (one board, or all). Returns the boards stopped."""
        with self._writing():
            query = "SELECT board FROM subscriptions WHERE platform = ? AND chat_id = ? AND active = 1"
            args: tuple = (platform, chat_id)
            if board:
                query += " AND board = ?"
                args += (board,)
            boards = [r[0] for r in self.conn.execute(query, args)]
            if boards:
                self.conn.executemany(
                    "UPDATE subscriptions SET active = 0, updated = ? WHERE platform = ? AND chat_id = ? AND board = ?",
                    [(_now(), platform, chat_id, b) for b in boards],
                )
        return boards

    def subscriptions_of(self, platform: str, chat_id: str) -> list[str]:
        return [
            r[0] for r in self.conn.execute(
                "SELECT board FROM subscriptions WHERE platform = ? AND chat_id = ? AND active = 1 ORDER BY board",
                (platform, chat_id),
            )
        ]

    def move_chat(self, platform: str, old_chat_id: str, new_chat_id: str) -> int:
        """A chat got a new id (a Telegram group upgraded to a supergroup): its subscriptions follow."""
        with self.transaction(knowledge=False):
            self.conn.execute(  # boards the new id already has keep that row
                "DELETE FROM subscriptions WHERE platform = ? AND chat_id = ? AND board IN "
                "(SELECT board FROM subscriptions WHERE platform = ? AND chat_id = ?)",
                (platform, old_chat_id, platform, new_chat_id),
            )
            cur = self.conn.execute(
                "UPDATE subscriptions SET chat_id = ?, updated = ? WHERE platform = ? AND chat_id = ?",
                (new_chat_id, _now(), platform, old_chat_id),
            )
        return cur.rowcount

    def mark_blocked(self, platform: str, chat_id: str) -> int:
        """The recipient blocked the bot: make all its subscriptions inactive."""
        with self._writing():
            cur = self.conn.execute(
                "UPDATE subscriptions SET active = 0, updated = ? WHERE platform = ? AND chat_id = ? AND active = 1",
                (_now(), platform, chat_id),
            )
        return cur.rowcount

    @staticmethod
    def reached_by(board: str) -> tuple[str, tuple]:
        """SQL condition and arguments for the active subscriptions an update for `board` reaches:
        that board's and the all-boards ones ('all' reaches every subscription)."""
        if board == ALL_BOARDS:
            return "active = 1", ()
        return "active = 1 AND board IN (?, ?)", (board, ALL_BOARDS)

    def subscribers(self, board: str) -> list[tuple[str, str]]:
        """(platform, chat_id) of every active subscriber an update for `board` reaches, each once."""
        where, args = self.reached_by(board)
        query = f"SELECT DISTINCT platform, chat_id FROM subscriptions WHERE {where} ORDER BY platform, chat_id"
        return [tuple(r) for r in self.conn.execute(query, args)]

