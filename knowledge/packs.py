"""The header of a knowledge pack: which dispute it is, who acts, its phases, its own words.

A pack is one dispute (docs/packs.md). Its `pack:` header is read here; the
entries (sources, facts, cards, statuses, services, timeline) by
knowledge.loading. A file without a header is a pack named after the file, with
the two phases of 2019, so files written before packs existed keep loading.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from knowledge import fields
from knowledge.fields import Entry
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


# Lengths staff texts may have: an example fits a /help line, a note one line of a reply.
LIMITS = {"examples": 80, "examples_fr": 90, "note": 200, "note_fr": 240, "end_text": 300, "end_text_fr": 360, "title": 120}
MAX_EXAMPLES = 8

HEADER_FIELDS = {
    "id", "title", "title_fr", "region", "boards", "who", "who_fr", "started", "ended", "end_text",
    "end_text_fr", "phases", "statuses", "topics", "examples", "examples_fr", "note", "note_fr", "intent_examples",
    "slang",
}


def _limited(key: str) -> fields.Convert:
    """Text of at most LIMITS[key] characters."""
    def convert(value: Any) -> str:
        found = fields.text(value)
        if len(found) > LIMITS[key]:
            raise ValueError(f"{len(found)} characters; at most {LIMITS[key]}")
        return found

    return convert if key in LIMITS else fields.text


def _examples(key: str) -> fields.Convert:
    """At most MAX_EXAMPLES example questions, each within its length."""
    def convert(value: Any) -> tuple[str, ...]:
        found = fields.strings(value, _limited(key))
        if len(found) > MAX_EXAMPLES:
            raise ValueError(f"{len(found)} examples; at most {MAX_EXAMPLES}")
        return found

    return convert


def _intent(intents: tuple[str, ...]) -> fields.Convert:
    def convert(value: Any) -> str:
        if value not in intents:
            raise ValueError(f"{shown(value)} is not an intent; known: {', '.join(intents)}")
        return value

    return convert


def read_header(raw: Any, path: str, board_ids: set[str], intents: tuple[str, ...], problems: list[str]) -> PackInfo:
    """Validate a `pack:` mapping; problems go to `problems` as 'pack: 'FIELD': what is wrong' (knowledge.fields)."""
    e = Entry(raw, "pack", problems, needs="fields (id, title, phases, ...)")
    if not isinstance(raw, dict):
        return legacy_header(path)
    boards: tuple[str, ...] = (ALL_BOARDS,)
    if raw.get("boards") == ALL_BOARDS:
        e.used.add("boards")
    elif (listed := e.get("boards", fields.strings, required=False)) is not None:
        boards = listed
        for board in listed:
            if board not in board_ids:
                e.fail(f"'boards': {shown(board)} is not a board of any loaded region")
    phases = []
    for where, item in fields.entries(raw, "phases", problems, required=False, where="pack.phases"):
        p = Entry(item, where, problems, needs="fields (id and name, ...)")
        phase = Phase(p.get("id", fields.ident) or "", p.get("name", fields.text) or "",
                      p.get("name_fr", fields.text, required=False, default=""),
                      p.get("from", fields.day, required=False), p.get("until", fields.day, required=False),
                      p.get("stops", fields.one_of(PHASE_STOPS), required=False, default="some"))
        if phase.start and phase.until and phase.until < phase.start:
            p.fail(f"'until' {phase.until} is before 'from' {phase.start}")
        p.finish()
        phases.append(phase)
    statuses = []
    for where, item in fields.entries(raw, "statuses", problems, required=False, where="pack.statuses"):
        st = Entry(item, where, problems, needs="fields (id and words, ...)")
        statuses.append(StatusWords(st.get("id", fields.ident) or "", st.get("words", fields.text) or "",
                                    st.get("words_fr", fields.text, required=False, default="")))
        st.finish()
    topics = []
    for where, item in fields.entries(raw, "topics", problems, required=False, where="pack.topics"):
        t = Entry(item, where, problems, needs="fields (id and intent)")
        topics.append(PackTopic(t.get("id", fields.ident) or "", t.get("intent", _intent(intents)) or "unknown"))
        t.finish()
    for kind, items in (("phase", phases), ("status", statuses), ("topic", topics)):
        seen = set()
        for item in items:
            if item.id in seen:
                e.fail(f"{kind} id {shown(item.id)} is used twice")
            seen.add(item.id)
    started, ended = e.get("started", fields.day, required=False), e.get("ended", fields.moment, required=False)
    if started and ended and ended.date() < started:
        e.fail(f"'ended' {ended.isoformat()} is before 'started' {started}")

    def words(key: str) -> str:
        return e.get(key, _limited(key), required=False, default="")

    info = PackInfo(
        id=e.get("id", fields.ident) or legacy_header(path).id,
        title=e.get("title", _limited("title")) or "",
        title_fr=words("title_fr"), region=words("region"), boards=boards, who=words("who"), who_fr=words("who_fr"),
        started=started, ended=ended, end_text=words("end_text"), end_text_fr=words("end_text_fr"),
        phases=tuple(phases) or LEGACY_PHASES, statuses=tuple(statuses), topics=tuple(topics),
        examples=e.get("examples", _examples("examples"), required=False, default=()),
        examples_fr=e.get("examples_fr", _examples("examples_fr"), required=False, default=()),
        note=words("note"), note_fr=words("note_fr"),
        intent_examples=read_intent_examples(raw, intents, problems),
        slang=read_slang(raw, problems),
    )
    e.finish(HEADER_FIELDS)
    return info


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
