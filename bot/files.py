"""Every file the bot writes (an export, a backup, a cache) is written here, so none can damage another.

:func:`atomic_file` checks the target first (:func:`check_target`): never the
bot's database or its side files (by name, or the same file under another name),
never any SQLite database (its first 16 bytes), never through a symbolic link,
never a folder or a device, and an existing file only when asked to replace it.
Then the content goes to a temporary file in the same folder, which is flushed to
disk and renamed over the target in one step: the target is the old file or the
whole new one, never a part (a full disk, a kill, a crash). A new file gets the
permissions ``open()`` would give it; a replaced one keeps its own.

The errors are one line naming the file, what is wrong and what to do:
:class:`UnsafeTarget` (the command's arguments: exit status 2) and
:class:`WriteFailed` (the disk said no: status 1).
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database
WAL_HEADERS = (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")  # the first 4 bytes of a write-ahead log
SIDE_FILES = ("-wal", "-shm", "-journal", ".lock")  # SQLite's files beside a database, and `serve`'s lock


class FileProblem(Exception):
    """A file the bot was asked to write: the message is one line for the operator."""


class UnsafeTarget(FileProblem):
    """Writing there would damage something (the database, a link's target, a file not meant to be replaced)."""


class WriteFailed(FileProblem):
    """The system refused the write (full disk, no permission); the target was left as it was."""


def check_target(path: str | os.PathLike, *, database: str | None = None, replace: bool = False,
                 force_hint: str = "--force", over_sqlite: bool = False) -> Path:
    """`path` if the bot may write it, else :class:`UnsafeTarget` saying why.

    `database` is the bot's database (never written, even with `replace`);
    `force_hint` is how the operator asks to replace an existing file;
    `over_sqlite`: with `replace`, another SQLite file may be replaced (a backup over an older backup).
    """
    target = Path(path)
    name = str(path)
    if target.is_symlink():
        raise UnsafeTarget(f"{name} is a symbolic link (to {os.readlink(target)}); the bot does not write through "
                           "links: name the file itself, or another file")
    if database and database != ":memory:" and _is_database(target, Path(database)):
        raise UnsafeTarget(f"{name} is the bot's database {database} (or one of its files); "
                           "name another file to write")
    if not target.parent.is_dir():
        raise UnsafeTarget(f"the folder {target.parent} does not exist; create it first or name a file in an existing one")
    try:
        info = target.stat()
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise UnsafeTarget(f"cannot check {name}: {exc.strerror}; name another file") from None
    if stat.S_ISDIR(info.st_mode):
        raise UnsafeTarget(f"{name} is a folder; name a file")
    if not stat.S_ISREG(info.st_mode):
        raise UnsafeTarget(f"{name} is not a regular file (a device or a pipe); name a file")
    if _is_sqlite(target) and not over_sqlite:
        raise UnsafeTarget(f"{name} is an SQLite database; the bot never writes over one (not even with "
                           f"{force_hint}): name another file")
    if not replace:
        raise UnsafeTarget(f"{name} already exists; add {force_hint} to replace it, or name another file")
    return target


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike, **checks) -> Iterator[Path]:
    """The temporary file to write in place of `path`; renamed over `path` when the block ends without error.

    Checks the target first (:func:`check_target`, with `checks`) and again just before the rename.
    """
    target = check_target(path, **checks)
    temporary = _create_beside(target)
    try:
        try:
            yield temporary
            _sync(temporary)
            check_target(target, **checks)  # nothing changed since?
            with contextlib.suppress(FileNotFoundError):
                os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))  # a replaced file keeps its permissions
            os.replace(temporary, target)
        except OSError as exc:
            raise WriteFailed(f"cannot write {path}: {exc.strerror or exc}; nothing was written and "
                              f"{path} is unchanged") from None
        _sync_folder(target.parent)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def write_file(path: str | os.PathLike, data: str | bytes, **checks) -> None:
    """Write `data` (text as UTF-8) to `path` whole or not at all; `checks` as for :func:`atomic_file`."""
    with atomic_file(path, **checks) as temporary:
        temporary.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def _create_beside(target: Path) -> Path:
    """A new empty file in the target's folder, with the permissions open() gives (0666 less the umask)."""
    for _ in range(100):
        candidate = target.with_name(f".{target.name}.{os.urandom(4).hex()}.tmp")
        try:
            os.close(os.open(candidate, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        except FileExistsError:
            continue
        except OSError as exc:
            raise WriteFailed(f"cannot write {target}: {exc.strerror}; nothing was written") from None
        return candidate
    raise WriteFailed(f"cannot write {target}: no free temporary name beside it; nothing was written")


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable; some file systems cannot sync a folder, which is no error."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _is_database(target: Path, database: Path) -> bool:
    """The database itself, by any name (the same inode), or one of its side files."""
    try:
        if target.exists() and database.exists() and os.path.samefile(target, database):
            return True
    except OSError:
        pass
    resolved = target.resolve()
    base = database.resolve()
    return resolved == base or any(resolved == base.with_name(base.name + side) for side in SIDE_FILES)


def _is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError:
        return False
    return head == SQLITE_HEADER or head[:4] in WAL_HEADERS
