"""The one way a data file staff edit is checked: packs, regions and boards (knowledge/), intents, subjects,
wording and dates (bot/).

A reader walks its file with these helpers and collects every problem before refusing the file, so one
run lists them all (:class:`~knowledge.reading.LoadError`: the file, then one line per problem). A problem
reads ``ENTRY: PROBLEM`` and a field's ``ENTRY: 'FIELD': PROBLEM``, the entry named by where it is:
``statuses[0] (pdsb-strike): 'status': 'maybe' is not one of: open, closed, ...``,
``intents.childcare: 'examples': item 2: expected non-empty text, got 12``, ``pack: 'title' is missing``.

- :class:`Entry` reads one mapping (a pack's status, an intent, the `region:` header): each field through a
  converter, a missing required field and any unknown field each one problem.
- :func:`entries` (a list of mappings) and :func:`keyed` (a mapping of id -> mapping) name the entries of a
  section; :func:`sections` checks a file's top level.
- The converters take a YAML value and return it checked, or raise ValueError saying what is wrong:
  :func:`text`, :func:`ident`, :func:`one_of`, :func:`day`, :func:`moment`, :func:`flag`, :func:`strings`,
  :func:`url`, :func:`number`, :func:`mapping_of`. A reader's own converter is a function of the same shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime
from typing import Any

from knowledge.reading import LoadError, shown

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
OFFSET_HINT_ZONE = "America/Toronto"  # the boards' zone: a time with no offset is told the one it has there

Convert = Callable[[Any], Any]


# ------------------------------------------------------------------ reading entries
class Entry:
    """Reads the fields of one mapping entry, collecting problems (``where: ...``) instead of raising."""

    def __init__(self, raw: Any, where: str, problems: list[str], needs: str = "fields"):
        self.where = where
        self.problems = problems
        if not isinstance(raw, dict):
            self.fail(f"must be a mapping of {needs}, got {_kind(raw)}")
            raw = {}
        self.raw = raw
        self.used: set[str] = set()

    def fail(self, what: str) -> None:
        self.problems.append(f"{self.where}: {what}" if self.where else what)  # no where: the file's top level

    def get(self, key: str, convert: Convert, *, required: bool = True, default: Any = None) -> Any:
        """The field converted, or `default` (a problem when it is required, or when it does not convert)."""
        self.used.add(key)
        if key not in self.raw or self.raw[key] is None:
            if required:
                self.fail(f"'{key}' is missing")
            return default
        try:
            return convert(self.raw[key])
        except (TypeError, ValueError) as exc:
            self.fail(f"'{key}': {exc}")
            return default

    def finish(self, known: Iterable[str] = ()) -> None:
        """One problem naming the fields the entry has that no reader asked for (`known`: others it may have)."""
        allowed = self.used | set(known)
        extra = sorted(set(map(str, self.raw)) - allowed)
        if extra:
            self.fail(f"unknown field(s): {', '.join(extra)}; known: {', '.join(sorted(allowed))}")


def entries(data: Any, section: str, problems: list[str], *, required: bool = True,
            where: str = "") -> list[tuple[str, Any]]:
    """(where, raw) for each entry of a list section, `where` being ``section[index] (its id)``; a missing
    section (when `required`) or one that is not a list is a problem. `where` names the section otherwise
    (``pack.phases``)."""
    name = where or section
    items = _section(data, section, name, list, "be a list of entries", problems, required)
    named = []
    for index, raw in enumerate(items or ()):
        label = raw.get("id") or raw.get("file") if isinstance(raw, dict) else None
        named.append((f"{name}[{index}]" + (f" ({str(label)[:40]})" if label else ""), raw))
    return named


def keyed(data: Any, section: str, problems: list[str], *, required: bool = True, where: str = "",
          needs: str = "names to entries") -> list[tuple[str, str, Any]]:
    """(where, key, raw) for each entry of a mapping section (``intents: {childcare: {...}}``), `where` being
    ``section.key``; a missing section (when `required`) or one that is not a mapping (of `needs`) is a problem.
    `where` names the section otherwise (``pack.slang``)."""
    name = where or section
    items = _section(data, section, name, dict, f"map {needs}", problems, required)
    return [(f"{name}.{key}", str(key), raw) for key, raw in (items or {}).items()]


def _section(data: Any, section: str, name: str, kind: type, must: str, problems: list[str], required: bool) -> Any:
    """The section's value when it is of `kind`, else None (a problem when it is there, or required)."""
    items = data.get(section) if isinstance(data, dict) else None
    if items is None:
        if required:
            problems.append(f"section '{name}' is missing")
        return None
    if not isinstance(items, kind):
        problems.append(f"{name}: must {must}, got {_kind(items)}")
        return None
    return items


def sections(data: Any, path: str, known: Sequence[str], needs: str, problems: list[str]) -> dict:
    """The file's top-level mapping: a file that is not one is refused at once (`needs`: what it holds), and
    each top-level key not in `known` is one problem, added to the reader's `problems`."""
    if not isinstance(data, dict):
        raise LoadError(path, [f"the file must be a mapping with {needs}"])
    problems.extend(f"unknown section {shown(key)}; known: {', '.join(known)}" for key in data if key not in known)
    return data


