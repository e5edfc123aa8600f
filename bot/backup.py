"""`schoolbot backup FILE`: a copy of the live database that holds everything committed, safe while the bot runs.

A copy of ``schoolbot.db`` alone can miss what is still in its write-ahead log
(``schoolbot.db-wal``); SQLite's online backup API reads the database through a
connection, WAL included, as one consistent snapshot, while the bot goes on
writing. The copy is written to a temporary file beside FILE, checked
(SQLite's quick check), switched to a single self-contained file (no ``-wal`` to
carry along) and renamed over FILE only then (:mod:`bot.files`): FILE is the
old one or a whole new backup, never the live database.
"""

from __future__ import annotations

from pathlib import Path

from bot.app import DatabaseUnavailable, describe_database_error
from bot.files import WriteFailed, atomic_file
from knowledge.database_file import OpenFailed, integrity_check, online_copy
from knowledge.store_errors import STORE_ERRORS, writing_failed

LOCK_WAIT_MS = 10_000  # how long a page may wait for a writer's lock; the bot's writes take milliseconds


def backup_database(database: str, target: str, *, replace: bool = False) -> int:
    """Copy `database` to `target` (an existing one only with `replace`); returns the backup's size in bytes."""
    if database == ":memory:" or not Path(database).is_file():
        raise DatabaseUnavailable(f"no database at {database}: point --db or [database] path at the bot's database")
    with atomic_file(target, database=database, replace=replace, over_sqlite=True) as temporary:
        try:
            verdict = online_copy(database, temporary, LOCK_WAIT_MS)
        except OpenFailed as failed:
            raise DatabaseUnavailable(describe_database_error(database, failed.__cause__)) from None
        except STORE_ERRORS as exc:
            if writing_failed(exc):  # writing the copy
                raise WriteFailed(f"cannot write {target}: {exc}; nothing was written and {target} is unchanged") from None
            raise DatabaseUnavailable(describe_database_error(database, exc)) from None
        if verdict != "ok":
            raise WriteFailed(f"the backup of {database} fails SQLite's check ({verdict}); {target} is unchanged: "
                              f"run `{integrity_check(database)}`")
        size = temporary.stat().st_size
    return size
