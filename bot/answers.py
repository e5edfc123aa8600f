"""Composing answers from the knowledge, for one board, one date and one clock time.

Every answer is plain text, answers first (bot/replies.py), names its source
and the time the news was out, and says only what is known: a board that is
"making a contingency plan" is never reported as "open". Most answers come in
two lengths: the short one, and the full one (``full=True``) for "more" or a
question that asks for the whole list.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache

from bot.dates import describe_day
from bot.replies import first_sentence, sentences, shape
from bot.text import normalize
from knowledge.model import ALL_BOARDS, Board, Card, Fact, Status, TimelineEvent, WithdrawnService
from knowledge.snapshot import Knowledge

STATUS_WORDS = {
    "open": "open",
    "open_reduced_services": "open, with some services reduced",
    "closures_possible": "not decided yet: closures are possible",
    "closed": "closed",
    "unknown": "not confirmed",
}
SUPPORT_CHARS = 140  # supporting lines beyond the first are kept while they fit in this
WORKERS_NOTE = "Teachers are not part of this job action; it involves CUPE education workers."


def when_published(moment: datetime) -> str:
    """'Oct 2, 2019, 8:00 p.m.' in the moment's own offset (Toronto time in the data)."""
    hour = moment.hour % 12 or 12
    minutes = f":{moment.minute:02d}"
    half = "a.m." if moment.hour < 12 else "p.m."
    return f"{moment:%b} {moment.day}, {moment.year}, {hour}{minutes} {half}"


def cite(knowledge: Knowledge, source: str, published: datetime) -> str:
    source_info = knowledge.sources.get(source)
    approx = " (date approximate)" if source_info is not None and source_info.approximate else ""
    return _sentence(f"Source: {source}, as of {when_published(published)}{approx}")


def cite_many(knowledge: Knowledge, entries: list) -> str:
    """One 'Sources:' line for several entries, newest as-of time."""
    files = []
    for entry in entries:
        if entry.source not in files:
            files.append(entry.source)
    newest = max(e.published for e in entries)
    label = "Source" if len(files) == 1 else "Sources"
    return _sentence(f"{label}: {', '.join(files)}; as of {when_published(newest)}")


def _sentence(text: str) -> str:
    return text if text.endswith(".") else text + "."


def next_school_day(day: date) -> date:
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def school_status(knowledge: Knowledge, board: Board, day: date, today: date, at: datetime, *, full: bool = False) -> str:
    lines = []
    asked = day
    if day.weekday() >= 5:
        day = next_school_day(day)
        lines.append(
            f"{_capital(describe_day(asked, today))} is on the weekend, so there is no school. "
            f"The next school day is {describe_day(day, today)}."
        )
    own, general = knowledge.status_for(board.id, day, at)
    when = describe_day(day, today)
    if own is not None:
        lines.append(f"{board.name}, {when}: {STATUS_WORDS[own.status]}.")
        # A board's own staff update is its official word: shown whole. A news summary: its first sentence.
        lines.append(own.summary if full or own.author else first_sentence(own.summary))
        upcoming = _next_strike_event(knowledge, at)
        if upcoming is not None and upcoming.day >= day - timedelta(days=7) and own.status in ("open", "open_reduced_services"):
            lines.append(f"Note: {upcoming.text}")
        lines.append(cite(knowledge, own.source, own.published))
    else:
        lines.append(f"I have no confirmed information from {board.name} for {when}.")
        if general is not None:
            lines.append(f"Province-wide: {general.summary if full else first_sentence(general.summary)}")
        lines.append(f"Its latest notices: {board.website}")
        if general is not None:
            lines.append(cite(knowledge, general.source, general.published))
    return "\n".join(lines)


def province_picture(knowledge: Knowledge, day: date, today: date, at: datetime) -> str:
    """A day across boards when no board is known, asking for the board in the same reply.

    The first line gives the province-wide status and asks which board (and why),
    so a phone's preview holds both; then the news behind it and what boards said.
    """
    day = next_school_day(day)
    when = describe_day(day, today)
    lines = []
    said: dict[str, list[str]] = {}
    for board_id in sorted(knowledge.boards_with_status(at) - {ALL_BOARDS}):
        board = knowledge.board(board_id)
        own, _ = knowledge.status_for(board_id, day, at)
        if board is not None and own is not None:
            said.setdefault(STATUS_WORDS[own.status], []).append(board.name)
    _, general = knowledge.status_for("", day, at)
    ask = f"Which board is your child's? I'll tell you what it said about {when}."
    if general is not None:
        lines.append(f"{_capital(when)}, province-wide: {STATUS_WORDS[general.status]}; it depends on the board. {ask}")
        lines.append(first_sentence(general.summary))
    else:
        lines.append(f"I have no province-wide news for {when}; it depends on the board. {ask}")
    if said:
        parts = [f"{', '.join(names)}: {word}" for word, names in said.items()]
        lines.append("Boards that said something: " + "; ".join(parts) + ".")
    if general is not None:
        lines.append(cite(knowledge, general.source, general.published))
    return "\n".join(lines)


