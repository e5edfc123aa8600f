"""The knowledge model: plain dataclasses for what the bot knows and when it was published."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

# Built-in status ids (their words: knowledge.packs.BUILTIN_STATUSES); a pack may name more.
STATUSES = ("open", "open_reduced_services", "closures_possible", "closed", "closed_for_in_person", "remote_learning",
            "unknown")
SYSTEMS = ("public", "catholic")
LANGUAGES = ("english", "french")
PHASES = ("work_to_rule", "full_strike")  # of a file without a `pack:` header
FACT_TOPICS = (
    "who_is_affected",
    "dispute_issues",
    "negotiations",
    "work_to_rule",
    "updates_source",
    "childcare",
    "strike_dates",
)
TIMELINE_KINDS = (
    "strike_vote",
    "no_board_report",
    "legal_strike_position",
    "work_to_rule_start",
    "strike_notice",
    "full_strike_start",
    "bargaining",
    "deal",
    "called_off",
    "law_passed",
    "law_repealed",
    "schools_closed",
    "schools_reopen",
    "return_to_work",
    "other",
)
# The intents a pack's topics may map onto (the stable contract of `ask`; config/intents.yaml names them).
ANSWER_INTENTS = ("school_status", "strike_dates", "withdrawn_services", "childcare", "negotiations",
                  "who_is_affected", "dispute_issues", "work_to_rule", "updates_source", "unknown")
# The topic of a card taught in chat (/teach) whose question fits none of the answer intents. A card's
# topic is an answer intent, a topic of its pack, or this: what the database holds, `kb export` writes
# and `kb load` reads back alike, so a pack exported with taught cards loads again.
TAUGHT_TOPIC = "staff"
ALL_BOARDS = "all"


def card_topic(topic: str, pack_topics: Iterable[str] = ()) -> str:
    """`topic` if a card may have it in a pack with these own topics, else :data:`TAUGHT_TOPIC`."""
    return topic if topic in ANSWER_INTENTS or topic == TAUGHT_TOPIC or topic in pack_topics else TAUGHT_TOPIC


@dataclass(frozen=True, slots=True)
class Board:
    id: str
    name: str
    system: str
    language: str
    website: str
    aliases: tuple[str, ...] = ()
    municipalities: tuple[str, ...] = ()
    short: str = ""  # the name replies lead with ("TDSB", "CEPEO"); empty: the full name

    @property
    def display(self) -> str:
        """The name a reply's first line uses: the short name, else the full name."""
        return self.short or self.name


@dataclass(frozen=True, slots=True)
class Source:
    file: str
    title: str
    published: datetime
    approximate: bool = False
    fr: dict | None = None  # French texts: title
    pack: str = ""  # the pack (dispute) it belongs to


@dataclass(frozen=True, slots=True)
class Fact:
    id: str
    topic: str  # an intent; a pack's own topic is read back as the intent it maps onto
    text: str
    source: str
    published: datetime
    fr: dict | None = None  # French texts: text
    pack: str = ""
    pack_topic: str = ""  # the pack's own topic as written ("bill_28"), "" when it is an intent


@dataclass(frozen=True, slots=True)
class Status:
    id: str
    board: str  # a board id or ALL_BOARDS
    start: date
    until: date | None
    status: str
    summary: str
    source: str
    published: datetime
    author: str = ""  # "" for loaded files; "platform:user_id" for staff updates
    retracted: datetime | None = None  # undone by staff at this time
    fr: dict | None = None  # French texts: summary
    pack: str = ""

    def covers(self, day: date) -> bool:
        return self.start <= day and (self.until is None or day <= self.until)


@dataclass(frozen=True, slots=True)
class WithdrawnService:
    id: str
    workers: str
    service: str
    phase: str
    source: str
    published: datetime
    ended: datetime | None = None  # the service came back at this time
    author: str = ""
    retracted: datetime | None = None
    fr: dict | None = None  # French texts: workers, service
    pack: str = ""
    start: date | None = None  # optional validity window (dates, inclusive)
    until: date | None = None

    def covers(self, day: date) -> bool:
        return (self.start is None or self.start <= day) and (self.until is None or day <= self.until)


@dataclass(frozen=True, slots=True)
class TimelineEvent:
    id: str
    kind: str
    day: date
    text: str
    source: str
    published: datetime
    approximate: bool = False
    author: str = ""
    retracted: datetime | None = None
    fr: dict | None = None  # French texts: text
    pack: str = ""


@dataclass(frozen=True, slots=True)
class PackEnd:
    """A dispute's end stated by staff in chat (/enddispute): it overrides the pack header's `ended` and
    `end_text` from `published` on, until undone (`retracted`). `kb export PACK` writes it into the header."""

    id: str
    ended: datetime  # when the dispute ended
    text: str  # what parents are told first ("" = the standard sentence with the date)
    published: datetime
    author: str = ""
    retracted: datetime | None = None
    fr: dict | None = None  # French texts: text
    pack: str = ""


@dataclass(frozen=True, slots=True)
class Card:
    """One question parents ask, answered: the answer's first sentence answers it."""

    id: str
    topic: str  # an intent ("who_is_affected") or a topic the pack names
    question: str  # the question in a parent's words, shown when the bot offers a choice
    answer: str  # one sentence that answers first: yes / no / the date / the thing
    source: str
    published: datetime
    details: str = ""  # at most two short supporting sentences
    phrasings: tuple[str, ...] = ()  # how parents ask it, slang and typos included
    boards: tuple[str, ...] = ()  # the boards it is about; () = every board
    valid_until: datetime | None = None  # the answer stops being right at this time
    replaces: str = ""  # an older card this one supersedes from its published time
    fr: dict | None = None  # French texts: question, answer, details, phrasings
    author: str = ""  # "" for loaded files; "platform:user_id" for cards taught in chat
    retracted: datetime | None = None  # undone by staff at this time
    pack: str = ""
    pack_topic: str = ""  # the pack's own topic as written ("bill_28"), "" when `topic` is an intent

    def applies_to(self, board_id: str | None) -> bool:
        return not self.boards or board_id in self.boards


@dataclass(frozen=True, slots=True)
class KnowledgeFile:
    """Everything one validated knowledge file holds."""

    path: str
    sources: tuple[Source, ...]
    facts: tuple[Fact, ...]
    statuses: tuple[Status, ...]
    withdrawn_services: tuple[WithdrawnService, ...]
    timeline: tuple[TimelineEvent, ...]
    cards: tuple[Card, ...] = ()
    pack: object = None  # the knowledge.packs.PackInfo of its `pack:` header (or the legacy one)
    warnings: tuple[str, ...] = ()  # not errors: e.g. an entry without its French text