def refuse(path: str, problems: list[str]) -> None:
    """Raise the file's LoadError when any problem was found: nothing of a file with one is used."""
    if problems:
        raise LoadError(path, problems)


def _kind(value: Any) -> str:
    return {dict: "a mapping", list: "a list", str: "text", type(None): "nothing"}.get(type(value), shown(value))


# ------------------------------------------------------------------ converters
def text(value: Any) -> str:
    """Non-empty text, its runs of spaces and line breaks made one space."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"expected non-empty text, got {shown(value)}")
    return " ".join(value.split())


def ident(value: Any) -> str:
    """An id: lower-case letters, digits, - _ . (a number is read as its digits)."""
    found = text(value) if not isinstance(value, (int, float)) else str(value)
    if not ID_PATTERN.match(found):
        raise ValueError(f"{shown(found)} is not a valid id (lower-case letters, digits, - _ .)")
    return found


def one_of(choices: Iterable[str]) -> Convert:
    """A converter accepting exactly one of `choices`."""
    allowed = tuple(choices)

    def convert(value: Any) -> str:
        if value not in allowed:
            raise ValueError(f"{shown(value)} is not one of: {', '.join(allowed)}")
        return value

    return convert


def day(value: Any) -> date:
    """A date YYYY-MM-DD (a real one: 2019-02-30 is refused, saying why)."""
    if isinstance(value, datetime):
        raise ValueError(f"expected a date YYYY-MM-DD, got a time {shown(value)}")
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError as exc:
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
                raise ValueError(f"{shown(value.strip())} is not a real date ({exc})") from None
    raise ValueError(f"expected a date YYYY-MM-DD, got {shown(value)}")


def moment(value: Any) -> datetime:
    """An ISO 8601 time with its UTC offset (one without is told the offset it has in Toronto that day)."""
    if isinstance(value, datetime):
        found = value
    elif isinstance(value, str):
        try:
            found = datetime.fromisoformat(value.strip())
        except ValueError as exc:
            problem = f" ({exc})" if "range" in str(exc) or "must be in" in str(exc) else ""
            raise ValueError(f"expected an ISO 8601 time like 2019-10-02T20:00:00-04:00, got {shown(value)}{problem}") from None
    else:
        raise ValueError(f"expected an ISO 8601 time with a UTC offset, got {shown(value)}")
    if found.tzinfo is None:
        raise ValueError(f"{shown(value)} has no UTC offset (add {_offset_on(found)}, Toronto's on that day)")
    return found


def _offset_on(local: datetime) -> str:
    """The UTC offset of Ontario's time zone at that local time: -04:00 in summer time, -05:00 in winter."""
    from zoneinfo import ZoneInfo

    offset = local.replace(tzinfo=ZoneInfo(OFFSET_HINT_ZONE)).strftime("%z")
    return f"{offset[:3]}:{offset[3:]}"


def flag(value: Any) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {shown(value)}")
    return value


def strings(value: Any, item: Convert = text, *, empty: bool = True) -> tuple:
    """A list, each item through `item` (non-empty text by default); one text is a list of one. A bad item is
    named by its place (``item 2: ...``); `empty=False` refuses an empty list."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise ValueError(f"expected a list of text, got {shown(value)}")
    if not value and not empty:
        raise ValueError("expected a non-empty list, got an empty one")
    found = []
    for index, each in enumerate(value):
        try:
            found.append(item(each))
        except ValueError as exc:
            raise ValueError(f"item {index + 1}: {exc}") from None
    return tuple(found)


def url(value: Any) -> str:
    """A web address starting with http:// or https://."""
    found = text(value)
    if not re.match(r"^https?://[^\s/$.?#].[^\s]*$", found):
        raise ValueError(f"{shown(found)} is not a web address starting with http:// or https://")
    return found


def number(low: float, high: float) -> Convert:
    """A converter accepting a number in (low, high] (true and false are no numbers)."""
    def convert(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low < value <= high:
            raise ValueError(f"expected a number in ({low:g}, {high:g}], got {shown(value)}")
        return float(value)

    return convert


def mapping_of(keys: Iterable[str] | None, convert: Convert | dict[str, Convert] = text, *,
               required: Iterable[str] = (), noun: str = "key") -> Convert:
    """A converter of a mapping whose keys are some of `keys` (those `required` among them; any key when `keys`
    is None), each value through `convert` (or its own converter in a dict): an entry's French texts, a name
    per language, a keyword's weight."""
    allowed, needed = tuple(keys or ()), tuple(required)

    def read(value: Any) -> dict:
        if not isinstance(value, dict):
            listed = f" ({', '.join(allowed)})" if allowed else ""
            raise ValueError(f"expected a mapping of {noun}s{listed}, got {shown(value)}")
        unknown = sorted(set(map(str, value)) - set(allowed)) if keys is not None else []
        if unknown:
            raise ValueError(f"unknown {noun}(s) {', '.join(unknown)}; known: {', '.join(allowed)}")
        missing = [k for k in needed if value.get(k) is None]
        if missing:
            raise ValueError(f"{', '.join(missing)} missing")
        out = {}
        for key, each in value.items():
            try:
                out[str(key)] = (convert[str(key)] if isinstance(convert, dict) else convert)(each)
            except ValueError as exc:
                raise ValueError(f"{shown(key) if keys is None else key}: {exc}") from None
        return out

    return read