def why_status(knowledge: Knowledge, board: Board | None, day: date, at: datetime) -> str | None:
    """The reasons behind a day's status: the board's whole summary and the province-wide news."""
    own, general = knowledge.status_for(board.id if board else "", next_school_day(day), at)
    if own is None and general is None:
        return None
    texts = [s.summary for s in (own, general) if s is not None]
    used = [s for s in (own, general) if s is not None]
    return "\n".join([*texts, cite_many(knowledge, used)])


def confirmed_status(knowledge: Knowledge, board: Board | None, day: date, today: date, at: datetime) -> str:
    """Whether the status given for a board and a day is a board's confirmed word."""
    day = next_school_day(day)
    when = describe_day(day, today)
    own, general = knowledge.status_for(board.id if board else "", day, at)
    if board is not None and own is not None:
        if own.status in ("open", "closed"):
            lead = f"Yes: {board.name} said it is {STATUS_WORDS[own.status]} {when}."
        else:
            lead = f"No: {board.name} has not confirmed anything final for {when}; it said: {STATUS_WORDS[own.status]}."
        return shape(lead, [f"That is as of {when_published(own.published)}; watch {board.website} for changes."],
                     cite(knowledge, own.source, own.published))
    name = board.name if board else "your board"
    lead = f"No: I have no confirmed information from {name} for {when}."
    support = [f"Province-wide: {STATUS_WORDS[general.status]}. {first_sentence(general.summary)}"] if general else []
    if board is not None:
        support.append(f"Check the board's website: {board.website}")
    return shape(lead, support)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _next_strike_event(knowledge: Knowledge, at: datetime) -> TimelineEvent | None:
    today = at.date()
    for event in knowledge.events(at):
        if event.kind == "full_strike_start" and event.day > today:
            return event
    return None


# ---------------------------------------------------------------- the one item asked about
_STOP = frozenset(
    ["a", "an", "the", "is", "are", "was", "were", "be", "do", "does", "did", "to", "of", "in", "on", "at", "for", "and", "or", "it", "its", "this", "that", "there", "their", "they", "we", "i", "my", "our", "what", "whats", "when", "who", "why", "how", "which", "will", "would", "can", "could", "should", "any", "anything", "about", "with", "from", "by", "as", "if", "so", "not", "school", "schools", "kid", "kids", "child", "children", "still", "too", "also"]
)
_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=4096)
def words_of(text: str) -> frozenset[str]:
    """The content words of a text, cut to five letters so "custodians" meets "custodial"."""
    return frozenset(w[:5] for w in _WORD.findall(normalize(text)) if w not in _STOP and len(w) > 1)


def _overlap(asked: set[str], text: str) -> int:
    return len(asked & words_of(text))


_NEWEST_FIRST = frozenset({"negotiations", "childcare", "updates_source", "strike_dates"})


def facts_answer(knowledge: Knowledge, topic: str, at: datetime, question: str = "", *, full: bool = False) -> str | None:
    """The fact that answers the question first, one supporting line, the source; full: up to six facts."""
    facts: list[Fact] = knowledge.facts_about(topic, at)
    if not facts:
        return None
    if full:
        chosen = facts[-6:]
        return "\n".join(f"- {f.text}" for f in chosen) + "\n" + cite_many(knowledge, chosen)
    asked = words_of(question)
    order = list(reversed(facts)) if topic in _NEWEST_FIRST else facts
    best = max(order, key=lambda f: _overlap(asked, f.text))  # ties: the first in `order`
    parts = sentences(best.text)
    support = [p for p in parts[1:2] if len(p) <= SUPPORT_CHARS]
    return shape(parts[0] if parts else best.text, support, cite(knowledge, best.source, best.published))


# Topics where a newer timeline event (a deal, a strike called off) may overtake a card's answer.
_NEWS_TOPICS = frozenset({"strike_dates", "negotiations", "school_status"})


def card_answer(knowledge: Knowledge, card: Card, at: datetime | None = None, *, full: bool = False) -> str:
    """A card's answer, its details (at most two sentences unless full), its source.

    On the topics the news moves (dates, talks, status), a timeline event
    published after the card comes first: the card's answer may be overtaken.
    """
    if at is not None and card.topic in _NEWS_TOPICS:
        newer = [e for e in knowledge.events(at) if e.published > card.published]
        if newer:
            latest = max(newer, key=lambda e: e.published)
            return shape(f"Latest: {latest.day:%a %b} {latest.day.day}: {latest.text}",
                         [f"Earlier ({when_published(card.published)}): {card.answer}"],
                         cite_many(knowledge, [latest, card]))
    details = sentences(card.details)
    if full:
        support = [" ".join(details)]
    else:  # the first detail, and the second only while the reply stays short
        support = details[:1] + [d for d in details[1:2] if len(details[0]) + len(d) <= SUPPORT_CHARS]
    return shape(card.answer, support, cite(knowledge, card.source, card.published))


_LIST_WORDS = frozenset({"list", "all", "every", "everything", "complete", "which", "dates", "timeline"})


