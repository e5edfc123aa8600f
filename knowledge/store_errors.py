"""What the store raises when its database cannot do what was asked, named without the database's library.

``STORE_ERRORS`` is the tuple of exception types any call on the store (:mod:`knowledge.store` and its parts,
:mod:`knowledge.database_file`) may raise when the database is busy, locked, read-only, full, gone or damaged:
today SQLite's ``sqlite3.Error``; a second store adds its driver's base error here. Code outside knowledge/
(the broadcast worker, the reply lanes, the webhook, the start-up, `schoolbot backup`) catches
``except STORE_ERRORS`` and says what went wrong with :func:`describe_store_error`, so it never imports sqlite3.
"""

from __future__ import annotations

import sqlite3

STORE_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error,)


def _name(exc: BaseException) -> str:
    return getattr(exc, "sqlite_errorname", "") or ""


def writing_failed(exc: BaseException) -> bool:
    """Whether the error is the disk refusing a write (full, or an I/O error), not the database itself."""
    return _name(exc).startswith(("SQLITE_FULL", "SQLITE_IOERR"))


def describe_store_error(path: str, exc: BaseException, lock_wait: float) -> str:
    """One line for an operator: which file, what is wrong, what to do (`lock_wait`: how long a start waited
    for another program's write lock)."""
    name = _name(exc)
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in str(exc):
        return (f"the database {path} is locked: another program has been writing to it for over "
                f"{lock_wait:g} s (an sqlite3 shell with an open transaction, a stuck process); "
                "close it or wait, then try again")
    if name.startswith("SQLITE_READONLY"):
        return (f"the database {path} is read-only (the file, its folder or the file system): "
                "make it writable, or point --db or [database] path at a writable place")
    if name.startswith("SQLITE_CANTOPEN"):
        return (f"cannot open the database {path} (no such folder, no permission, or a read-only file system): "
                "point --db or [database] path at a writable place")
    if name.startswith("SQLITE_NOTADB") or name.startswith("SQLITE_CORRUPT"):
        return (f"{path} is not a schoolbot database (or it is damaged): "
                "point --db or [database] path at the bot's database, or at a new file")
    if name.startswith("SQLITE_FULL"):
        return f"the disk holding the database {path} is full: free some space and try again"
    return f"cannot use the database {path}: {exc}"
