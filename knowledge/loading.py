"""Read and validate the YAML files in config/.

Each reader returns fully validated model objects or raises :class:`LoadError`
listing every problem as ``file: section[index] (id): what is wrong``, read the one
way every data file is (:mod:`knowledge.fields`). Nothing is written anywhere until a
whole file has passed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from datetime import date, datetime
from pathlib import Path
from typing import Any

from knowledge.fields import (
    Entry, day, entries, flag, ident, mapping_of, moment, one_of, refuse, sections, strings, text, url,
)
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
from knowledge.reading import LoadError, read_yaml, shown

__all__ = ["LoadError", "read_yaml", "load_boards", "read_boards", "load_knowledge"]


SHORT_NAME_MAX = 20  # what a reply's first line leads with must leave room for the answer


def _check_short(board: Board, e: Entry, owner: dict[str, str]) -> None:
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
    problems: list[str] = []
    sections(data, path, ["boards"], "a 'boards' list", problems)
    if "region" in data:
        problems = [f"it is a region file (it has 'region:'): load it with `schoolbot kb load {path}`"]
    refuse(path, problems)
    return read_boards(data, path)


def read_boards(data: dict, path: str) -> tuple[Board, ...]:
    """The validated `boards:` list of a boards or region file (raises LoadError naming each bad entry)."""
    problems: list[str] = []
    boards: list[Board] = []
    seen: dict[str, str] = {}
    alias_owner: dict[str, str] = {}
    short_owner: dict[str, str] = {}
    for where, raw in entries(data, "boards", problems):
        e = Entry(raw, where, problems)
        board = Board(
            id=e.get("id", ident),
            name=e.get("name", text),
            system=e.get("system", one_of(SYSTEMS)),
            language=e.get("language", one_of(LANGUAGES)),
            website=e.get("website", url),
            aliases=e.get("aliases", strings, required=False, default=()),
            municipalities=e.get("municipalities", strings, required=False, default=()),
            short=e.get("short", text, required=False, default=""),
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
    refuse(path, problems)
    for board in boards:
        if board.id in alias_owner and alias_owner[board.id] != board.id:
            problems.append(f"board {shown(board.id)}: its id is an alias of {shown(alias_owner[board.id])}")
    refuse(path, problems)
    return tuple(boards)


def load_knowledge(path: str | Path, board_ids: Iterable[str], intents: tuple[str, ...] = ANSWER_INTENTS) -> KnowledgeFile:
    """Validate one knowledge file (a pack) against the known boards and intents."""
    path = str(path)
    problems: list[str] = []
    warnings: list[str] = []
    data = sections(read_yaml(path), path, sorted({"pack", "sources", "facts", "statuses", "withdrawn_services",
                                                   "timeline", "cards"}),
                    "sources, facts, statuses, withdrawn_services, timeline", problems)
    boards = set(board_ids) | {ALL_BOARDS}
    info = (read_header(data["pack"], path, boards - {ALL_BOARDS}, intents, problems) if "pack" in data
            else legacy_header(path))
    topics = {t.id: t.intent for t in info.topics}
    pack = info.id

    def warn_missing_french(where: str, fr: dict | None, keys: tuple[str, ...]) -> None:
        missing = [k for k in keys if not (fr or {}).get(k)]
        if missing:
            warnings.append(f"{where}: no French text for {', '.join(missing)} (add fr: {{{missing[0]}: ...}})")

    def french(e: Entry, keys: tuple[str, ...]) -> dict | None:
        fr = e.get("fr", _french_of(keys), required=False)
        warn_missing_french(e.where, fr, keys)
        return fr

    sources: dict[str, Source] = {}
    listed: set[str] = set()  # every source named under 'sources', its own fields right or not
    for where, raw in entries(data, "sources", problems):
        e = Entry(raw, where, problems)
        source = Source(
            file=e.get("file", text),
            title=e.get("title", text),
            published=e.get("published", moment),
            approximate=e.get("approximate", flag, required=False, default=False),
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

    def common(e: Entry) -> tuple[str, str, datetime]:
        entry_id = e.get("id", ident)
        section = e.where.split("[", 1)[0]
        if (section, entry_id) in ids:
            e.fail(f"id {shown(entry_id)} is used twice (also {ids[section, entry_id]})")
        elif entry_id:
            ids[section, entry_id] = e.where
        source = e.get("source", text)
        if source and source not in listed:
            e.fail(f"source {shown(source)} is not listed under 'sources'")
        published = e.get("published", moment, required=False)
        if published is None and source in sources:
            published = sources[source].published
        return entry_id, source, published

    def window(e: Entry) -> tuple[date | None, date | None]:
        start, until = e.get("from", day, required=False), e.get("until", day, required=False)
        if start and until and until < start:
            e.fail(f"'until' {until} is before 'from' {start}")
        return start, until

    facts = []
    for where, raw in entries(data, "facts", problems, required=False):
        e = Entry(raw, where, problems)
        entry_id, source, published = common(e)
        facts.append(Fact(entry_id, e.get("topic", one_of((*FACT_TOPICS, *topics))), e.get("text", text), source,
                          published, fr=french(e, ("text",)), pack=pack))
        e.finish()

    statuses = []
    for where, raw in entries(data, "statuses", problems, required=False):
        e = Entry(raw, where, problems)
        entry_id, source, published = common(e)
        board = e.get("board", text)
        if board and board not in boards:
            e.fail(f"board {shown(board)} is not a board of any loaded region (nor 'all')")
        elif board and board != ALL_BOARDS and not info.concerns(board):  # the pack speaks only for its `boards:`
            warnings.append(f"{where}: board {shown(board)} is not one of the pack's boards (pack.boards): "
                            "this status will never be said; add the board there, or remove the status")
        if "from" not in e.raw:
            e.fail("'from' is missing")
        start, until = window(e)
        statuses.append(Status(entry_id, board, start, until, e.get("status", one_of(sorted(info.status_ids()))),
                               e.get("summary", text), source, published, fr=french(e, ("summary",)), pack=pack))
        e.finish()

    services = []
    phase_ids = [p.id for p in info.phases]
    for where, raw in entries(data, "withdrawn_services", problems, required=False):
        e = Entry(raw, where, problems)
        entry_id, source, published = common(e)
        start, until = window(e)
        ended = e.get("ended", moment, required=False)
        if ended is not None and published is not None and ended <= published:
            e.fail(f"'ended' {ended.isoformat()} is not after 'published' {published.isoformat()}")
        services.append(WithdrawnService(
            entry_id, e.get("workers", text), e.get("service", text), e.get("phase", one_of(phase_ids)), source,
            published, ended, fr=french(e, ("workers", "service")), pack=pack, start=start, until=until))
        e.finish()

    timeline = []
    for where, raw in entries(data, "timeline", problems, required=False):
        e = Entry(raw, where, problems)
        entry_id, source, published = common(e)
        timeline.append(
            TimelineEvent(
                entry_id,
                e.get("kind", one_of(TIMELINE_KINDS)),
                e.get("date", day),
                e.get("text", text),
                source,
                published,
                e.get("approximate", flag, required=False, default=False),
                fr=french(e, ("text",)),
                pack=pack,
            )
        )
        e.finish()

    card_topics = {*intents, *topics, TAUGHT_TOPIC}  # staff: cards taught in chat (bot.admin.teaching)
    cards = [_card(e, common, boards, card_topics, pack) for e in
             (Entry(raw, where, problems) for where, raw in entries(data, "cards", problems, required=False))]
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

    refuse(path, problems)
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


def _card(e: Entry, common: Callable[[Entry], tuple[str, str, datetime]], boards: set[str], topics: set[str],
          pack: str) -> Card:
    """One entry of `cards:`, its problems collected in the entry's list."""
    entry_id, source, published = common(e)
    card_boards = e.get("boards", strings, required=False, default=())
    for board in card_boards:
        if board not in boards or board == ALL_BOARDS:
            e.fail(f"board {shown(board)} is not a board of any loaded region (leave 'boards' out for every board)")
    valid_until = e.get("valid_until", moment, required=False)
    if valid_until is not None and published is not None and valid_until <= published:
        e.fail(f"'valid_until' {valid_until.isoformat()} is not after 'published' {published.isoformat()}")
    fr = e.get("fr", _french_texts, required=False)
    card = Card(
        entry_id,
        e.get("topic", _topic(topics)),
        e.get("question", text),
        e.get("answer", text),
        source,
        published,
        details=e.get("details", text, required=False, default=""),
        phrasings=e.get("phrasings", strings, required=False, default=()),
        boards=card_boards,
        valid_until=valid_until,
        replaces=e.get("replaces", ident, required=False, default=""),
        fr=fr,
        pack=pack,
    )
    e.finish()
    return card


def _topic(topics: set[str]) -> Callable[[Any], str]:
    def convert(value: Any) -> str:
        topic = ident(value)
        if topic not in topics:
            raise ValueError(f"{shown(topic)} is neither an intent nor a topic of the pack (pack.topics); "
                             f"known: {', '.join(sorted(topics))}")
        return topic

    return convert


def _french_of(keys: tuple[str, ...]) -> Callable[[Any], dict]:
    """The converter of an entry's `fr:` mapping holding French for `keys` (a card's phrasings: a list)."""
    return mapping_of(keys, {key: strings if key == "phrasings" else text for key in keys}, noun="French field")


_french_texts = _french_of(CARD_FRENCH_FIELDS)
