"""One `schoolbot serve` per database: an OS lock on "<database>.lock".

The kernel releases the lock when its process ends, however it ends (kill -9
included), so a lock left by a dead process is taken over at once. The lock
file says who holds it (pid, host, since when) for the refusal message.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock; serve runs unguarded there
    fcntl = None


class AlreadyRunning(Exception):
    """Another process serves this database; the message names it."""


def lock_path(database_path: str) -> str:
    return database_path + ".lock"


@contextmanager
def only_instance(database_path: str) -> Iterator[None]:
    """Hold the database's instance lock while the block runs, or raise AlreadyRunning."""
    if database_path == ":memory:" or fcntl is None:
        yield
        return
    path = lock_path(database_path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
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


def _holder(fd: int) -> str:
    try:
        info = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return f"pid {info['pid']} on {info['host']}, since {info['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "it has not said which process it is yet"
