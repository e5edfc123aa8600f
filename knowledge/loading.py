"""Read and validate the YAML files in config/.

Each reader returns fully validated model objects or raises :class:`LoadError`
listing every problem as ``file: section[index] (id): what is wrong``. Nothing
is written anywhere until a whole file has passed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from datetime import date, datetime
from pathlib import Path
from typing import Any

from knowledge.fields import _bool, _date, _ident, _one_of, _strings, _text, _time, _url
from knowledge.model import (
    ALL_BOARDS,
    ANSWER_INTENTS,
    FACT_TOPICS,
    LANGUAGES,
    SYSTEMS,
    TAUGHT_TOPIC,
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
from knowledge.packs import legacy_header, read_header
from knowledge.reading import LoadError, read_yaml, shown, unknown_sections

__all__ = ["LoadError", "read_yaml", "load_boards", "read_boards", "load_knowledge"]


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
        named.append((f"{section}[{index}]" + (f" ({str(label)[:40]})" if label else ""), raw))
    return named


SHORT_NAME_MAX = 20  # what a reply's first line leads with must leave room for the answer


def _check_short(board: Board, e: _Entry, owner: dict[str, str]) -> None:
    """A short name is short, shorter than the name, and names one board."""
    short = board.short
    if not short or not board.name:
        return
    if len(short) > SHORT_NAME_MAX or len(short) >= len(board.name):
        e.fail(f"short name {shown(short)} must be shorter than the name and at most {SHORT_NAME_MAX} characters")
    key = short.casefold()
    if key in owner and owner[key] != board.id:
        e.fail(f"short name {shown(short)} is also the short name of {shown(owner[key])}; a short name must name one board")
    owner[key] = board.id


def load_boards(path: str | Path) -> tuple[Board, ...]:
    """A boards-only file (a `boards:` list; a region file brings its boards too: knowledge.regions)."""
    path = str(path)
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise LoadError(path, ["the file must be a mapping with a 'boards' list"])
    problems = unknown_sections(data, ["boards"])
    if "region" in data:
        problems = [f"it is a region file (it has 'region:'): load it with `schoolbot kb load {path}`"]
    if problems:
        raise LoadError(path, problems)
    return read_boards(data, path)


def read_boards(data: dict, path: str) -> tuple[Board, ...]:
    """The validated `boards:` list of a boards or region file (raises LoadError naming each bad entry)."""
    problems: list[str] = []
    boards: list[Board] = []
    seen: dict[str, str] = {}
    alias_owner: dict[str, str] = {}
    short_owner: dict[str, str] = {}
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
            short=e.get("short", _text, required=False, default=""),
        )
        e.finish()
        if board.id is None:
            continue
        if board.id in seen:
            e.fail(f"id {shown(board.id)} is used twice (also {seen[board.id]})")
        seen[board.id] = where
        _check_short(board, e, short_owner)
        for alias in (board.aliases or ()):
            key = alias.lower()
            owner = alias_owner.get(key)
            if owner and owner != board.id:
                e.fail(f"alias {shown(alias)} is also an alias of {shown(owner)}; an alias must name one board")
            alias_owner[key] = board.id
        boards.append(board)
    if problems:
        raise LoadError(path, problems)
    for board in boards:
        if board.id in alias_owner and alias_owner[board.id] != board.id:
            problems.append(f"board {shown(board.id)}: its id is an alias of {shown(alias_owner[board.id])}")
    if problems:
        raise LoadError(path, problems)
    return tuple(boards)


def load_knowledge(path: str | Path, board_ids: Iterable[str], intents: tuple[str, ...] = ANSWER_INTENTS) -> KnowledgeFile:
    """Validate one knowledge file (a pack) against the known boards and intents."""
    path = str(path)
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise LoadError(path, ["the file must be a mapping with sources, facts, statuses, withdrawn_services, timeline"])
    problems: list[str] = []
    warnings: list[str] = []
    problems += unknown_sections(data, sorted({"pack", "sources", "facts", "statuses", "withdrawn_services",
                                               "timeline", "cards"}))
    boards = set(board_ids) | {ALL_BOARDS}
    info = (read_header(data["pack"], path, boards - {ALL_BOARDS}, intents, problems) if "pack" in data
            else legacy_header(path))
    topics = {t.id: t.intent for t in info.topics}
    pack = info.id

    def warn_missing_french(where: str, fr: dict | None, keys: tuple[str, ...]) -> None:
        missing = [k for k in keys if not (fr or {}).get(k)]
        if missing:
            warnings.append(f"{where}: no French text for {', '.join(missing)} (add fr: {{{missing[0]}: ...}})")

    def french(e: _Entry, keys: tuple[str, ...]) -> dict | None:
        fr = e.get("fr", _french_of(keys), required=False)
        warn_missing_french(e.where, fr, keys)
        return fr

    sources: dict[str, Source] = {}
    listed: set[str] = set()  # every source named under 'sources', its own fields right or not
    for where, raw in _entries(data, "sources", path, problems):
        e = _Entry(raw, where, problems)
        source = Source(
            file=e.get("file", _text),
            title=e.get("title", _text),
            published=e.get("published", _time),
            approximate=e.get("approximate", _bool, required=False, default=False),
            fr=french(e, ("title",)),
            pack=pack,
        )
        e.finish()
        if source.file in listed:
            e.fail(f"source {shown(source.file)} is listed twice")
        if source.file:
            listed.add(source.file)  # a wrong 'published' is its own one problem, not one more per entry citing it
        if source.file and source.published:
            sources[source.file] = source

    ids: dict[tuple[str, str], str] = {}  # (section, id): each section is its own table, so ids are unique in it

    def common(e: _Entry) -> tuple[str, str, datetime]:
        entry_id = e.get("id", _ident)
        section = e.where.split("[", 1)[0]
        if (section, entry_id) in ids:
            e.fail(f"id {shown(entry_id)} is used twice (also {ids[section, entry_id]})")
        elif entry_id:
            ids[section, entry_id] = e.where
        source = e.get("source", _text)
        if source and source not in listed:
            e.fail(f"source {shown(source)} is not listed under 'sources'")
        published = e.get("published", _time, required=False)
        if published is None and source in sources:
            published = sources[source].published
        return entry_id, source, published

    def window(e: _Entry) -> tuple[date | None, date | None]:
        start, until = e.get("from", _date, required=False), e.get("until", _date, required=False)
        if start and until and until < start:
            e.fail(f"'until' {until} is before 'from' {start}")
        return start, until

    facts = []
    for where, raw in _entries(data, "facts", path, problems, required=False):
        e = _Entry(raw, where, problems)
        entry_id, source, published = common(e)
        facts.append(Fact(entry_id, e.get("topic", _one_of((*FACT_TOPICS, *topics))), e.get("text", _text), source,
                          published, fr=french(e, ("text",)), pack=pack))
        e.finish()

    statuses = []
    for where, raw in _entries(data, "statuses", path, problems, required=False):
        e = _Entry(raw, where, problems)
        entry_id, source, published = common(e)
        board = e.get("board", _text)
        if board and board not in boards:
            e.fail(f"board {shown(board)} is not a board of any loaded region (nor 'all')")
        elif board and board != ALL_BOARDS and not info.concerns(board):  # the pack speaks only for its `boards:`
            warnings.append(f"{where}: board {shown(board)} is not one of the pack's boards (pack.boards): "
                            "this status will never be said; add the board there, or remove the status")
        if "from" not in e.raw:
            e.fail("'from' is missing")
        start, until = window(e)
        statuses.append(Status(entry_id, board, start, until, e.get("status", _one_of(sorted(info.status_ids()))),
                               e.get("summary", _text), source, published, fr=french(e, ("summary",)), pack=pack))
        e.finish()

    services = []
    phase_ids = [p.id for p in info.phases]
    for where, raw in _entries(data, "withdrawn_services", path, problems, required=False):
        e = _Entry(raw, where, problems)
        entry_id, source, published = common(e)
        start, until = window(e)
        ended = e.get("ended", _time, required=False)
        if ended is not None and published is not None and ended <= published:
            e.fail(f"'ended' {ended.isoformat()} is not after 'published' {published.isoformat()}")
        services.append(WithdrawnService(
            entry_id, e.get("workers", _text), e.get("service", _text), e.get("phase", _one_of(phase_ids)), source,
            published, ended, fr=french(e, ("workers", "service")), pack=pack, start=start, until=until))
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
                fr=french(e, ("text",)),
                pack=pack,
            )
        )
        e.finish()

    card_topics = {*intents, *topics, TAUGHT_TOPIC}  # staff: cards taught in chat (bot.admin.teaching)
    cards = [_card(e, common, boards, card_topics, pack) for e in
             (_Entry(raw, where, problems) for where, raw in _entries(data, "cards", path, problems, required=False))]
    card_ids = {card.id for card in cards}
    for card in cards:
        if card.replaces and card.replaces not in card_ids:
            problems.append(f"cards ({card.id}): 'replaces' names {shown(card.replaces)}, which is not a card in this file")
    cards = _inherit_phrasings(cards)
    for card in cards:
        warn_missing_french(f"cards ({card.id})", card.fr, ("question", "answer", *(("details",) if card.details else ())))
        outside = [b for b in card.boards if b in boards and not info.concerns(b)]
        if outside:  # as a status's: the pack answers only for its `boards:`
            warnings.append(f"cards ({card.id}): board(s) {', '.join(map(shown, outside))} not one of the pack's boards "
                            "(pack.boards), the boards it speaks for: add them there, or remove them from the card")

    if problems:
        raise LoadError(path, problems)
    return KnowledgeFile(
        path, tuple(sources.values()), tuple(facts), tuple(statuses), tuple(services), tuple(timeline), tuple(cards),
        pack=info, warnings=tuple(warnings),
    )


def _inherit_phrasings(cards: list[Card]) -> list[Card]:
    """A card that replaces another and lists no phrasings of its own is asked the same ways.

    "Is it over?" is asked alike on Sept 29 and on Oct 2: the later card of a chain
    takes the phrasings (English and French) of the card it replaces, so a pack's
    writer does not copy them, and the visible card is found by them.
    """
    by_id = {card.id: card for card in cards}

    def phrasings(card: Card, seen: frozenset[str] = frozenset()) -> tuple[tuple[str, ...], tuple[str, ...]]:
        own_fr = tuple((card.fr or {}).get("phrasings") or ())
        older = by_id.get(card.replaces) if card.replaces and card.replaces not in seen else None
        if older is None:
            return card.phrasings, own_fr
        english, french = phrasings(older, seen | {card.id})
        return card.phrasings or english, own_fr or french

    out = []
    for card in cards:
        english, french = phrasings(card)
        if english != card.phrasings or (french and not (card.fr or {}).get("phrasings")):
            fr = {**(card.fr or {}), "phrasings": french} if french else card.fr
            card = dataclasses.replace(card, phrasings=english, fr=fr)
        out.append(card)
    return out


CARD_FRENCH_FIELDS = ("question", "answer", "details", "phrasings")


def _card(e: _Entry, common: Callable[[_Entry], tuple[str, str, datetime]], boards: set[str], topics: set[str],
          pack: str) -> Card:
    """One entry of `cards:`, its problems collected in the entry's list."""
    entry_id, source, published = common(e)
    card_boards = e.get("boards", _strings, required=False, default=())
    for board in card_boards:
        if board not in boards or board == ALL_BOARDS:
            e.fail(f"board {shown(board)} is not a board of any loaded region (leave 'boards' out for every board)")
    valid_until = e.get("valid_until", _time, required=False)
    if valid_until is not None and published is not None and valid_until <= published:
        e.fail(f"'valid_until' {valid_until.isoformat()} is not after 'published' {published.isoformat()}")
    fr = e.get("fr", _french_texts, required=False)
    card = Card(
        entry_id,
        e.get("topic", _topic(topics)),
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
        pack=pack,
    )
    e.finish()
    return card


def _topic(topics: set[str]) -> Callable[[Any], str]:
    def convert(value: Any) -> str:
        topic = _ident(value)
        if topic not in topics:
            raise ValueError(f"{shown(topic)} is neither an intent nor a topic of the pack (pack.topics); "
                             f"known: {', '.join(sorted(topics))}")
        return topic

    return convert


def _french_of(keys: tuple[str, ...]) -> Callable[[Any], dict]:
    """The converter of an entry's `fr:` mapping holding French for `keys`."""
    def convert(value: Any) -> dict:
        if not isinstance(value, dict):
            raise ValueError(f"expected a mapping of French texts ({', '.join(keys)}), got {shown(value)}")
        unknown = sorted(set(map(str, value)) - set(keys))
        if unknown:
            raise ValueError(f"unknown French field(s) {', '.join(unknown)}; known: {', '.join(keys)}")
        return {key: (_strings(text) if key == "phrasings" else _text(text)) for key, text in value.items()}

    return convert


_french_texts = _french_of(CARD_FRENCH_FIELDS)  # a card's French: phrasings are a list
