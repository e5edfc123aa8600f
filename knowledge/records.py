"""The store's records that are not knowledge: the question log, the audit log and the admin tables.

Each is a small class holding the :class:`knowledge.store.Store` it belongs to
and offering named methods, so no module outside the store writes SQL.
Knowledge-changing admin steps run inside ``store.transaction()``; nested
transactions join the outer one, so a change, its audit row and its undo record
commit together or not at all.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from datetime import UTC, datetime
from typing import Any

log = logging.getLogger("schoolbot.store")


class DatabaseUnavailable(Exception):
    """The database cannot be used (locked, read-only, not a database); the message says what to do."""


class DatabaseGone(SystemExit):
    """The database file was deleted or replaced under the running process.

    A ``SystemExit``: no ``except Exception`` on the answer path or in a worker
    swallows it, and uncaught it prints its one line and exits with status 1.
    """

    def __init__(self, path: str, what: str):
        self.path = path
        super().__init__(f"schoolbot: the database file {path} was {what} while running; stopping so that "
                         "nothing more is written to a file nobody reads. Restore the file or restart schoolbot.")


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _json(value: Any) -> str | None:
    return json.dumps(value, default=str, ensure_ascii=False) if value is not None else None


class WriteTrouble:
    """Whether the database refuses writes (a disk remounted read-only, a full disk), said once in the log.

    Answering only reads, so it goes on; what could not be written (question-log rows, conversation
    contexts, replies) is held in memory by its owner and written when the database takes writes
    again. :meth:`refused` logs one line when the trouble starts, :meth:`written` one line when it ends,
    with what was held meanwhile; nothing in between, however many writes fail.
    """

    def __init__(self, path: str):
        self.path = path
        self.since: float | None = None
        self.held: dict[str, int] = {}  # what was held meanwhile, by kind
        self.lost: dict[str, int] = {}  # what could not even be held (over a holder's limit), by kind

    @staticmethod
    def is_refusal(exc: BaseException) -> bool:
        """A write the database refused as a whole (read-only, I/O error, full, locked), not one bad row."""
        return isinstance(exc, sqlite3.OperationalError)

    def refused(self, what: str, held: int, exc: BaseException) -> None:
        """A write refused; `held`: how many rows of this kind its owner holds now."""
        self.held[what] = held
        if self.since is None:
            self.since = time.monotonic()
            log.error("the database %s refuses writes (%s); answering goes on from the knowledge, and what cannot be "
                      "written (question-log rows, conversation contexts, replies) is held in memory until it takes "
                      "writes again (lost if schoolbot stops first): check the disk", self.path, exc)

    def dropped(self, what: str, count: int) -> None:
        """Rows a holder had to let go of (it holds only so many): counted, and said when writes work again."""
        self.lost[what] = self.lost.get(what, 0) + count

    def written(self) -> None:
        if self.since is None:
            return
        held = ", ".join(f"{count} {what} rows" for what, count in sorted(self.held.items())) or "nothing held"
        lost = "".join(f"; {count} {what} rows were not kept (too many to hold)" for what, count in sorted(self.lost.items()))
        log.warning("the database %s takes writes again after %.0f s; written now what was held: %s%s",
                    self.path, time.monotonic() - self.since, held, lost)
        self.since, self.held, self.lost = None, {}, {}


def write_rows(store, sql: str, rows: list[tuple], what: str, who: int = 0) -> list[tuple]:
    """Write rows in one transaction; when a row fails, one by one, dropping (and logging) only the bad ones.

    `who` is the field of a row that says where it came from, for the log. When the database refuses
    writes altogether (:class:`WriteTrouble`) nothing is dropped: the rows are returned, for the caller
    to hold and write later. DatabaseGone always propagates.
    """
    if not rows:
        return []
    try:
        with store.transaction(knowledge=False) as conn:
            conn.executemany(sql, rows)
        store.trouble.written()
        return []
    except DatabaseGone:
        raise
    except Exception as exc:
        if store.trouble.is_refusal(exc):
            store.trouble.refused(what, len(rows), exc)
            return rows
        log.warning("the %s batch failed; writing its %d rows one by one", what, len(rows))
    for row in rows:
        try:
            with store.transaction(knowledge=False) as conn:
                conn.execute(sql, row)
        except DatabaseGone:
            raise
        except Exception:
            log.exception("dropped one %s row from %s", what, row[who])
    return []


class QuestionLog:
    """Questions asked, for /stats and /unanswered, written in batches.

    One write transaction per BATCH questions or FLUSH_SECONDS, not one per
    question. A row the database refuses never takes its batch with it: the
    batch is retried row by row and only the bad row is dropped (and logged).
    While the database refuses every write, rows are held (up to HOLD) and
    written with the next batch it takes.
    """

    BATCH = 200
    FLUSH_SECONDS = 2.0
    HOLD = 100_000  # rows held while the database refuses writes; older ones beyond this are dropped, and counted

    def __init__(self, store):
        self.store = store
        self.pending: list[tuple] = []
        self.flushed = time.monotonic()

    def add(self, at: datetime, platform: str, intent: str, board: str | None, text: str,
            confidence: float | None = None) -> None:
        with self.store.lock:
            self.pending.append((at.isoformat(), at.date().isoformat(), platform, intent, board, text[:500], confidence))
            if len(self.pending) >= self.BATCH or time.monotonic() - self.flushed > self.FLUSH_SECONDS:
                self.flush()

    _INSERT = "INSERT INTO question_log (at, day, platform, intent, board, text, confidence) VALUES (?, ?, ?, ?, ?, ?, ?)"

    def flush(self) -> None:
        """Write the questions still in memory (held again when the database refuses writes)."""
        with self.store.lock:
            rows, self.pending = self.pending, []
            self.flushed = time.monotonic()
            held = write_rows(self.store, self._INSERT, rows, "question-log", who=2)
            if held:
                over = max(0, len(held) - self.HOLD)
                if over:
                    self.store.trouble.dropped("question-log", over)
                self.pending = held[over:]
            self.store.contexts.flush()  # the held conversation contexts go with it: one pause, not two

    def per_day(self, since: str, boards: frozenset[str] | None) -> list[tuple[str, str, int]]:
        scope, args = _scope(boards)
        self.flush()
        return self.store.conn.execute(
            f"SELECT day, intent, COUNT(*) FROM question_log WHERE day >= ?{scope} GROUP BY day, intent "
            "ORDER BY day, COUNT(*) DESC", (since, *args),
        ).fetchall()

    def rows_since(self, since: str, boards: frozenset[str] | None, unsure_below: float | None = None
                   ) -> list[tuple[str, str, float | None, str | None]]:
        """(text, intent, confidence, board) of every logged question since a day, oldest first; with
        `unsure_below`, only those not understood (intent unknown) or understood with less confidence."""
        scope, args = _scope(boards)
        if unsure_below is not None:
            scope, args = scope + " AND (intent = 'unknown' OR confidence < ?)", (*args, unsure_below)
        self.flush()
        return self.store.conn.execute(
            f"SELECT text, intent, confidence, board FROM question_log WHERE day >= ?{scope} ORDER BY id",
            (since, *args),
        ).fetchall()

    def count(self) -> int:
        self.flush()
        return self.store.conn.execute("SELECT COUNT(*) FROM question_log").fetchone()[0]


def _scope(boards: frozenset[str] | None) -> tuple[str, tuple]:
    if boards is None:
        return "", ()
    return f" AND board IN ({', '.join('?' * len(boards))})", tuple(sorted(boards))


class AdminRecords:
    """The audit log, pending previews, the change records /undo reads, and role grants."""

    def __init__(self, store):
        self.store = store

    # ---------------------------------------------------------------- audit
    def audit(self, platform: str, user_id: str, action: str, target: str, before: Any = None, after: Any = None,
              at: datetime | None = None, name: str = "") -> int:
        """One audit row: `at` is the clock the bot reasoned with; the real time is added here."""
        real = datetime.now(UTC)
        with self.store.transaction(knowledge=False) as conn:
            return conn.execute(
                "INSERT INTO audit (at, platform, user_id, action, target, before, after, real_at, name) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (_iso(at or real), platform, user_id, action, target, _json(before), _json(after), real.isoformat(),
                 name or None),
            ).lastrowid

    _AUDIT = "SELECT id, at, platform, user_id, action, target, before, after, real_at, name FROM audit"

    def audit_rows(self, limit: int = 20) -> list[dict]:
        """The latest audit rows, newest first."""
        cur = self.store.conn.execute(self._AUDIT + " ORDER BY id DESC LIMIT ?", (limit,))
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]

    # -------------------------------------------------------------- pending
    def propose(self, platform: str, user_id: str, chat_id: str, action: dict, at: datetime) -> bool:
        """Store a previewed change; returns whether it replaced an earlier one."""
        with self.store.transaction(knowledge=False) as conn:
            replaced = conn.execute(
                "UPDATE admin_pending SET state = 'replaced' WHERE platform = ? AND user_id = ? AND state = 'pending'",
                (platform, user_id),
            ).rowcount
            conn.execute(
                "INSERT INTO admin_pending (platform, user_id, chat_id, action, created) VALUES (?, ?, ?, ?, ?)",
                (platform, user_id, chat_id, json.dumps(action, ensure_ascii=False), at.isoformat()),
            )
        return bool(replaced)

    def latest_pending(self, platform: str, user_id: str) -> dict | None:
        row = self.store.conn.execute(
            "SELECT id, action, created, state, result FROM admin_pending WHERE platform = ? AND user_id = ? "
            "ORDER BY id DESC LIMIT 1", (platform, user_id),
        ).fetchone()
        if row is None:
            return None
        return {"id": row[0], "action": json.loads(row[1]), "created": datetime.fromisoformat(row[2]),
                "state": row[3], "result": row[4]}

    def close_pending(self, pending_id: int, state: str, result: str | None, at: datetime) -> bool:
        """Move a pending preview to `state`; False if it was no longer pending (confirmed twice)."""
        with self.store.transaction(knowledge=False) as conn:
            return conn.execute(
                "UPDATE admin_pending SET state = ?, result = ?, done_at = ? WHERE id = ? AND state = 'pending'",
                (state, result, at.isoformat(), pending_id),
            ).rowcount == 1

    def set_result(self, pending_id: int, result: str) -> None:
        with self.store.transaction(knowledge=False) as conn:
            conn.execute("UPDATE admin_pending SET result = ? WHERE id = ?", (result, pending_id))

    # -------------------------------------------------------------- changes
    def record_change(self, at: datetime, platform: str, user_id: str, kind: str, entry_id: str, board: str,
                      summary: str, before: Any = None) -> int:
        with self.store.transaction(knowledge=False) as conn:
            return conn.execute(
                "INSERT INTO admin_changes (at, platform, user_id, kind, entry_id, board, summary, before) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (at.isoformat(), platform, user_id, kind, entry_id, board, summary, _json(before)),
            ).lastrowid

    _CHANGE = "SELECT id, at, platform, user_id, kind, entry_id, board, summary, undone_at, before FROM admin_changes"

    def _change(self, row) -> dict | None:
        if row is None:
            return None
        keys = ("id", "at", "platform", "user_id", "kind", "entry_id", "board", "summary", "undone_at", "before")
        change = dict(zip(keys, row, strict=True))
        change["at"] = datetime.fromisoformat(change["at"])
        change["before"] = json.loads(change["before"]) if change["before"] else None
        return change

    def change(self, change_id: int) -> dict | None:
        return self._change(self.store.conn.execute(self._CHANGE + " WHERE id = ?", (change_id,)).fetchone())

    def latest_change(self, platform: str, user_id: str) -> dict | None:
        """The latest change of this person not undone yet, whatever its kind."""
        return self._change(self.store.conn.execute(
            self._CHANGE + " WHERE undone_at IS NULL AND platform = ? AND user_id = ? ORDER BY id DESC LIMIT 1",
            (platform, user_id),
        ).fetchone())

    def recent_changes(self, limit: int = 50) -> list[dict]:
        """The latest changes not undone, newest first (the web page's undo list)."""
        rows = self.store.conn.execute(self._CHANGE + " WHERE undone_at IS NULL ORDER BY id DESC LIMIT ?", (limit,))
        return [self._change(row) for row in rows.fetchall()]

    def mark_undone(self, change_id: int, at: datetime) -> bool:
        with self.store.transaction(knowledge=False) as conn:
            return conn.execute("UPDATE admin_changes SET undone_at = ? WHERE id = ? AND undone_at IS NULL",
                                (at.isoformat(), change_id)).rowcount == 1

    def staff_entry_ids(self, kind: str) -> list[str]:
        """Ids of entries of one kind added from chat and not undone (for `kb export`)."""
        return [r[0] for r in self.store.conn.execute(
            "SELECT entry_id FROM admin_changes WHERE kind = ? AND undone_at IS NULL ORDER BY id", (kind,))]

    # --------------------------------------------------------------- grants
    def grant_of(self, platform: str, user_id: str) -> dict | None:
        row = self.store.conn.execute(
            "SELECT role, boards, granted_by, at FROM role_grants WHERE platform = ? AND user_id = ?",
            (platform, user_id),
        ).fetchone()
        if row is None:
            return None
        return {"role": row[0], "boards": json.loads(row[1]), "granted_by": row[2], "at": row[3]}

    def set_grant(self, platform: str, user_id: str, grant: dict | None) -> None:
        """Write a person's grant as given (None removes it)."""
        with self.store.transaction(knowledge=False) as conn:
            if grant is None:
                conn.execute("DELETE FROM role_grants WHERE platform = ? AND user_id = ?", (platform, user_id))
                return
            conn.execute(
                "INSERT INTO role_grants (platform, user_id, role, boards, granted_by, at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(platform, user_id) DO UPDATE SET role = excluded.role, boards = excluded.boards, "
                "granted_by = excluded.granted_by, at = excluded.at",
                (platform, user_id, grant["role"], json.dumps(list(grant["boards"])), grant["granted_by"], grant["at"]),
            )

    def all_grants(self) -> list[dict]:
        return [{"platform": r[0], "user_id": r[1], "role": r[2], "boards": json.loads(r[3]), "granted_by": r[4],
                 "at": r[5]}
                for r in self.store.conn.execute(
                    "SELECT platform, user_id, role, boards, granted_by, at FROM role_grants ORDER BY platform, user_id")]


def utcnow() -> datetime:
    """The current time, in UTC (the stores' times of writing)."""
    return datetime.now(UTC)
