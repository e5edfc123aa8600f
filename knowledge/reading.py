"""The one way the bot reads a file it is given (settings, boards, intents, dates, wording, packs, question
files): a regular file under a size limit, and YAML parsed with limits on aliases and depth.

A FIFO would hang a read, a link to /dev/zero or a 50 MB pack would take minutes and gigabytes, and
billion-laughs aliases blow up into millions of nodes once anything walks them: each is refused at once,
in one line naming the file. Errors never quote the file's lines (a link can point at any file): a YAML
error gives the line and column and what the parser expected, and a value quoted in a validation error
goes through :func:`shown`, which keeps at most a few dozen characters of it.
"""

from __future__ import annotations

import os
import reprlib
import stat
from functools import lru_cache
from pathlib import Path
from typing import Any

MAX_FILE_BYTES = 4 * 1024 * 1024  # the shipped 2019 pack is 0.2 MB; a file twenty times that is no config file
MAX_ALIASES = 100  # YAML `*name` references in one file (the shipped files have none)
MAX_NODES = 1_000_000  # nodes once every alias is expanded: what a reader walking the data would see
MAX_DEPTH = 50  # nesting of lists and mappings (the shipped files nest at most 6 deep)


class LoadError(ValueError):
    """A config file is wrong. ``problems`` lists each problem in words, one line each; one problem is
    said on one line (``file: problem``), several under a line naming the file and their count."""

    def __init__(self, path: str, problems: list[str]):
        self.path = path
        self.problems = problems
        if len(problems) == 1:
            super().__init__(f"{path}: {problems[0]}")
            return
        listed = problems[:20]
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        super().__init__(f"{path}: {len(problems)} problems, nothing loaded:\n  " + "\n  ".join(listed) + more)


class FileRefused(LoadError):
    """The file cannot be read at all (missing, not a regular file, too large, not UTF-8)."""

    def __init__(self, path: str, problem: str):
        super().__init__(path, [problem])


_SHOWN = reprlib.Repr()
_SHOWN.maxstring = 40
_SHOWN.maxother = 40
_SHOWN.maxlist = _SHOWN.maxtuple = _SHOWN.maxdict = _SHOWN.maxset = 3
_SHOWN.maxlevel = 2


def shown(value: Any) -> str:
    """A value from a file, for an error message: its repr cut to a few dozen characters, whatever its size."""
    return _SHOWN.repr(value)


def read_bytes(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The whole file, if it is a regular file (a link to one is fine) of at most `limit` bytes.

    Opened without blocking (a FIFO is refused instead of waiting for a writer) and checked on the open
    descriptor, so what is read is what was checked. Raises :class:`FileRefused` with one line.
    """
    name = str(path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise FileRefused(name, "no such file: check the path") from None
    except IsADirectoryError:
        raise FileRefused(name, "is a folder, not a file: name the file in it") from None
    except OSError as exc:
        raise FileRefused(name, f"cannot read it ({exc.strerror}): check its permissions") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileRefused(name, "is a folder, not a file: name the file in it")
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(name, "is not a regular file (a pipe, a device or a socket): name a plain file")
        if info.st_size > limit:
            raise FileRefused(name, f"is {info.st_size / 1048576:.1f} MB, over the {limit / 1048576:g} MB a file "
                                    "the bot reads may have: is it the right file?")
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 20):  # a file that grows while read stops at the limit too
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise FileRefused(name, f"grew over the {limit / 1048576:g} MB a file the bot reads may have")
        return b"".join(chunks)
    except OSError as exc:
        raise FileRefused(name, f"cannot read it ({exc.strerror})") from None
    finally:
        os.close(fd)


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """:func:`read_bytes` as UTF-8 text; a file that is not UTF-8 is refused in one line."""
    data = read_bytes(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise FileRefused(str(path), f"is not UTF-8 text (line {line}): save it as UTF-8") from None


@lru_cache(maxsize=1)
def _loader():
    """libyaml's C loader when PyYAML has it (its wheels do): ~10x faster, same safe subset; but a date
    or time YAML cannot build (2019-02-30, hour 25) stays text, so the field's reader reports it with
    the file, the entry and the problem."""
    import yaml

    class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        pass

    def timestamp_or_text(loader, node):
        try:
            return yaml.SafeLoader.construct_yaml_timestamp(loader, node)
        except ValueError:
            return loader.construct_scalar(node)

    Loader.add_constructor("tag:yaml.org,2002:timestamp", timestamp_or_text)
    return Loader


def _yaml_problem(exc: Exception) -> str:
    """A YAML error in one line: where, and what the parser expected; never the text of the line."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    what = "; ".join(str(part) for part in (getattr(exc, "context", None), getattr(exc, "problem", None)) if part)
    return f"not valid YAML{where}: {what or type(exc).__name__}"


def _check_nodes(root) -> str | None:
    """What is wrong with a composed YAML document's shape (too many aliases, too deep, too big), if anything.

    Walks the node graph once, without recursion: a node met again is an alias, and its size (the nodes
    below it, counted once per place they appear) is added where it is met again, as a reader would see it.
    """
    import yaml

    size: dict[int, int] = {}
    seen_nodes: set[int] = set()
    aliases = 0
    stack: list[tuple[Any, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        key = id(node)
        if done:
            children = _children(node, yaml)
            size[key] = 1 + sum(size.get(id(child), 1) for child in children)
            if size[key] > MAX_NODES:
                return f"too large once its aliases are expanded (over {MAX_NODES:,} values): write the values out"
            continue
        if key in seen_nodes:
            aliases += 1
            if aliases > MAX_ALIASES:
                return f"over {MAX_ALIASES} YAML aliases (*name): write the values out"
            if key not in size:
                return "a YAML alias refers to the list or mapping it is in: write the values out"
            continue
        seen_nodes.add(key)
        if depth > MAX_DEPTH:
            return f"nested over {MAX_DEPTH} levels deep: is it the right file?"
        stack.append((node, depth, True))
        for child in _children(node, yaml):
            stack.append((child, depth + 1, False))
    return None


def _children(node, yaml) -> list:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def read_yaml(path: str | Path) -> Any:
    """The data of a YAML file read by :func:`read_text`, within the alias, size and depth limits.

    Raises :class:`LoadError` naming the file, with one line saying what is wrong.
    """
    import yaml  # on first use: `schoolbot ask` with a prepared matcher reads no YAML

    name = str(path)
    text = read_text(path)
    loader = _loader()(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        problem = _check_nodes(node)
        if problem:
            raise FileRefused(name, problem)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise LoadError(name, [_yaml_problem(exc)]) from None
    except RecursionError:
        raise FileRefused(name, f"nested over {MAX_DEPTH} levels deep: is it the right file?") from None
    finally:
        loader.dispose()
