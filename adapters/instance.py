"""One `schoolbot serve` per database: an OS lock on "<database>.lock".

The kernel releases the lock when its process ends, however it ends (kill -9
included), so a lock left by a dead process is taken over at once. The lock
file says who holds it (pid, host, since when) for the refusal message.

The lock stands for the database file, not for the name it was given: it is taken
beside the file a symbolic link to the database points at, and a database with a
second hard link (another name the lock would not see) is refused, since two
serves on one file through two names would keep two write-ahead logs, SQLite's
way to corrupt it. The lock file itself is never followed through a link (a link
there would have the pid written over whatever it points at).
"""

from __future__ import annotations

import errno
import json
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from knowledge.records import DatabaseUnavailable

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock; serve runs unguarded there
    fcntl = None


class AlreadyRunning(Exception):
    """Another process serves this database; the message names it."""


def lock_path(database_path: str) -> str:
    """The lock of the database file: beside the file a link to it points at, so every name of it finds one lock."""
    return os.path.realpath(database_path) + ".lock"


@contextmanager
def only_instance(database_path: str) -> Iterator[None]:
    """Hold the database's instance lock while the block runs, or raise AlreadyRunning.

    A lock that cannot be taken (a link or a folder in its place, a read-only folder) or a database with
    more than one hard link is DatabaseUnavailable: one line saying what to do.
    """
    if database_path == ":memory:" or fcntl is None:
        yield
        return
    _check_one_name(database_path)
    path = lock_path(database_path)
    fd = _open_lock(path)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise AlreadyRunning(
                f"another `schoolbot serve` is running on the database {database_path} ({_holder(fd)}): "
                "stop it first, or give this one its own database with --db"
            ) from None
        me = {"pid": os.getpid(), "host": socket.gethostname(), "since": datetime.now(UTC).isoformat(timespec="seconds")}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(me).encode() + b"\n", 0)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _check_one_name(database_path: str) -> None:
    try:
        links = os.stat(database_path).st_nlink
    except FileNotFoundError:
        return  # made by this start: one name
    except OSError:
        return  # the database's own checks say what is wrong with it
    if links > 1:
        raise DatabaseUnavailable(
            f"the database {database_path} has {links} names (hard links): a `serve` started through another name "
            "would not see this one's lock and both would write to it; remove the other names "
            f"(find / -samefile {database_path}) or give each bot a copy of its own")


def _open_lock(path: str) -> int:
    """The lock file, opened for writing, never through a symbolic link; one line when it cannot be."""
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            problem = "is a symbolic link; remove it (schoolbot makes the lock as a plain file)"
        elif exc.errno == errno.EISDIR:
            problem = "is a folder; remove it or move it away (the lock is a plain file schoolbot makes)"
        elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            problem = (f"cannot be made ({exc.strerror}): the database's folder must be writable by the bot, "
                       "or point --db or [database] path at a writable place")
        else:
            problem = f"cannot be opened ({exc.strerror})"
        raise DatabaseUnavailable(f"the instance lock {path} {problem}") from None
    if not _is_regular(fd):
        os.close(fd)
        raise DatabaseUnavailable(f"the instance lock {path} is not a plain file (a pipe or a device): remove it")
    return fd


def _is_regular(fd: int) -> bool:
    import stat

    return stat.S_ISREG(os.fstat(fd).st_mode)


def _holder(fd: int) -> str:
    try:
        info = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return f"pid {info['pid']} on {info['host']}, since {info['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "it has not said which process it is yet"
