"""The header of a knowledge pack: which dispute it is, who acts, its phases, its own words.

A pack is one dispute (docs/packs.md). Its `pack:` header is read here; the
entries (sources, facts, cards, statuses, services, timeline) by
knowledge.loading. A file without a header is a pack named after the file, with
the two phases of 2019, so files written before packs existed keep loading.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from knowledge import fields
from knowledge.model import ALL_BOARDS
from knowledge.pack_words import read_intent_examples, read_slang
from knowledge.reading import shown

# Status words every pack may use, in English and French.
BUILTIN_STATUSES: dict[str, tuple[str, str]] = {
    "open": ("open", "ouvert"),
    "open_reduced_services": ("open, with some services reduced", "ouvert, avec certains services réduits"),
    "closures_possible": ("not decided yet: closures are possible", "pas encore décidé : des fermetures sont possibles"),
    "closed": ("closed", "fermé"),
    "closed_for_in_person": ("closed to students for in-person classes", "fermé aux élèves pour les cours en personne"),
    "remote_learning": ("closed to students: learning is remote", "fermé aux élèves : l'apprentissage se fait à distance"),
    "unknown": ("not confirmed", "non confirmé"),
}
# The statuses under which children are in their school building.
IN_PERSON_STATUSES = frozenset({"open", "open_reduced_services"})


@dataclass(frozen=True, slots=True)
class Phase:
    id: str
    name: str  # the words parents see: "work-to-rule", "rotating strikes", "walkout"
    name_fr: str = ""
    start: date | None = None
    until: date | None = None
    stops: str = "some"  # "all": the workers stop work (a strike, a walkout); "some": some tasks (work-to-rule)

    def words(self, language: str = "en") -> str:
        """The phase as parents read it in `language` (English when it has no French name)."""
        return self.name_fr if language == "fr" and self.name_fr else self.name


@dataclass(frozen=True, slots=True)
class StatusWords:
    id: str
    words: str
    words_fr: str = ""


@dataclass(frozen=True, slots=True)
class PackTopic:
    id: str  # a card's topic
    intent: str  # the intent it counts as in `ask` and evaluation


@dataclass(frozen=True, slots=True)
class PackInfo:
    id: str
    title: str
    title_fr: str = ""
    region: str = ""
    boards: tuple[str, ...] = (ALL_BOARDS,)
    who: str = ""
    who_fr: str = ""
    started: date | None = None
    ended: datetime | None = None
    end_text: str = ""
    end_text_fr: str = ""
    phases: tuple[Phase, ...] = ()
    statuses: tuple[StatusWords, ...] = ()
    topics: tuple[PackTopic, ...] = ()
    examples: tuple[str, ...] = ()
    examples_fr: tuple[str, ...] = ()  # the same in French, for /help in French
    note: str = ""
    note_fr: str = ""
    intent_examples: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (intent, questions): knowledge.pack_words
    slang: tuple[tuple[str, str], ...] = ()  # (word parents type, the words it means)
    extra: dict = field(default_factory=dict, compare=False)  # reserved; never filled from the file

    def phase(self, phase_id: str) -> Phase | None:
        return next((p for p in self.phases if p.id == phase_id), None)

    def status_words(self, status: str, language: str = "en") -> str:
        """The words parents see for a status id, in the language asked (English when no French)."""
        for own in self.statuses:
            if own.id == status:
                return (own.words_fr if language == "fr" and own.words_fr else own.words)
        english, french = BUILTIN_STATUSES.get(status, (status.replace("_", " "), ""))
        return french if language == "fr" and french else english

    def status_ids(self) -> frozenset[str]:
        return frozenset(BUILTIN_STATUSES) | {s.id for s in self.statuses}

    def concerns(self, board_id: str | None) -> bool:
        return ALL_BOARDS in self.boards or board_id in self.boards


PHASE_STOPS = ("some", "all")  # what a phase stops: some tasks (work-to-rule), or all work (a strike, a walkout)

LEGACY_PHASES = (
    Phase("work_to_rule", "work-to-rule", "grève du zèle"),
    Phase("full_strike", "full strike", "grève générale", stops="all"),
)


def legacy_header(path: str | Path) -> PackInfo:
    """The header of a file written before packs: named after the file, with 2019's two phases."""
    stem = Path(path).name.removesuffix(".yaml").removesuffix(".yml")
    return PackInfo(id=stem, title=stem, phases=LEGACY_PHASES)


CONVERTERS = {"text": fields._text, "ident": fields._ident, "date": fields._date, "time": fields._time,
              "strings": fields._strings}
