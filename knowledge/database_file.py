"""The database as a file: taking its write lock for a moment, and copying it whole while it is in use.

The SQLite side of `schoolbot backup`, the start-up check and the scratch copy `schoolbot eval`
talks to; what to tell the operator is the caller's (:mod:`bot.app`, :mod:`bot.backup`).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path


class OpenFailed(Exception):
    """The database to copy could not be opened; its SQLite error is ``__cause__``."""


def check_writable(path: str, wait: float) -> None:
    """Take the write lock for a moment, waiting at most `wait` seconds for another writer.
    Raises sqlite3.Error when it cannot (locked, read-only, not a database)."""
    conn = sqlite3.connect(path, timeout=wait, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
    finally:
        conn.close()


def online_copy(database: str, target: Path, lock_wait_ms: int) -> str:
    """Copy the existing `database` to `target` through SQLite's online backup API (everything committed,
    its write-ahead log included, while others go on writing), as one file with no ``-wal`` beside it.
    Returns the copy's ``PRAGMA quick_check`` verdict ("ok" when sound).

    Raises OpenFailed when `database` cannot be opened (it is never created), sqlite3.Error on the way."""
    try:
        source = sqlite3.connect(f"{Path(database).resolve().as_uri()}?mode=rw", uri=True)
    except sqlite3.Error as exc:
        raise OpenFailed(database) from exc
    try:
        source.execute(f"PRAGMA busy_timeout = {lock_wait_ms}")
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")
            return copy.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            copy.close()
    finally:
        source.close()


def integrity_check(database: str) -> str:
    """The shell command that checks the whole of `database`, for an operator to run."""
    return f"sqlite3 {database} 'PRAGMA integrity_check'"


def copy_store(store, target: str) -> None:
    """Copy an open store's database to a new file `target` (what it has committed), holding its lock."""
    copy = sqlite3.connect(target)
    try:
        with store.lock:
            store.conn.backup(copy)
    finally:
        copy.close()
