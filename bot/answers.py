"""Composing answers from the knowledge, for one board, one date and one clock time.

Every answer is plain text, short, names its source and the time the news was
out, and says only what is known: a board that is "making a contingency plan"
is never reported as "open".
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from bot.dates import describe_day
from knowledge.model import Board, Fact, Status, TimelineEvent, WithdrawnService
from knowledge.snapshot import Knowledge

STATUS_WORDS = {
    "open": "open",
    "open_reduced_services": "open, with some services reduced",
    "closures_possible": "not decided yet: closures are possible",
    "closed": "closed",
    "unknown": "not confirmed",
}
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


def school_status(knowledge: Knowledge, board: Board, day: date, today: date, at: datetime) -> str:
    lines = []
    asked = day
    if day.weekday() >= 5:
        day = next_school_day(day)
        lines.append(
            f"{describe_day(asked, today)} is on the weekend, so there is no school. "
            f"The next school day is {describe_day(day, today)}."
        )
    own, general = knowledge.status_for(board.id, day, at)
    when = describe_day(day, today)
    if own is not None:
        lines.append(f"{board.name}, {when}: {STATUS_WORDS[own.status]}.")
        lines.append(own.summary)
        lines.append(cite(knowledge, own.source, own.published))
    else:
        lines.append(f"I have no confirmed information from {board.name} for {when}.")
        if general is not None:
            lines.append(f"Province-wide: {general.summary}")
            lines.append(cite(knowledge, general.source, general.published))
        lines.append(f"Check the board's website for its latest notice: {board.website}")
    upcoming = _next_strike_event(knowledge, at)
    if upcoming is not None and upcoming.day >= day - timedelta(days=7) and own is not None and own.status in ("open", "open_reduced_services"):
        lines.append(f"Note: {upcoming.text}")
    return "\n".join(lines)


def _next_strike_event(knowledge: Knowledge, at: datetime) -> TimelineEvent | None:
    today = at.date()
    for event in knowledge.events(at):
        if event.kind == "full_strike_start" and event.day > today:
            return event
    return None


def facts_answer(knowledge: Knowledge, topic: str, at: datetime, limit: int = 4) -> str | None:
    facts: list[Fact] = knowledge.facts_about(topic, at)
    if not facts:
        return None
    chosen = facts[-limit:] if len(facts) > limit else facts
    return "\n".join(f"- {f.text}" for f in chosen) + "\n" + cite_many(knowledge, chosen)


def strike_dates(knowledge: Knowledge, at: datetime) -> str | None:
    events = knowledge.events(at)
    if not events:
        return None
    today = at.date()
    past = [e for e in events if e.day <= today]
    future = [e for e in events if e.day > today]
    chosen = past[-3:] + future[:3]
    lines = ["Key dates so far:"]
    for event in chosen:
        approx = " (approximate)" if event.approximate else ""
        lines.append(f"- {event.day:%a %b} {event.day.day}{approx}: {event.text}")
    lines.append(cite_many(knowledge, chosen))
    return "\n".join(lines)


def withdrawn_services(knowledge: Knowledge, at: datetime, board: Board | None) -> str | None:
    services: list[WithdrawnService] = knowledge.services_withdrawn(at)
    if not services:
        return None
    by_phase: dict[str, list[WithdrawnService]] = {}
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


def updates_source(knowledge: Knowledge, at: datetime, board: Board | None) -> str:
    lines = []
    if board is not None:
        lines.append(f"{board.name} posts its official updates at {board.website}")
    facts = facts_answer(knowledge, "updates_source", at)
    if facts:
        lines.append(facts)
    if not lines:
        lines.append("Your school board's website is the official source; tell me your board and I'll give you its address.")
    return "\n".join(lines)


def status_label(status: Status) -> str:
    return STATUS_WORDS.get(status.status, status.status)