# Lengths staff texts may have: an example fits a /help line, a note one line of a reply.
LIMITS = {"examples": 80, "examples_fr": 90, "note": 200, "note_fr": 240, "end_text": 300, "end_text_fr": 360, "title": 120}
MAX_EXAMPLES = 8

HEADER_FIELDS = {
    "id", "title", "title_fr", "region", "boards", "who", "who_fr", "started", "ended", "end_text",
    "end_text_fr", "phases", "statuses", "topics", "examples", "examples_fr", "note", "note_fr", "intent_examples",
    "slang",
}


def read_header(raw: Any, path: str, board_ids: set[str], intents: tuple[str, ...], problems: list[str]) -> PackInfo:
    """Validate a `pack:` mapping; problems go to `problems` as 'pack.FIELD: what is wrong'.

    The field converters are the loader's (knowledge.fields), so every file error reads the same way.
    """
    if not isinstance(raw, dict):
        problems.append(f"pack: must be a mapping (id, title, phases, ...), got {type(raw).__name__}")
        return legacy_header(path)

    def get(key: str, kind: str, required: bool = False, where: str = "pack", source: dict = raw):
        value = source.get(key)
        if value is None:
            if required:
                problems.append(f"{where}: '{key}' is missing")
            return None
        try:
            return CONVERTERS[kind](value)
        except (TypeError, ValueError) as exc:
            problems.append(f"{where}.{key}: {exc}")
            return None

    for key in sorted(set(map(str, raw)) - HEADER_FIELDS):
        problems.append(f"pack: unknown field {shown(key)}; known: {', '.join(sorted(HEADER_FIELDS))}")
    boards: tuple[str, ...] = (ALL_BOARDS,)
    if raw.get("boards") not in (None, ALL_BOARDS):
        boards = get("boards", "strings") or ()
        for board in boards:
            if board not in board_ids:
                problems.append(f"pack.boards: {shown(board)} is not a board of any loaded region")
    phases = []
    for where, item in _mappings(raw, "phases", "id and name", {"id", "name", "name_fr", "from", "until", "stops"},
                                 problems):
        stops = item.get("stops", "some")
        if stops not in PHASE_STOPS:
            problems.append(f"{where}.stops: {shown(stops)} is not one of: {', '.join(PHASE_STOPS)}")
        phase = Phase(get("id", "ident", True, where, item) or "", get("name", "text", True, where, item) or "",
                      get("name_fr", "text", False, where, item) or "", get("from", "date", False, where, item),
                      get("until", "date", False, where, item), stops if stops in PHASE_STOPS else "some")
        if phase.start and phase.until and phase.until < phase.start:
            problems.append(f"{where}: 'until' {phase.until} is before 'from' {phase.start}")
        phases.append(phase)
    statuses = []
    for where, item in _mappings(raw, "statuses", "id and words", {"id", "words", "words_fr"}, problems):
        statuses.append(StatusWords(get("id", "ident", True, where, item) or "", get("words", "text", True, where, item) or "",
                                    get("words_fr", "text", False, where, item) or ""))
    topics = []
    for where, item in _mappings(raw, "topics", "id and intent", {"id", "intent"}, problems):
        intent = get("intent", "text", True, where, item)
        if intent and intent not in intents:
            problems.append(f"{where}.intent: {shown(intent)} is not an intent; known: {', '.join(intents)}")
        topics.append(PackTopic(get("id", "ident", True, where, item) or "", intent or "unknown"))
    for kind, items in (("phase", phases), ("status", statuses), ("topic", topics)):
        seen = set()
        for item in items:
            if item.id in seen:
                problems.append(f"pack: {kind} id {shown(item.id)} is used twice")
            seen.add(item.id)
    for key, limit in LIMITS.items():
        values = raw.get(key)
        for value in (values if isinstance(values, list) else [values]):
            if isinstance(value, str) and len(" ".join(value.split())) > limit:
                problems.append(f"pack.{key}: {len(' '.join(value.split()))} characters; at most {limit}")
    for key in ("examples", "examples_fr"):
        if isinstance(raw.get(key), list) and len(raw[key]) > MAX_EXAMPLES:
            problems.append(f"pack.{key}: {len(raw[key])} examples; at most {MAX_EXAMPLES}")
    started, ended = get("started", "date"), get("ended", "time")
    if started and ended and ended.date() < started:
        problems.append(f"pack.ended: {ended.isoformat()} is before 'started' {started}")
    return PackInfo(
        id=get("id", "ident", True) or legacy_header(path).id,
        title=get("title", "text", True) or "",
        title_fr=get("title_fr", "text") or "",
        region=get("region", "text") or "",
        boards=boards,
        who=get("who", "text") or "",
        who_fr=get("who_fr", "text") or "",
        started=started,
        ended=ended,
        end_text=get("end_text", "text") or "",
        end_text_fr=get("end_text_fr", "text") or "",
        phases=tuple(phases) or LEGACY_PHASES,
        statuses=tuple(statuses),
        topics=tuple(topics),
        examples=get("examples", "strings") or (),
        examples_fr=get("examples_fr", "strings") or (),
        note=get("note", "text") or "",
        note_fr=get("note_fr", "text") or "",
        intent_examples=read_intent_examples(raw.get("intent_examples"), intents, problems),
        slang=read_slang(raw.get("slang"), problems),
    )


