"""What the store keeps of people: each user's memory (board, conversation) and each chat's subscriptions.

A part of :class:`knowledge.store.Store` (it relies on the store's connection,
lock and file check), kept apart so each file holds one subject.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from datetime import UTC, datetime

from knowledge.model import ALL_BOARDS
from knowledge.records import write_rows

log = logging.getLogger("schoolbot.store")

LANGUAGES = ("en", "fr")


def _now() -> str:
    return datetime.now(UTC).isoformat()


_NONE = object()  # no context held for a user


class HeldContexts:
    """What the store keeps of users in memory: their rows as read, and the contexts it holds back.

    Every answered question reads its asker's memory and changes the context (its topic, its
    time): one read and one write transaction for each were about a fifth of the time of
    answering. Rows read are kept (``rows``), and forgotten when another program changed the
    database (its change counter, read at most every VERSION_SECONDS, as for the knowledge).
    A changed context is held (``held``): what :meth:`PeopleRecords.get_user` reads, so the
    bot sees its own changes at once. The held ones are written in one transaction when
    BATCH users are held, when the question log writes its batch, FLUSH_SECONDS after the
    first was held (a timer, so a bot that falls quiet writes them too), and at close. A
    crash loses at most those seconds of context: a follow-up ("what about tuesday?") then
    asks again, as after an expired context.
    """

    BATCH = 500
    FLUSH_SECONDS = 2.0
    ROWS = 20_000  # rows kept read; past this they are read again

    def __init__(self, store):
        self.store = store
        self.rows: dict[tuple[str, str], tuple | None] = {}  # (platform, user id) -> (board, context JSON) or None
        self._version: int | None = None  # the database's change counter the rows were read at
        self._checked = float("-inf")
        self.held: dict[tuple[str, str], str | None] = {}  # (platform, user id) -> context as JSON
        self._timer: threading.Timer | None = None

    def row(self, key: tuple[str, str]) -> tuple | None:
        """(board, context JSON, language) of a user, held context included, or None (with the store's lock held)."""
        now = time.monotonic()
        if now - self._checked >= self.store.VERSION_SECONDS:
            self._checked = now
            version = self.store.conn.execute("PRAGMA data_version").fetchone()[0]
            if version != self._version:  # another program wrote to the database: read rows anew
                self._version = version
                self.rows.clear()
        row = self.rows.get(key, _NONE)
        if row is _NONE:
            row = self.store.conn.execute(
                "SELECT board, pending, language FROM users WHERE platform = ? AND user_id = ?", key
            ).fetchone()
            if key in self.held:  # the row as it will be once the held context is written (same language)
                row = (row[0], self.held[key], row[2])
            if len(self.rows) >= self.ROWS:
                self.rows.clear()
            self.rows[key] = row = tuple(row) if row is not None else None
        return row

    def hold(self, platform: str, user_id: str, pending: str | None, language: str | None) -> bool:
        """Hold a user's new context, unless it changes the language column (or the row is not known):
        then False, and the caller writes it at once (a broadcast reads that column)."""
        with self.store.lock:
            key = (platform, user_id)
            row = self.rows.get(key)
            if row is None or row[2] != language:
                return False
            self.held[key] = pending
            self.rows[key] = (row[0], pending, language)  # the row as it will be once written
            if len(self.held) >= self.BATCH:
                self.flush()
            elif self._timer is None:  # one timer at a time: it writes whatever is held when it fires
                self._timer = threading.Timer(self.FLUSH_SECONDS, self._flush_quietly)
                self._timer.daemon = True
                self._timer.start()
            return True

    # A held context's row exists, but not when its first write was refused (the database read-only): then made here.
    _UPSERT = ("INSERT INTO users (pending, updated, platform, user_id) VALUES (?, ?, ?, ?) "
               "ON CONFLICT(platform, user_id) DO UPDATE SET pending = excluded.pending, updated = excluded.updated")

    def flush(self) -> None:
        """Write the held contexts (a row the database refuses is dropped and logged, as in the question log;
        while it refuses every write they stay held)."""
        with self.store.lock:
            now = _now()  # the rows' `updated`: when written
            rows = [(pending, now, *key) for key, pending in self.held.items()]
            self.held = {}
            for pending, _, *key in write_rows(self.store, self._UPSERT, rows, "conversation-context", who=2):
                self.held.setdefault(tuple(key), pending)  # a newer one held meanwhile wins

    def stop(self) -> None:
        """No more timer (the store is closing, its contexts written)."""
        with self.store.lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    def _flush_quietly(self) -> None:
        """The timer's flush: on its own thread, where nobody could catch what it raises."""
        try:
            with self.store.lock:
                self._timer = None
                self.flush()
        except BaseException:  # a database gone is seen again by the next write, where it stops the bot
            log.exception("could not write the held conversation contexts")


class PeopleRecords:
    # ----------------------------------------------------------- user memory
    def get_user(self, platform: str, user_id: str) -> dict | None:
        with self.lock:
            row = self.contexts.row((platform, user_id))
        if row is None:
            return None
        return {"board": row[0], "pending": json.loads(row[1]) if row[1] else None}

    def set_user(self, platform: str, user_id: str, *, board: str | type | None = ..., pending: dict | type | None = ...) -> None:
        """Change what is remembered of a user (only the fields given change).

        The language the conversation memory holds (`pending["language"]`) is kept in its own column
        too, so a broadcast can pick each subscriber's language in SQL. A board, or a context that
        changes that language, is written at once; a context alone (every answered question changes
        it) is held and written in batches (:class:`HeldContexts`).
        """
        changes = {}
        if board is not ...:
            changes["board"] = board
        if pending is not ...:
            changes["pending"] = json.dumps(pending) if pending else None
            language = pending.get("language") if isinstance(pending, dict) else None
            changes["language"] = language if language in LANGUAGES else None
        if not changes:
            return
        if "board" not in changes and self.contexts.hold(platform, user_id, changes["pending"], changes["language"]):
            return
        updates = ", ".join(f"{column} = excluded.{column}" for column in (*changes, "updated"))
        try:
            self._write_user(platform, user_id, changes, updates)
        except sqlite3.OperationalError as exc:
            if "board" in changes or not self.trouble.is_refusal(exc):
                raise  # a board staff or a parent chose must be saved, or the command says it failed
            with self.lock:  # the database refuses writes: the context is held until it takes them again
                self.contexts.held[(platform, user_id)] = changes["pending"]
                self.trouble.refused("conversation-context", len(self.contexts.held), exc)
                known = self.contexts.rows.get((platform, user_id)) or (None, None, None)
                self.contexts.rows[(platform, user_id)] = (known[0], changes["pending"], known[2])

    def _write_user(self, platform: str, user_id: str, changes: dict, updates: str) -> None:
        with self._writing():
            key = (platform, user_id)
            if "pending" in changes:
                self.contexts.held.pop(key, None)  # this write replaces the held context
            known = self.contexts.rows.pop(key, _NONE)  # read again next time, unless known below
            self.conn.execute(
                "INSERT INTO users (platform, user_id, board, pending, language, updated) VALUES (?, ?, ?, ?, ?, ?) "
                f"ON CONFLICT(platform, user_id) DO UPDATE SET {updates}",
                (platform, user_id, changes.get("board"), changes.get("pending"), changes.get("language"), _now()),
            )
            if known is not _NONE:  # the row as now written: the next context alone can be held, not written at once
                known = known or (None, None, None)  # no row yet: this one is new
                self.contexts.rows[key] = (changes.get("board", known[0]), changes.get("pending", known[1]),
                                           changes.get("language", known[2]))

    # --------------------------------------------------------- subscriptions
    def subscribe(self, platform: str, chat_id: str, board: str, chat_kind: str, user_id: str,
                  language: str | None = None) -> bool:
        """Subscribe a chat to a board (or 'all'). Returns False if it already was.

        `language` is the one the subscriber was answered in: a group's broadcasts come in it (a
        private chat's in its user's remembered language, else this one)."""
        now = _now()
        with self._writing():
            row = self.conn.execute(
                "SELECT active, user_id, language FROM subscriptions WHERE platform = ? AND chat_id = ? AND board = ?",
                (platform, chat_id, board),
            ).fetchone()
            if row and row[0] and row[1] == user_id and language in (None, row[2]):
                return False  # already so: nothing to write
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

