"""An in-memory view of the knowledge with the queries answers need.

Every query takes ``at``, the clock time of the question: only entries
published at or before it count, so replaying 2019-10-03 never leaks later
news, and a staff update made today wins over an older one.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import replace
from datetime import date, datetime

from knowledge.model import (
    ALL_BOARDS,
    Board,
    Card,
    Fact,
    PackEnd,
    Source,
    Status,
    TimelineEvent,
    WithdrawnService,
)
from knowledge.regions import NOWHERE


def _visible(published: datetime, retracted: datetime | None, at: datetime) -> bool:
    return published <= at and (retracted is None or retracted > at)


_MISSING = object()
_last: tuple = (None, None)  # the time last turned into seconds, and its seconds


def instant(at: datetime) -> float | None:
    """`at` in seconds since the epoch (None for a time without a zone), kept for the next call.

    Aware times are ordered and equal exactly as these numbers are (a float keeps two
    microseconds apart until 2106), and comparing numbers is some twenty times quicker
    than comparing datetimes in a time zone; a question compares its time many times.
    """
    global _last
    last = _last
    if last[0] is at:
        return last[1]
    seconds = at.timestamp() if at.tzinfo is not None and at.utcoffset() is not None else None
    _last = (at, seconds)
    return seconds


class Moments:
    """Sorted times, and where a time falls among them: at one of them, or between two."""

    __slots__ = ("seconds", "times")

    def __init__(self, times) -> None:
        self.times = sorted(times)  # equal times kept, in the order given (a time's own zone shows when written)
        aware = all(t.tzinfo is not None and t.utcoffset() is not None for t in self.times)
        self.seconds = [t.timestamp() for t in self.times] if aware else None

    def after(self, at: datetime) -> int:
        """How many of the times are at or before `at` (bisect_right)."""
        seconds = self.seconds
        if seconds is not None:
            x = instant(at)
            if x is not None:
                return bisect_right(seconds, x)
        return bisect_right(self.times, at)

    def cell(self, at: datetime) -> tuple[int, int]:
        """Where `at` is: (bisect_left, bisect_right); any comparison of `at` with one of the times
        gives the same answer for every time in the same cell."""
        seconds = self.seconds
        if seconds is not None:
            x = instant(at)
            if x is not None:
                return bisect_left(seconds, x), bisect_right(seconds, x)
        return bisect_left(self.times, at), bisect_right(self.times, at)


# For each query: the entries it reads, and their times that decide what it finds at a time `at`
# (statuses also read the ends of disputes staff stated, and when those disputes ended).
_TIMES = {
    "events": (("timeline", ("published", "retracted")),),
    "statuses": (("statuses", ("published", "retracted")), ("pack_ends", ("published", "retracted", "ended")),
                 ("_headers", ("ended",))),
    "facts": (("facts", ("published",)),),
    "services": (("services", ("published", "retracted", "ended")),),
}


class Knowledge:
    def __init__(
        self,
        boards: list[Board],
        sources: list[Source],
        facts: list[Fact],
        statuses: list[Status],
        services: list[WithdrawnService],
        timeline: list[TimelineEvent],
        cards: list[Card] = (),
        packs: list = (),
        pack_ends: list[PackEnd] = (),
        regions: list = (),
    ):
        self.boards = {b.id: b for b in boards}
        self.sources = {s.file: s for s in sources}
        self.facts = facts
        self.statuses = statuses
        self.services = services
        self.timeline = timeline
        self.cards = list(cards)
        self.card_by_id = {c.id: c for c in self.cards}
        self.packs = {p.id: p for p in packs}  # the active packs' headers (knowledge.packs.PackInfo), in order
        self.pack_ends = list(pack_ends)  # ends of disputes stated in chat (see pack_at)
        # The active packs' regions (knowledge.regions.Region), in the packs' order: the first gives the time
        # zone, the default language and the words of prompts (NOWHERE when none is stored).
        self.regions = list(regions)
        self.region = regions[0] if regions else NOWHERE
        self.derived: dict = {}  # what answering derives from this snapshot once (bot.timeliness)
        # Answers to the queries below. What a query finds changes only at the times of its entries
        # (published, retracted, ended), so it is kept per span between two such times, not per `at`.
        self._moments: dict[str, Moments] = {}
        self._found: dict[tuple, object] = {}

    def _span(self, query: str, at: datetime) -> int:
        """Which span between the times that matter to `query` the time `at` falls in."""
        moments = self._moments.get(query)
        if moments is None:
            moments = self._moments[query] = Moments(
                t for entries, names in _TIMES[query] for e in getattr(self, entries)
                for t in (getattr(e, n) for n in names) if t is not None)
        return moments.after(at)

    def span(self, query: str, at: datetime) -> int:
        """Which span `at` falls in for a query ("events", "statuses", "facts", "services"): what it finds is
        the same anywhere in one span (for "services", on one calendar day)."""
        return self._span(query, at)

    @property
    def _headers(self) -> list:
        return list(self.packs.values())

    def _kept(self, key: tuple, find):
        found = self._found.get(key, _MISSING)
        if found is _MISSING:
            if len(self._found) >= 4096:
                self._found.clear()
            found = self._found[key] = find()
        return found

    def board(self, board_id: str | None) -> Board | None:
        return self.boards.get(board_id) if board_id else None

    @property
    def sole_board(self) -> Board | None:
        """The one board serving places that the active packs concern (a district's strike: Chicago Public Schools),
        which a question naming no board is about; None when the packs concern several, or every board."""
        if "sole_board" not in self.derived:
            packs = list(self.packs.values())
            named = {b for p in packs for b in p.boards}
            serving = [self.boards[b] for b in sorted(named) if b in self.boards and self.boards[b].municipalities]
            alone = packs and ALL_BOARDS not in named and len(serving) == 1
            self.derived["sole_board"] = serving[0] if alone else None
        return self.derived["sole_board"]

    def source_title(self, file: str) -> str:
        source = self.sources.get(file)
        return source.title if source else file

    def status_for(self, board_id: str, day: date, at: datetime) -> tuple[Status | None, Status | None]:
        return self._kept(("status", board_id, day, self._span("statuses", at)),
                          lambda: self._status_for(board_id, day, at))

    def _status_for(self, board_id: str, day: date, at: datetime) -> tuple[Status | None, Status | None]:
        """(the status that applies to the board on `day`, the latest province-wide one) as known at `at`.

        The newest applicable statement wins: the board's own latest one, unless a
        province-wide one covering the day is newer (then that one is the board's
        too); at equal times the board's own wins. Across disputes, a status without
        an end stops applying from the first day a newer statement of another active
        dispute speaks for the same board (or province-wide), even past that
        statement's own dates or its dispute's end. A statement said before its
        dispute ended does not speak for days after the end, and a dispute's
        statements say nothing for boards its pack does not concern.
        """
        spoken = [s for s in self.statuses if s.board in (board_id, ALL_BOARDS)
                  and _visible(s.published, s.retracted, at) and self._concerns(s, board_id)]
        own = general = stopped = None  # stopped: the board's newest word for the day that no longer applies
        for status in spoken:
            if not status.covers(day):
                continue
            if self._over(status, day, at) or _overtaken(status, spoken, day):
                if status.board == board_id and (stopped is None or status.published >= stopped.published):
                    stopped = status
            elif status.board == board_id:
                if own is None or status.published >= own.published:
                    own = status
            elif status.board == ALL_BOARDS and (general is None or status.published >= general.published):
                general = status
        said = own or stopped  # a newer province-wide statement is the board's word once its own stopped
        if general is not None and said is not None and general.published > said.published:
            own = general
        return own, general

    def _concerns(self, status: Status, board_id: str) -> bool:
        pack = self.packs.get(status.pack)
        return pack is None or not board_id or pack.concerns(board_id)

    def _over(self, status: Status, day: date, at: datetime) -> bool:
        """A status said before its dispute ended does not speak for days after the end, once the end is known."""
        pack = self.packs.get(status.pack)
        ended = self.pack_at(pack, at).ended if pack is not None else None
        return ended is not None and ended <= at and ended.date() < day and status.published < ended

    def pack_at(self, info, at: datetime | None = None):
        """A pack's header as known at `at` (None: with everything not undone): the newest end staff
        stated in chat (/enddispute) replaces the header's `ended` and `end_text`."""
        ends = [e for e in self.pack_ends if e.pack == info.id and (
            _visible(e.published, e.retracted, at) if at is not None else e.retracted is None)]
        if not ends:
            return info
        end = ends[-1]  # they are read in the order they were published, then made
        return replace(info, ended=end.ended, end_text=end.text, end_text_fr=(end.fr or {}).get("text", ""))

    def packs_at(self, at: datetime) -> list:
        """The active packs' headers as known at `at` (see pack_at), in order."""
        return [self.pack_at(info, at) for info in self.packs.values()]

    def boards_with_status(self, at: datetime) -> set[str]:
        return set(self._kept(("boards", self._span("statuses", at)), lambda: frozenset(
            s.board for s in self.statuses if _visible(s.published, s.retracted, at))))

    def facts_about(self, topic: str, at: datetime) -> list[Fact]:
        return list(self._kept(("facts", topic, self._span("facts", at)), lambda: tuple(
            f for f in self.facts if f.topic == topic and f.published <= at)))

    def services_withdrawn(self, at: datetime) -> list[WithdrawnService]:
        """Services stopped at `at`: published, not ended, and (with a window) not past its `until`."""
        return list(self._kept(("withdrawn", self._span("services", at), at.date()),
                               lambda: tuple(self._services_withdrawn(at))))

    def _services_withdrawn(self, at: datetime) -> list[WithdrawnService]:
        day = at.date()
        return [
            s for s in self.services
            if _visible(s.published, s.retracted, at) and (s.ended is None or s.ended > at)
            and (s.until is None or day <= s.until)
        ]

    def services_ended(self, at: datetime) -> list[WithdrawnService]:
        return list(self._kept(("ended", self._span("services", at), at.date()),
                               lambda: tuple(self._services_ended(at))))

    def _services_ended(self, at: datetime) -> list[WithdrawnService]:
        day = at.date()
        return [
            s for s in self.services
            if _visible(s.published, s.retracted, at)
            and ((s.ended is not None and s.ended <= at) or (s.until is not None and s.until < day))
        ]

    def pack_of(self, entry) -> object | None:
        """The header of the active pack an entry belongs to (None for an entry of no active pack)."""
        return self.packs.get(getattr(entry, "pack", ""))

    def live_card(self, card_id: str | None, at: datetime) -> str:
        """A card id a conversation remembers (a choice offered, the card that answered), if that card still
        answers at `at`; "" for one staff undid since, or that expired or is gone."""
        card = self.card_by_id.get(card_id) if card_id else None
        live = card is not None and _visible(card.published, card.retracted, at) and \
            (card.valid_until is None or at < card.valid_until)
        return card_id if live else ""

    def cards_at(self, at: datetime) -> list[Card]:
        """The cards that answer at `at`: published, not retracted, not expired, not replaced by a newer one."""
        published = [c for c in self.cards if _visible(c.published, c.retracted, at)]
        replaced = {c.replaces for c in published if c.replaces}  # stays replaced after its successor expires
        return [c for c in published if c.id not in replaced and (c.valid_until is None or at < c.valid_until)]

    def texts(self) -> tuple[str, ...]:
        """Every English text parents are answered from or asked with (cards, facts, services, timeline)."""
        fields = ("question", "answer", "details", "text", "workers", "service")
        found: list[str] = []
        for entry in (*self.cards, *self.facts, *self.services, *self.timeline):
            found.extend(value for value in (getattr(entry, name, None) for name in fields) if isinstance(value, str))
            found.extend(getattr(entry, "phrasings", ()))
        return tuple(text for text in found if text)

    def events(self, at: datetime) -> list[TimelineEvent]:
        return list(self._kept(("events", self._span("events", at)), lambda: tuple(
            e for e in self.timeline if _visible(e.published, e.retracted, at))))


def _overtaken(status: Status, spoken: list[Status], day: date) -> bool:
    """An open-ended status that a newer statement of another dispute spoke over by `day`."""
    return status.until is None and any(
        other.pack != status.pack and other.published > status.published and other.start <= day
        and (other.until is None or other.until >= status.start) for other in spoken)
