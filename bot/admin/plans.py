"""Staff actions as plans: each action planned once as a typed value, previewed, confirmed, applied.

A plan says who acts (`actor`, a platform user id such as ``telegram:555``), for which board, when it
was planned (`at`, in the bot's time zone), and what changes: the new value and what was in force
before, or the recipients of a broadcast. It is frozen: chat (/confirm), the command line and a web
page build the same plan, render it with :func:`preview` and apply it through the same function.

The pending preview that /confirm reads stores a plan as :func:`dump` writes it (with a version
tag); /confirm rebuilds the typed plan with :func:`load`. A pending action written before plans
existed (a plain dict) is still read: `load` turns the kinds that are plans into their plan and
leaves the other kinds as the dict their apply function reads.

Kinds that are plans: ``broadcast`` (:mod:`bot.admin.broadcasting`), ``status``
(:mod:`bot.admin.statuses`), ``event`` and ``service`` (:mod:`bot.admin.knowledge_changes`). A kind registers its preview with :func:`previews`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from datetime import date, datetime
from typing import Any, ClassVar

PLAN_VERSION = 1

PREVIEW: dict[str, Callable[..., str]] = {}  # kind -> preview(plan, language, knowledge) -> text


@dataclass(frozen=True, slots=True)
class Plan:
    """What every plan holds: who acts, for which board (or ``all``), and when it was planned."""

    kind: ClassVar[str] = ""
    actor: str  # platform user id: "telegram:555", "cli:alice"
    board: str
    at: datetime

    @property
    def platform(self) -> str:
        return self.actor.split(":", 1)[0]

    @property
    def user_id(self) -> str:
        return self.actor.split(":", 1)[1]


@dataclass(frozen=True, slots=True)
class Audience:
    """Who a broadcast reaches at planning time: chats per platform and per language (each chat once)."""

    platforms: tuple[tuple[str, int], ...]
    languages: tuple[tuple[str, int], ...]

    @classmethod
    def of(cls, platforms: dict[str, int], languages: dict[str, int]) -> Audience:
        return cls(tuple(sorted(platforms.items())), tuple(sorted(languages.items())))

    @property
    def total(self) -> int:
        return sum(n for _, n in self.platforms)

    def speaking(self, language: str) -> int:
        return dict(self.languages).get(language, 0)

    def by_platform(self) -> str:
        """"console 1, telegram 1,200"."""
        return ", ".join(f"{platform} {n:,}" for platform, n in self.platforms)


@dataclass(frozen=True, slots=True)
class BroadcastPlan(Plan):
    """A broadcast: the author's text, exactly what recipients of each language get, and who they are."""

    kind: ClassVar[str] = "broadcast"
    body: str  # as the author wrote it (both languages, markers included)
    text: str  # what English-language recipients get
    text_fr: str  # what French-language recipients get
    written_in: tuple[str, ...]  # the languages the author wrote
    recipients: Audience
    named: str  # the board as the author named it ("tdsb", "peel"), for the preview's examples


@dataclass(frozen=True, slots=True)
class StatusPlan(Plan):
    """A board's status from `start` (until `until`, or further notice), and what was in force before."""

    kind: ClassVar[str] = "status"
    status: str
    start: date
    until: date | None
    note: str
    source: str  # the label parents see it cited with ("TDSB staff update")
    pack: str  # the pack staff changes go to
    before: dict | None  # the board's own status on `start` when planned (None: none, or all boards)

    @property
    def after(self) -> dict:
        return {"board": self.board, "status": self.status, "start": self.start.isoformat(),
                "until": self.until.isoformat() if self.until else None, "note": self.note}


@dataclass(frozen=True, slots=True)
class EventPlan(Plan):
    """A dated event on the timeline (talks, a deal, a strike notice...): nothing is in force before it."""

    kind: ClassVar[str] = "event"
    event: str  # the kind of event: "talks", "deal", ...
    day: date
    text: str
    source: str  # the label it is cited with

    @property
    def after(self) -> dict:
        return {"board": self.board, "kind": self.event, "day": self.day.isoformat(), "text": self.text}


@dataclass(frozen=True, slots=True)
class ServicePlan(Plan):
    """A service withdrawn in a phase of the dispute ("Custodians: no extra cleaning")."""

    kind: ClassVar[str] = "service"
    phase: str
    workers: str
    service: str
    source: str  # the label it is cited with
    pack: str  # the pack staff changes go to

    @property
    def after(self) -> dict:
        return {"board": self.board, "phase": self.phase, "workers": self.workers, "service": self.service}


PLANS: dict[str, type[Plan]] = {cls.kind: cls for cls in (BroadcastPlan, StatusPlan, EventPlan, ServicePlan)}


def previews(kind: str):
    """Register how a kind of plan is shown before it is confirmed."""
    def register(function):
        PREVIEW[kind] = function
        return function
    return register


def preview(plan: Plan, language: str, knowledge=None) -> str:
    """What staff are shown before they confirm `plan`, in `language`: the one rendering chat, the command line
    and a web page use. `knowledge` (the store's snapshot) is read by kinds that show what parents will be told."""
    return PREVIEW[plan.kind](plan, language, knowledge)


# -------------------------------------------------------------- stored form
def dump(plan: Plan) -> dict:
    """The plan as JSON-ready values, with its kind and the format's version."""
    values = {f.name: _out(getattr(plan, f.name)) for f in fields(plan)}
    return {"version": PLAN_VERSION, "kind": plan.kind, **values}


def _out(value: Any) -> Any:
    if isinstance(value, date | datetime):
        return value.isoformat()
    if isinstance(value, Audience):
        return asdict(value)
    if isinstance(value, tuple):
        return list(value)
    return value


_READ: dict[str, Callable[[Any], Any]] = {
    "at": datetime.fromisoformat,
    "start": date.fromisoformat,
    "day": date.fromisoformat,
    "until": lambda v: date.fromisoformat(v) if v else None,
    "written_in": tuple,
    "recipients": lambda v: Audience(tuple(map(tuple, v["platforms"])), tuple(map(tuple, v["languages"]))),
}


def load(stored: dict, *, actor: str, at: datetime) -> Plan | dict:
    """The typed plan a pending preview holds; a kind that is not a plan yet comes back as its dict.

    `actor` and `at` (the pending row's person and time) complete an action stored before plans existed."""
    if "version" in stored:
        if stored["version"] != PLAN_VERSION or stored["kind"] not in PLANS:
            raise ValueError(f"a stored plan this version cannot read: {stored.get('kind')} v{stored['version']}")
        cls = PLANS[stored["kind"]]
        return cls(**{f.name: _READ.get(f.name, _same)(stored[f.name]) for f in fields(cls)})
    if stored.get("kind") == "broadcast":
        return BroadcastPlan(actor, stored["board"], at, stored["body"], stored["text"],
                             stored.get("text_fr") or stored["text"], ("en",), Audience((), ()), stored["board"])
    if stored.get("kind") == "status":
        return StatusPlan(actor, stored["board"], at, stored["status"], date.fromisoformat(stored["start"]),
                          date.fromisoformat(stored["until"]) if stored["until"] else None, stored["note"], "", "",
                          None)
    if stored.get("kind") == "event":
        return EventPlan(actor, stored["board"], at, stored["event"], date.fromisoformat(stored["day"]),
                         stored["text"], "")
    if stored.get("kind") == "service":
        return ServicePlan(actor, stored["board"], at, stored["phase"], stored["workers"], stored["service"], "", "")
    return stored


def _same(value: Any) -> Any:
    return value
