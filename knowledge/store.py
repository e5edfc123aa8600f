"""The SQLite store, through sqlite-utils.

Holds the knowledge (boards, sources, facts, statuses, withdrawn services,
timeline), each user's memory (board, pending question), subscriptions, the
audit log and the question log. Knowledge is read through a
:class:`knowledge.snapshot.Knowledge` snapshot that is rebuilt only when the
database changed (in this process or another), so answering a question costs
no knowledge queries.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from datetime import date, datetime
from pathlib import Path
from typing import Any

from knowledge import schema
from knowledge.model import (
    Board,
    Card,
    PackEnd,
    Source,
    Status,
    TimelineEvent,
    WithdrawnService,
)
from knowledge.messaging import MessageRecords
from knowledge.pack_records import PackRecords
from knowledge.people import HeldContexts, PeopleRecords
from knowledge.records import AdminRecords, DatabaseGone, QuestionLog, WriteTrouble
from knowledge.records import utcnow  # noqa: F401 (the store's clock, imported from here by its callers)
from knowledge.rows import read_knowledge, row_of
from knowledge.snapshot import Knowledge

SCHEMA_VERSION = schema.VERSION
PK = ("pack", "id")  # every knowledge entry is keyed by its pack and its id
log = logging.getLogger("schoolbot.store")


def _iso(value: datetime | date | None) -> str | None:
    return value.isoformat() if value is not None else None


class Store(PeopleRecords, MessageRecords, PackRecords):
    """One database file. Create with :func:`open_store`."""

    def __init__(self, path: str | Path):
        self.path = str(path)  # its folder exists (bot.app.check_database_folder): no folder is made here
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA busy_timeout = 10000")
        if self.path != ":memory:":
            _use_wal(conn)
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        self.conn = conn
        self.lock = threading.RLock()
        self._snapshot: Knowledge | None = None
        self._snapshot_key: tuple[int, int] | None = None
        self._writes = 0
        self._version_read = 0.0
        self._checked = time.monotonic()
        self.trouble = WriteTrouble(self.path)  # the database refusing writes, said once (knowledge.records)
        self.contexts = HeldContexts(self)
        self.questions = QuestionLog(self)
        self.admin = AdminRecords(self)
        self._create_tables()

    # ---------------------------------------------------------------- schema
    def _create_tables(self) -> None:
        """Create or migrate every table, in one write transaction (safe when several processes start at once).

        A database already at this version (every start but the first) is only read: no write lock."""
        with self.lock:
            if schema.version_of(self.conn) != schema.VERSION:
                self.conn.execute("BEGIN IMMEDIATE")
                try:
                    schema.migrate(self.conn, self.path)
                except BaseException:
                    self.conn.execute("ROLLBACK")
                    raise
                self.conn.execute("COMMIT")
        self.identity = self._identity()

    def close(self) -> None:
        """Write what is left of the question log and the held contexts, checkpoint, and close; never raises."""
        try:
            self.questions.flush()  # and the held conversation contexts
            if self.questions.pending or self.contexts.held:  # the database still refuses writes
                log.error("the database %s refuses writes at close: %d question-log rows and %d conversation "
                          "contexts held since it did are lost", self.path, len(self.questions.pending),
                          len(self.contexts.held))
        except DatabaseGone as gone:
            log.error("%s (the last logged questions and conversation contexts were not written)", gone)
        except Exception:
            log.exception("could not write the last questions and conversation contexts at close")
        finally:
            self.contexts.stop()
            self.checkpoint()
            self.conn.close()

    def checkpoint(self) -> None:
        """Move the write-ahead log into the database file (and empty it): a copy of the file alone then has
        everything. Waits half a second at most for other programs' readers; never raises."""
        try:
            self.conn.execute("PRAGMA busy_timeout = 500")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error as exc:  # busy, or the file is gone: the next close or SQLite's own checkpoint does it
            log.debug("no checkpoint of %s at close: %s", self.path, exc)

    def changed(self) -> None:
        """Note a knowledge write made through this connection."""
        self._writes += 1

    @contextmanager
    def transaction(self, *, knowledge: bool = True) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE .. COMMIT (ROLLBACK on error), holding the store's lock.

        Inside another transaction it joins it (a savepoint): the outer one
        commits everything or nothing. `knowledge=False` for writes that are not
        knowledge (question log, deliveries), so they don't make the next answer
        rebuild the snapshot.
        """
        with self.lock:
            if self.conn.in_transaction:
                self.conn.execute("SAVEPOINT inner")
                try:
                    yield self.conn
                except BaseException:
                    self.conn.execute("ROLLBACK TO inner")
                    self.conn.execute("RELEASE inner")
                    raise
                self.conn.execute("RELEASE inner")
                if knowledge:
                    self.changed()
                return
            self.check_file()
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                self.changed()  # a snapshot read inside may hold what was rolled back
                raise
            self.conn.execute("COMMIT")
            if knowledge:
                self.changed()

    # ------------------------------------------------------- file identity
    def _identity(self) -> tuple | None:
        if self.path == ":memory:" or self.path.startswith("file:"):
            return None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'store_id'").fetchone()
        return (st.st_dev, st.st_ino, row[0] if row else None)

    CHECK_SECONDS = 2.0
    VERSION_SECONDS = 0.5

    def check_file(self) -> None:
        """Raise :class:`DatabaseGone` if the file at our path is gone or is another database.

        Called before each write and, at most every CHECK_SECONDS, when reading
        the knowledge: a bot whose file was deleted would otherwise keep
        confirming writes to an unlinked file and lose them all.
        """
        self._checked = time.monotonic()
        if getattr(self, "identity", None) is None:
            return
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            raise DatabaseGone(self.path, "deleted") from None
        if (st.st_dev, st.st_ino) != self.identity[:2]:
            raise DatabaseGone(self.path, "replaced by another file")

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """The lock, for a one-statement write outside :meth:`transaction`, after checking the file."""
        with self.lock:
            self.check_file()
            yield self.conn

    # ------------------------------------------------------------- knowledge
    @functools.cached_property
    def db(self):
        """sqlite-utils on this connection, for writes: imported on first use (~40 ms), so reading never pays it."""
        import sqlite_utils

        return sqlite_utils.Database(self.conn, execute_plugins=False)  # no plugin scan: ~30 ms

    def board_ids(self) -> list[str]:
        """Every board of every region in the database (a pack is checked against them before it is used)."""
        return [row[0] for row in self.conn.execute("SELECT id FROM boards ORDER BY id")]

    def is_empty(self) -> bool:
        return self.conn.execute("SELECT count(*) FROM boards").fetchone()[0] == 0

    def replace_boards(self, boards: Iterable[Board], region: str = "") -> None:
        """Make `boards` the boards of `region`; no other region's board changes (ids are unique across regions:
        a board of another region with the same id is a ValueError naming both)."""
        rows = [
            {**asdict(b), "aliases": json.dumps(list(b.aliases)), "municipalities": json.dumps(list(b.municipalities)),
             "region": region}
            for b in boards
        ]
        keep = [row["id"] for row in rows]
        marks = ", ".join("?" * len(keep))
        with self.transaction():
            clash = self.conn.execute(f"SELECT id, region FROM boards WHERE id IN ({marks}) AND region IS NOT NULL "
                                      "AND region != '' AND region != ?", [*keep, region]).fetchone()
            if clash:
                raise ValueError(f"board id {clash[0]!r} is already a board of region {clash[1]!r}: "
                                 "a board id names one board in all regions")
            self.db["boards"].upsert_all(rows, pk="id")
            # The file is the region's list of boards: one renamed or removed there goes here too
            # (boards of no region are those loaded before regions: the shipped region's).
            self.conn.execute(f"DELETE FROM boards WHERE (region = ? OR region IS NULL OR region = '') "
                              f"AND id NOT IN ({marks})", [region, *keep])

    def staff_pack(self) -> str:
        """The pack staff changes made in chat go into: the first active one."""
        active = self.active_pack_ids()
        return active[0] if active else ""

    def _staff_row(self, entry, origin: str) -> dict:
        row = self._row(entry, origin)
        if not row.get("pack"):
            row["pack"] = self.staff_pack()
        return row

    _row = staticmethod(row_of)

    def put_status(self, status: Status, origin: str = "staff") -> None:
        with self.transaction():
            self.db["statuses"].upsert(self._staff_row(status, origin), pk=PK)

    def put_service(self, service: WithdrawnService, origin: str = "staff") -> None:
        with self.transaction():
            self.db["withdrawn_services"].upsert(self._staff_row(service, origin), pk=PK)

    def put_event(self, event: TimelineEvent, origin: str = "staff") -> None:
        with self.transaction():
            self.db["timeline"].upsert(self._staff_row(event, origin), pk=PK)

    def put_pack_end(self, end: PackEnd) -> None:
        """A dispute's end stated in chat (its `pack` says which; every row of this table is staff-made)."""
        with self.transaction():
            self.db["pack_ends"].upsert(self._staff_row(end, "staff"), pk=PK)

    def put_source(self, source: Source) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT INTO sources (file, title, published, approximate, pack) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(pack, file) DO NOTHING",
                (source.file, source.title, _iso(source.published), int(source.approximate), source.pack or self.staff_pack()))

    def put_card(self, card: Card, origin: str = "staff") -> None:
        with self.transaction():
            self.db["cards"].upsert(self._staff_row(card, origin), pk=PK)

    def knowledge(self) -> Knowledge:
        """The current knowledge, rebuilt only when the database changed.

        A change through this store shows at once; one committed by another process
        (`schoolbot kb load`, a second worker) within VERSION_SECONDS: the
        database's change counter is read at most that often, not per question.
        """
        now = time.monotonic()
        if now - self._checked > self.CHECK_SECONDS:
            self.check_file()
        if self._snapshot is not None and self._snapshot_key[1] == self._writes \
                and now - self._version_read < self.VERSION_SECONDS:
            return self._snapshot
        self._version_read = now
        version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        key = (version, self._writes)
        if self._snapshot is None or key != self._snapshot_key:
            with self.lock:
                self._snapshot = self._read_knowledge()
                self._snapshot_key = key
        return self._snapshot

    def _read_knowledge(self) -> Knowledge:
        return read_knowledge(self.conn)

    # ------------------------------------------------------------ audit, log
    def audit(self, platform: str, user_id: str, action: str, target: str, before: Any = None, after: Any = None,
              at: datetime | None = None, name: str = "") -> int:
        return self.admin.audit(platform, user_id, action, target, before, after, at, name)

    def audit_rows(self, limit: int = 20) -> list[dict]:
        return self.admin.audit_rows(limit)

    def log_question(self, at: datetime, platform: str, intent: str, board: str | None, text: str,
                     confidence: float | None = None) -> None:
        """Log a question for /stats and /unanswered (in batches; see :class:`QuestionLog`)."""
        self.questions.add(at, platform, intent, board, text, confidence)

    def flush_questions(self) -> None:
        """Write the logged questions still in memory (before reading question_log)."""
        self.questions.flush()


def _use_wal(conn: sqlite3.Connection, attempts: int = 50) -> None:
    """Switch to write-ahead logging, so a running bot and the CLI can share the file.

    The switch needs the database to itself; when another process is using
    it at that instant SQLite answers "locked" at once, whatever the busy
    timeout, so wait and try again.
    """
    for attempt in range(attempts):
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.05 + 0.01 * attempt)


def open_store(path: str | Path) -> Store:
    return Store(path)
