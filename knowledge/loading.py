"""Read and validate the YAML files in config/.

Each reader returns fully validated model objects or raises :class:`LoadError`
listing every problem as ``file: section[index] (id): what is wrong``. Nothing
is written anywhere until a whole file has passed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from knowledge.model import (
    ALL_BOARDS,
    FACT_TOPICS,
    LANGUAGES,
    PHASES,
    STATUSES,
    SYSTEMS,
    TIMELINE_KINDS,
    Board,
    Card,
    Fact,
    KnowledgeFile,
    Source,
    Status,
    TimelineEvent,
    WithdrawnService,
)

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")


class LoadError(ValueError):
    """A config file is wrong. ``problems`` lists each problem in words."""

    def __init__(self, path: str, problems: list[str]):
        self.path = path
        self.problems = problems
        shown = problems[:20]
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        super().__init__(
            f"{path}: {len(problems)} problem(s), nothing loaded:\n  " + "\n  ".join(shown) + more
        )


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


def read_yaml(path: str | Path) -> Any:
    import yaml  # on first use: `schoolbot ask` with a prepared matcher reads no YAML

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LoadError(str(path), ["file not found"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LoadError(str(path), [f"cannot read: {exc}"]) from None
    try:
        return yaml.load(text, Loader=_loader())
    except yaml.YAMLError as exc:
        raise LoadError(str(path), [f"not valid YAML: {exc}"]) from None


class _Entry:
    """Reads the fields of one mapping entry, collecting problems instead of raising."""

    def __init__(self, raw: Any, where: str, problems: list[str]):
        self.where = where
        self.problems = problems
        if not isinstance(raw, dict):
            self.fail(f"must be a mapping of fields, got {type(raw).__name__}")
            raw = {}
        self.raw = raw
        self.used: set[str] = set()

    def fail(self, what: str) -> None:
        self.problems.append(f"{self.where}: {what}")

    def get(self, key: str, convert: Callable[[Any], Any], *, required: bool = True, default: Any = None) -> Any:
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

    def finish(self) -> None:
        extra = sorted(set(map(str, self.raw)) - self.used)
        if extra:
            self.fail(f"unknown field(s): {', '.join(extra)}")


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"expected non-empty text, got {value!r}")
    return " ".join(value.split())


def _ident(value: Any) -> str:
    text = _text(value) if not isinstance(value, (int, float)) else str(value)
    if not ID_PATTERN.match(text):
        raise ValueError(f"{text!r} is not a valid id (lower-case letters, digits, - _ .)")
    return text


def _one_of(choices: Iterable[str]) -> Callable[[Any], str]:
    allowed = tuple(choices)

    def convert(value: Any) -> str:
        if value not in allowed:
            raise ValueError(f"{value!r} is not one of: {', '.join(allowed)}")
        return value

    return convert


def _date(value: Any) -> date:
    if isinstance(value, datetime):
        raise ValueError(f"expected a date YYYY-MM-DD, got a time {value!r}")
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError as exc:
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
                raise ValueError(f"{value.strip()!r} is not a real date ({exc})") from None
    raise ValueError(f"expected a date YYYY-MM-DD, got {value!r}")


def _time(value: Any) -> datetime:
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError as exc:
            problem = f" ({exc})" if "range" in str(exc) or "must be in" in str(exc) else ""
            raise ValueError(f"expected an ISO 8601 time like 2019-10-02T20:00:00-04:00, got {value!r}{problem}") from None
    else:
        raise ValueError(f"expected an ISO 8601 time with a UTC offset, got {value!r}")
    if moment.tzinfo is None:
        raise ValueError(f"{value!r} has no UTC offset (add e.g. -04:00)")
    return moment


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")
    return value


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise ValueError(f"expected a list of text, got {value!r}")
    return tuple(_text(item) for item in value)


def _url(value: Any) -> str:
    text = _text(value)
    if not re.match(r"^https?://[^\s/$.?#].[^\s]*$", text):
        raise ValueError(f"{text!r} is not a web address starting with http:// or https://")
    return text


def _entries(data: Any, section: str, path: str, problems: list[str], required: bool = True) -> list[tuple[str, Any]]:
    items = data.get(section) if isinstance(data, dict) else None
    if items is None:
        if required:
            problems.append(f"section '{section}' is missing")
        return []
    if not isinstance(items, list):
        problems.append(f"section '{section}' must be a list of entries")
        return []
    named = []
    for index, raw in enumerate(items):
        label = raw.get("id") or raw.get("file") if isinstance(raw, dict) else None
        named.append((f"{section}[{index}]" + (f" ({label})" if label else ""), raw))
    return named


def load_boards(path: str | Path) -> tuple[Board, ...]:
    path = str(path)
    data = read_yaml(path)
    problems: list[str] = []
    if not isinstance(data, dict):
        raise LoadError(path, ["the file must be a mapping with a 'boards' list"])
    boards: list[Board] = []
    seen: dict[str, str] = {}
    alias_owner: dict[str, str] = {}
    for where, raw in _entries(data, "boards", path, problems):
        e = _Entry(raw, where, problems)
        board = Board(
            id=e.get("id", _ident),
            name=e.get("name", _text),
            system=e.get("system", _one_of(SYSTEMS)),
            language=e.get("language", _one_of(LANGUAGES)),
            website=e.get("website", _url),
            aliases=e.get("aliases", _strings, required=False, default=()),
            municipalities=e.get("municipalities", _strings, required=False, default=()),
        )
        e.finish()
        if board.id is None:
            continue
        if board.id in seen:
            e.fail(f"id {board.id!r} is used twice (also {seen[board.id]})")
        seen[board.id] = where
        for alias in (board.aliases or ()):
            key = alias.lower()
            owner = alias_owner.get(key)
            if owner and owner != board.id:
                e.fail(f"alias {alias!r} is also an alias of {owner!r}; an alias must name one board")
            alias_owner[key] = board.id
        boards.append(board)
    if problems:
        raise LoadError(path, problems)
    for board in boards:
        if board.id in alias_owner and alias_owner[board.id] != board.id:
            problems.append(f"board {board.id!r}: its id is an alias of {alias_owner[board.id]!r}")
    if problems:
        raise LoadError(path, problems)
    return tuple(boards)


def load_knowledge(path: str | Path, board_ids: Iterable[str]) -> KnowledgeFile:
    """Validate one knowledge file against the known boards."""
    path = str(path)
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise LoadError(path, ["the file must be a mapping with sources, facts, statuses, withdrawn_services, timeline"])
    problems: list[str] = []
    known_sections = {"sources", "facts", "statuses", "withdrawn_services", "timeline", "cards"}
    for key in data:
        if key not in known_sections:
            problems.append(f"unknown section {key!r}; known: {', '.join(sorted(known_sections))}")
    boards = set(board_ids) | {ALL_BOARDS}

    sources: dict[str, Source] = {}
    for where, raw in _entries(data, "sources", path, problems):
        e = _Entry(raw, where, problems)
        source = Source(
            file=e.get("file", _text),
            title=e.get("title", _text),
            published=e.get("published", _time),
            approximate=e.get("approximate", _bool, required=False, default=False),
        )
        e.finish()
        if source.file in sources:
            e.fail(f"source {source.file!r} is listed twice")
        if source.file and source.published:
            sources[source.file] = source

    ids: dict[str, str] = {}

    def common(e: _Entry) -> tuple[str, str, datetime]:
        entry_id = e.get("id", _ident)
        if entry_id in ids:
            e.fail(f"id {entry_id!r} is used twice (also {ids[entry_id]})")
        elif entry_id:
            ids[entry_id] = e.where
        source = e.get("source", _text)
        if source and source not in sources:
            e.fail(f"source {source!r} is not listed under 'sources'")
        published = e.get("published", _time, required=False)
        if published is None and source in sources:
            published = sources[source].published
        return entry_id, source, published

    facts = []
    for where, raw in _entries(data, "facts", path, problems, required=False):
        e = _Entry(raw, where, problems)
        entry_id, source, published = common(e)
        facts.append(Fact(entry_id, e.get("topic", _one_of(FACT_TOPICS)), e.get("text", _text), source, published))
        e.finish()

    statuses = []
    for where, raw in _entries(data, "statuses", path, problems, required=False):
        e = _Entry(raw, where, problems)
        entry_id, source, published = common(e)
        board = e.get("board", _text)
        if board and board not in boards:
            e.fail(f"board {board!r} is not in boards.yaml (nor 'all')")
        start = e.get("from", _date)
        until = e.get("until", _date, required=False)
        if start and until and until < start:
            e.fail(f"'until' {until} is before 'from' {start}")
        statuses.append(
            Status(entry_id, board, start, until, e.get("status", _one_of(STATUSES)), e.get("summary", _text), source, published)
        )
        e.finish()

    services = []
    for where, raw in _entries(data, "withdrawn_services", path, problems, required=False):
        e = _Entry(raw, where, problems)
        entry_id, source, published = common(e)
        services.append(
            WithdrawnService(entry_id, e.get("workers", _text), e.get("service", _text), e.get("phase", _one_of(PHASES)), source, published)
        )
        e.finish()

    timeline = []
    for where, raw in _entries(data, "timeline", path, problems, required=False):
        e = _Entry(raw, where, problems)
        entry_id, source, published = common(e)
        timeline.append(
            TimelineEvent(
                entry_id,
                e.get("kind", _one_of(TIMELINE_KINDS)),
                e.get("date", _date),
                e.get("text", _text),
                source,
                published,
                e.get("approximate", _bool, required=False, default=False),
            )
        )
        e.finish()

    cards = [_card(e, common, boards) for e in
             (_Entry(raw, where, problems) for where, raw in _entries(data, "cards", path, problems, required=False))]
    card_ids = {card.id for card in cards}
    for card in cards:
        if card.replaces and card.replaces not in card_ids:
            problems.append(f"cards ({card.id}): 'replaces' names {card.replaces!r}, which is not a card in this file")

    if problems:
        raise LoadError(path, problems)
    return KnowledgeFile(
        path, tuple(sources.values()), tuple(facts), tuple(statuses), tuple(services), tuple(timeline), tuple(cards)
    )


CARD_FRENCH_FIELDS = ("question", "answer", "details", "phrasings")


def _card(e: _Entry, common: Callable[[_Entry], tuple[str, str, datetime]], boards: set[str]) -> Card:
    """One entry of `cards:`, its problems collected in the entry's list."""
    entry_id, source, published = common(e)
    card_boards = e.get("boards", _strings, required=False, default=())
    for board in card_boards:
        if board not in boards or board == ALL_BOARDS:
            e.fail(f"board {board!r} is not in boards.yaml (leave 'boards' out for every board)")
    valid_until = e.get("valid_until", _time, required=False)
    if valid_until is not None and published is not None and valid_until <= published:
        e.fail(f"'valid_until' {valid_until.isoformat()} is not after 'published' {published.isoformat()}")
    fr = e.get("fr", _french_texts, required=False)
    card = Card(
        entry_id,
        e.get("topic", _ident),
        e.get("question", _text),
        e.get("answer", _text),
        source,
        published,
        details=e.get("details", _text, required=False, default=""),
        phrasings=e.get("phrasings", _strings, required=False, default=()),
        boards=card_boards,
        valid_until=valid_until,
        replaces=e.get("replaces", _ident, required=False, default=""),
        fr=fr,
    )
    e.finish()
    return card


def _french_texts(value: Any) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"expected a mapping of French texts ({', '.join(CARD_FRENCH_FIELDS)}), got {value!r}")
    unknown = sorted(set(map(str, value)) - set(CARD_FRENCH_FIELDS))
    if unknown:
        raise ValueError(f"unknown French field(s) {', '.join(unknown)}; known: {', '.join(CARD_FRENCH_FIELDS)}")
    return {key: (_strings(text) if key == "phrasings" else _text(text)) for key, text in value.items()}