def asks_for_list(question: str) -> bool:
    """Whether the question asks for the whole list: "list the dates", "what services stopped?"."""
    words = set(_WORD.findall(normalize(question)))
    return bool(words & _LIST_WORDS) or bool(words & {"what", "which"} and words & {"services", "things"})


def strike_dates(knowledge: Knowledge, at: datetime, question: str = "", *, full: bool = False) -> str | None:
    events = knowledge.events(at)
    if not events:
        return None
    today = at.date()
    past = [e for e in events if e.day <= today]
    future = [e for e in events if e.day > today]
    if full or asks_for_list(question):
        chosen = past[-3:] + future[:3]
        lines = ["Key dates so far:"]
        lines += [_event_line(event) for event in chosen]
        lines.append(cite_many(knowledge, chosen))
        return "\n".join(lines)
    asked = words_of(question)
    candidates = future + list(reversed(past))  # the next event first, then the latest
    best = max(candidates, key=lambda e: _overlap(asked, e.text))
    latest = max(events, key=lambda e: e.published)
    if latest.published > best.published:  # newer news (a deal, a strike called off) comes first
        best = latest
    others = [e for e in future if e is not best][:1] or [e for e in reversed(past) if e is not best][:1]
    lead = f"{best.day:%a %b} {best.day.day}: {best.text}"
    support = [("Next: " if others[0].day > today else "Before that: ") + _event_line(others[0])[2:]] if others else []
    return shape(lead, support, cite_many(knowledge, [best, *others]))


def _event_line(event: TimelineEvent) -> str:
    approx = " (approximate)" if event.approximate else ""
    return f"- {event.day:%a %b} {event.day.day}{approx}: {event.text}"


# Words every service question has: they do not say which service is asked about.
_GENERIC = words_of(
    "services service stopped stop stopping work working workers worker cupe education strike striking withdrawn "
    "pulled job action happening running doing done going cut cuts affected changes change tasks else other"
)
_PHASE_WORDS = {"work_to_rule": "During work-to-rule", "full_strike": "In a full strike"}


def withdrawn_services(knowledge: Knowledge, at: datetime, board: Board | None, question: str = "", *, full: bool = False) -> str | None:
    services: list[WithdrawnService] = knowledge.services_withdrawn(at)
    if not services:
        return None
    asked = words_of(question)
    asked -= _GENERIC
    named = [s for s in services if _overlap(asked, f"{s.workers} {s.service}")]
    if named and not full:  # "are the custodians still cleaning?": the items asked about
        named.sort(key=lambda s: -_overlap(asked, f"{s.workers} {s.service}"))
        first, *more = named[:3]
        lead = f"{_PHASE_WORDS[first.phase]}, {first.workers} stopped {first.service}."
        support = [f"Also: {s.workers}: {s.service}." for s in more]
        return shape(lead, support, cite_many(knowledge, named[:3]))
    if not full and not asks_for_list(question):
        by_phase: dict[str, list[WithdrawnService]] = {}
        for service in services:
            by_phase.setdefault(service.phase, []).append(service)
        lines = []
        if "work_to_rule" in by_phase:
            latest = by_phase["work_to_rule"][-3:]
            lines.append(
                "During work-to-rule, schools stay open but workers stopped some tasks, for example: "
                + "; ".join(f"{s.workers}: {s.service}" for s in latest) + "."
            )
        if "full_strike" in by_phase:
            lines.append(f"In a full strike: {by_phase['full_strike'][0].service}.")
        lines.append("Send \"more\" for the full list.")
        return shape(lines[0], lines[1:], cite_many(knowledge, services))
    by_phase = {}
    for service in services:
        by_phase.setdefault(service.phase, []).append(service)
    lines = []
    titles = {"work_to_rule": "During work-to-rule, workers have stopped:", "full_strike": "In a full strike:"}
    for phase in ("work_to_rule", "full_strike"):
        if phase in by_phase:
            lines.append(titles[phase])
            lines.extend(_by_workers(by_phase[phase]))
    ended = knowledge.services_ended(at)
    if ended:
        lines.append("Back to normal:")
        lines.extend(_by_workers(ended))
    if board is not None:
        lines.append(f"Your board may add details: {board.website}")
    lines.append(cite_many(knowledge, services))
    return "\n".join(lines)


def _by_workers(services: list[WithdrawnService]) -> list[str]:
    """One line per group of workers: '- custodians: sweeping hallways; cutting grass'."""
    groups: dict[str, list[str]] = {}
    for service in services:
        groups.setdefault(service.workers, []).append(service.service)
    return [f"- {workers}: {'; '.join(items)}" for workers, items in groups.items()]


def updates_source(knowledge: Knowledge, at: datetime, board: Board | None, question: str = "", *, full: bool = False) -> str:
    lines = []
    if board is not None:
        lines.append(f"{board.name} posts its official updates at {board.website}")
    facts = facts_answer(knowledge, "updates_source", at, question, full=full)
    if facts:
        lines.append(facts)
    if not lines:
        lines.append("Your school board's website is the official source; tell me your board and I'll give you its address.")
    return "\n".join(lines)


def status_label(status: Status) -> str:
    return STATUS_WORDS.get(status.status, status.status)