def _mappings(raw: dict, section: str, needs: str, known: set[str], problems: list[str]) -> Iterator[tuple[str, dict]]:
    """(where, entry) for each mapping in a header list; any other entry, or unknown field, is a problem."""
    for index, item in enumerate(_list(raw.get(section), f"pack.{section}", problems)):
        where = f"pack.{section}[{index}]"
        if not isinstance(item, dict):
            problems.append(f"{where}: must be a mapping with {needs}")
            continue
        _no_extra(item, known, where, problems)
        yield where, item


def _list(value: Any, where: str, problems: list[str]) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        problems.append(f"{where}: must be a list")
        return []
    return value


def _no_extra(item: dict, known: set[str], where: str, problems: list[str]) -> None:
    extra = sorted(set(map(str, item)) - known)
    if extra:
        problems.append(f"{where}: unknown field(s) {', '.join(extra)}")


def header_to_json(info: PackInfo) -> dict:
    """A header as plain JSON values (the `packs` table keeps it so)."""
    data = asdict(info)
    data.pop("extra", None)
    for key in ("started", "ended"):
        data[key] = data[key].isoformat() if data[key] else None
    for phase in data["phases"]:
        phase["start"] = phase["start"].isoformat() if phase["start"] else None
        phase["until"] = phase["until"].isoformat() if phase["until"] else None
    return data


def header_from_json(data: dict) -> PackInfo:
    def day(text):
        return date.fromisoformat(text) if text else None

    return PackInfo(
        **{k: v for k, v in data.items() if k in ("id", "title", "title_fr", "region", "who", "who_fr", "end_text",
                                                   "end_text_fr", "note", "note_fr")},
        boards=tuple(data.get("boards") or (ALL_BOARDS,)),
        started=day(data.get("started")),
        ended=datetime.fromisoformat(data["ended"]) if data.get("ended") else None,
        phases=tuple(Phase(p["id"], p["name"], p.get("name_fr", ""), day(p.get("start")), day(p.get("until")),
                           p.get("stops", "some"))
                     for p in data.get("phases") or ()),
        statuses=tuple(StatusWords(**s) for s in data.get("statuses") or ()),
        topics=tuple(PackTopic(**t) for t in data.get("topics") or ()),
        examples=tuple(data.get("examples") or ()),
        examples_fr=tuple(data.get("examples_fr") or ()),
        intent_examples=tuple((intent, tuple(texts)) for intent, texts in data.get("intent_examples") or ()),
        slang=tuple((word, means) for word, means in data.get("slang") or ()),
    )


def header_to_yaml(info: PackInfo) -> dict:
    """A header as the `pack:` mapping of a file (for `kb export`), empty fields left out."""
    data = header_to_json(info)
    out: dict = {}
    for key in ("id", "title", "title_fr", "region", "boards", "who", "who_fr", "started", "ended", "end_text",
                "end_text_fr"):
        value = data.get(key)
        if key == "boards":
            value = ALL_BOARDS if list(value) == [ALL_BOARDS] else list(value)
        if value:
            out[key] = value
    out["phases"] = [{k: v for k, v in (("id", p["id"]), ("name", p["name"]), ("name_fr", p["name_fr"]),
                                        ("from", p["start"]), ("until", p["until"]),
                                        ("stops", p["stops"] if p["stops"] != "some" else "")) if v}
                     for p in data["phases"]]
    for key in ("statuses", "topics"):
        if data[key]:
            out[key] = [{k: v for k, v in item.items() if v} for item in data[key]]
    for key in ("examples", "examples_fr", "note", "note_fr"):
        if data.get(key):
            out[key] = list(data[key]) if key.startswith("examples") else data[key]
    if info.intent_examples:
        out["intent_examples"] = {intent: list(texts) for intent, texts in info.intent_examples}
    if info.slang:
        out["slang"] = dict(info.slang)
    return out
