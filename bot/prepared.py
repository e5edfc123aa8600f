"""Objects that are slow to prepare (the intent matcher), kept on disk between runs.

`load_or_build(key, build, directory)` returns the object pickled under `key`
in `directory`, or builds it, saves it and returns it. The key must name
everything the object is made from: the data files' bytes and the code (see
`code_digest`), so a cached object is never stale. Writes go through
:func:`bot.files.write_file` (a temporary file, then `os.replace`), so two
processes starting at once each read a whole file or build their own. A cache that cannot be read or written is skipped,
never an error: the object is built as if there were no cache.

Only load caches from a directory you trust as much as the database beside it.
"""

from __future__ import annotations

import functools
import hashlib
import io
import logging
import pickle
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

log = logging.getLogger("schoolbot.prepared")

T = TypeVar("T")
MAGIC = b"schoolbot-prepared-1\n"
CACHE_DIR_NAME = ".schoolbot-cache"


def cache_dir_for(database_path: str) -> Path | None:
    """The cache directory beside a database file; None for an in-memory database."""
    if not database_path or database_path == ":memory:" or database_path.startswith("file:"):
        return None
    return Path(database_path).resolve().parent / CACHE_DIR_NAME


@functools.cache
def code_digest(*packages: str) -> bytes:
    """A digest of every Python source file of these (imported) packages and of the Python version.

    Each file counts by its path, size and modification time, as Python's own bytecode cache
    checks its sources: any edit or reinstall changes them, and nothing is read but the directory.
    """
    h = hashlib.sha256(sys.version.encode())
    for package in packages:
        for directory in sys.modules[package].__path__:
            for path in sorted(Path(directory).rglob("*.py")):
                stat = path.stat()
                h.update(f"{path.relative_to(directory)}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return h.digest()


def digest(*parts: bytes | str) -> bytes:
    """One key from several parts (bytes, or text encoded as UTF-8); the parts cannot run together."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big") + data)
    return h.digest()


def load_or_build(key: bytes, build: Callable[[], T], directory: str | Path | None, *, name: str = "prepared") -> T:
    """The object cached under `key` in `directory`, else `build()` (then cached)."""
    if directory is None:
        return build()
    directory = Path(directory)
    key = hashlib.sha256(key).digest()
    path = directory / f"{name}-{key.hex()[:32]}.pickle"
    found = _load(path, key)
    if found is not None:
        return found
    value = build()
    _save(path, key, value, name)
    return value


def _load(path: Path, key: bytes):
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header = MAGIC + key
    if not data.startswith(header):
        return None
    try:
        return pickle.loads(memoryview(data)[len(header):])
    except Exception as exc:  # a file from another version of a library, or damaged: rebuild
        log.info("ignoring the cache %s: %s", path, exc)
        return None


def _save(path: Path, key: bytes, value: object, name: str) -> None:
    from bot.files import FileProblem, write_file

    buffer = io.BytesIO()
    buffer.write(MAGIC + key)
    try:
        _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    except Exception as exc:  # not picklable: work without a cache rather than fail
        log.warning("cannot cache %s: %s", name, exc)
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, buffer.getvalue(), replace=True)
    except (OSError, FileProblem) as exc:  # a read-only directory: no cache, no error
        log.debug("cannot write the cache %s: %s", path, exc)
        return
    _prune(path, name)


KEEP = 4  # files per name: two installs (or versions) sharing a cache directory must not evict each other


def _prune(path: Path, name: str) -> None:
    """Remove all but the KEEP most recently written caches of `name` (keys that may no longer apply)."""
    def written(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except OSError:
            return 0.0

    others = sorted((p for p in path.parent.glob(f"{name}-*.pickle") if p != path), key=written, reverse=True)
    for old in others[KEEP - 1:]:
        try:
            old.unlink()
        except OSError:
            pass


def _cached_method(method, maxsize: int | None, typed: bool):
    return functools.lru_cache(maxsize=maxsize, typed=typed)(method)


class _Pickler(pickle.Pickler):
    """Pickles `self.f = lru_cache(...)(self.g)` attributes as a fresh, empty cache around the method."""

    def reducer_override(self, obj):
        # an lru_cache wrapper (its public cache_parameters) around a bound method
        if callable(getattr(obj, "cache_parameters", None)) and isinstance(getattr(obj, "__wrapped__", None),
                                                                           types.MethodType):
            params = obj.cache_parameters()
            return _cached_method, (obj.__wrapped__, params["maxsize"], params["typed"])
        return NotImplemented
