"""Answers in time and in their pack: how old the news is, whether a dispute is on, which dispute a fact is from.

Everything dispute-specific comes from the active packs' headers (knowledge.packs.PackInfo):
the status words, the phase names of headings, the status note, the help examples, the
ended-dispute line. :func:`frame` is the one hook after answering: it

* answers "no information about a job action right now" when no active pack covers the
  moment asked (the pack ended, or its newest news is more than `answers.coverage_days` old),
  naming the last dispute it knows of; never a 2019 status for a 2026 Monday;
* says first, in a status answer, how old its newest news is once older than
  `answers.stale_after_days` ("My latest news for Peel is from Oct 2, 2019, 5 days ago: ...");
* puts a dispute's end first ("The job action ended on ...; schools are open as usual.") and
  drops the notes of strikes to come once it has ended or a deal was announced;
* names the dispute of the facts when several packs are active.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from bot.dates.formatting import day_and_month, short_day
from bot.replies import say  # the wording catalog, read once and kept prepared
from knowledge.packs import PackInfo
from knowledge.snapshot import Moments

if TYPE_CHECKING:
    from bot.turn import Turn
    from knowledge.model import Board, TimelineEvent
    from knowledge.snapshot import Knowledge

# Intents whose answer is about what is happening now: old news there is no answer.
CURRENT_INTENTS = frozenset({"school_status", "withdrawn_services", "childcare"})
# With no dispute going on, these are answered by that alone: "are EAs on strike?", "is there a deal?"
# answered from a past dispute would read as current. Other answers follow, marked as from then.
_NOW_ONLY = CURRENT_INTENTS | {"who_is_affected", "strike_dates", "negotiations"}
# Timeline kinds after which no strike is to come.
SETTLED_KINDS = frozenset({"deal", "called_off", "return_to_work", "schools_reopen"})
_NO_PACK = PackInfo("", "")
# Planned events whose outcome is news (talks, a vote, a walkout); a legal strike position or the start of
# work-to-rule comes with the date itself.
_OUTCOME_KINDS = frozenset({"bargaining", "strike_vote", "full_strike_start"})
DAY_OVER_HOUR = 18  # from this hour, what was planned for the day (talks "on Friday afternoon") has happened
_PLANNED_TOPICS = frozenset({"negotiations", "strike_dates"})  # answers a planned date that has come can overtake


def day_text(day: date | datetime, language: str = "en") -> str:
    """'Oct 2, 2019' / '2 octobre 2019'."""
    if language == "fr":
        return f"{day_and_month(day, 'fr').split(' ', 1)[1]} {day.year}"
    return f"{day:%b} {day.day}, {day.year}"


# ------------------------------------------------------------------ pack words
def pack_of(knowledge: Knowledge, entry) -> PackInfo:
    return knowledge.packs.get(getattr(entry, "pack", ""), _NO_PACK)


def phase_name(knowledge: Knowledge, service, language: str = "en") -> str:
    """The phase of a withdrawn service as its pack names it ("work-to-rule", "walkout")."""
    phase = pack_of(knowledge, service).phase(service.phase)
    if phase is None:
        return service.phase.replace("_", " ")
    return phase.words(language)


def phase_begun(knowledge: Knowledge, service, at: datetime) -> bool | None:
    """Whether a service's phase had begun at `at` by its pack's phase dates (None: the pack gives no start)."""
    phase = pack_of(knowledge, service).phase(service.phase)
    if phase is None or phase.start is None:
        return None
    return phase.start <= at.date()


def phase_heading(knowledge: Knowledge, service, language: str = "en") -> str:
    """'During the work-to-rule' (the lead of a line about a phase's services)."""
    return say("phase_heading", language, phase=phase_name(knowledge, service, language))


def phase_order(knowledge: Knowledge, phases: list[str]) -> list[str]:
    """Phase ids in their packs' order (the order the header lists them)."""
    order = [p.id for info in knowledge.packs.values() for p in info.phases]
    return sorted(phases, key=lambda p: order.index(p) if p in order else len(order))


def help_text(knowledge: Knowledge, text: str, language: str = "en") -> str:
    """The help with the active packs' titles and examples in place of the generic ones (once per snapshot)."""
    key = ("help", text, language)
    if key not in knowledge.derived:
        knowledge.derived[key] = _help_text(knowledge, text, language)
    return knowledge.derived[key]


def _help_text(knowledge: Knowledge, text: str, language: str) -> str:
    marker = "\n\n" + say("help_commands", language) + "\n"
    intro, found, commands = text.partition(marker)
    packs = list(knowledge.packs.values())
    examples = _examples(packs, language)
    if not found or not packs:
        return text
    titles = "; ".join((info.title_fr if language == "fr" and info.title_fr else info.title) for info in packs)
    lines = [say("help_intro", language, titles=titles)]
    if examples:
        lines.append(say("help_examples", language) + "\n" + "\n".join(say("help_example", language, text=e)
                                                                       for e in examples))
        lines.append(say("help_follow_up", language))
    else:
        lines.append(intro.split("\n\n", 1)[-1])
    return "\n\n".join(lines) + found + commands


def _examples(packs: list[PackInfo], language: str) -> list[str]:
    """The packs' example questions in `language` (at most 8). In French, a pack with examples but none in
    French lends the generic French ones of config/wording.yaml, never its English ones."""
    if language != "fr":
        return [e for info in packs for e in info.examples][:8]
    examples: list[str] = []
    for info in packs:
        own = info.examples_fr or (say("help_generic_examples", "fr").split("\n") if info.examples else ())
        examples += [e for e in own if e not in examples]
    return examples[:8]


# ------------------------------------------------------------------ time
@dataclass(frozen=True, slots=True)
class Coverage:
    """What the active packs say about the moment of a question, for one board."""

    pack: PackInfo | None  # the pack covering it (None: none does)
    newest: datetime | None  # the newest news of the active packs known at that moment
    last: PackInfo | None  # the latest pack known of, when none covers it
    ended: bool = False  # the covering pack has ended (its end line comes first)


def _published(knowledge: Knowledge) -> dict[str | None, list[datetime]]:
    """Per pack (and None: all packs), the sorted published times of its entries not undone; once per snapshot."""
    times = knowledge.derived.get("published")
    if times is None:
        times = {None: []}
        for entry in (*knowledge.statuses, *knowledge.timeline, *knowledge.facts, *knowledge.cards, *knowledge.services):
            if getattr(entry, "retracted", None) is None:
                times.setdefault(entry.pack, []).append(entry.published)
                times[None].append(entry.published)
        for values in times.values():
            values.sort()
        knowledge.derived["published"] = times
    return times


def newest_news(knowledge: Knowledge, at: datetime, pack: str | None = None) -> datetime | None:
    """The newest published time at or before `at` (of one pack, or of all)."""
    key = ("published moments", pack)
    moments = knowledge.derived.get(key)
    if moments is None:
        moments = knowledge.derived[key] = Moments(_published(knowledge).get(pack, []))
    index = moments.after(at)
    return moments.times[index - 1] if index else None


def _cell(knowledge: Knowledge, name: tuple, times, at: datetime) -> tuple[int, int]:
    """Where `at` falls among the sorted times `times(knowledge, *name[1:])` (made once per snapshot):
    at one of them, or between two.

    A comparison of `at` with any of the times gives the same answer anywhere in one cell, so
    what is worked out from those comparisons alone is worked out once per cell.
    """
    moments = knowledge.derived.get(name)
    if moments is None:
        moments = knowledge.derived[name] = Moments(times(knowledge, *name[1:]))
    return moments.cell(at)


def _end_times(knowledge: Knowledge) -> list[datetime]:
    """When the active disputes ended, by their headers or by ends staff stated (and when those were said
    or undone): every time `packs_at` compares `at` with, and every end it can give."""
    times = [info.ended for info in knowledge.packs.values() if info.ended is not None]
    return times + [t for e in knowledge.pack_ends for t in (e.ended, e.published, e.retracted) if t is not None]


def _coverage_times(knowledge: Knowledge, coverage_days: int) -> list[datetime]:
    """Every time `at` is compared with in :func:`_coverage`."""
    base = [t for ts in _published(knowledge).values() for t in ts] + _end_times(knowledge)
    return [*base, *(t + timedelta(days=coverage_days) for t in base)]


def coverage(knowledge: Knowledge, board: Board | None, at: datetime, coverage_days: int,
             only: str | None = None) -> Coverage:
    """The pack that frames an answer: of those covering `at` (or only the pack `only`), one still
    on before one that has ended (the end of one dispute does not speak over another that goes
    on), then the newest news."""
    board_id = board.id if board else None
    key = ("coverage", board_id, coverage_days, only,
           _cell(knowledge, ("coverage times", coverage_days), _coverage_times, at))
    found = knowledge.derived.get(key)
    if found is None:
        found = knowledge.derived[key] = _coverage(knowledge, board_id, at, coverage_days, only)
    return found


def _coverage(knowledge: Knowledge, board_id: str | None, at: datetime, coverage_days: int,
              only: str | None = None) -> Coverage:
    best: tuple[bool, datetime, PackInfo] | None = None
    last: tuple[datetime, PackInfo] | None = None
    for info in knowledge.packs_at(at):  # with the ends staff stated in chat
        if (board_id and not info.concerns(board_id)) or only not in (None, info.id):
            continue
        newest = newest_news(knowledge, at, info.id)
        if newest is None:
            continue  # nothing of it was out yet
        ended = info.ended is not None and info.ended <= at
        end = (info.ended if ended else newest) + timedelta(days=coverage_days)
        if at <= end and (best is None or (not ended, newest) > best[:2]):
            best = (not ended, newest, info)
        mark = info.ended if ended else newest
        if last is None or mark > last[0]:
            last = (mark, info)
    if best is not None:
        return Coverage(best[2], best[1], None, not best[0])
    return Coverage(None, None, last[1] if last else None)


def no_current_dispute(knowledge: Knowledge, board: Board | None, at: datetime, last: PackInfo,
                       language: str = "en") -> str:
    newest = newest_news(knowledge, at, last.id)
    when = (say("last_dispute_ended", language, day=day_text(last.ended, language)) if last.ended and last.ended <= at
            else say("last_dispute_news", language, day=day_text(newest, language)))
    title = last.title_fr if language == "fr" and last.title_fr else last.title
    name = board.name if board else say("your_board", language)
    return say("no_current_dispute", language, board=name, title=title, when=when)


def ended_line(info: PackInfo, language: str = "en") -> str:
    text = info.end_text_fr if language == "fr" and info.end_text_fr else info.end_text
    return text or say("dispute_ended", language, day=day_text(info.ended, language))


def _days_ago(published: datetime, at: datetime) -> int:
    """Calendar days from the news to the question, in the question's time zone."""
    return (at.date() - published.astimezone(at.tzinfo).date()).days


def stale_lead(board: Board | None, published: datetime, at: datetime, language: str = "en", *,
               named_next: bool = False) -> str:
    """The first words of an answer built on old news; the board is left out when the answer names it next."""
    days = _days_ago(published, at)
    if board is None or named_next:
        return say("stale_news_lead", language, day=day_text(published, language), days=days)
    return say("stale_news_board_lead", language, board=board.display, day=day_text(published, language), days=days)


def _status_news(knowledge: Knowledge, board: Board | None, day: date, at: datetime) -> datetime | None:
    own, general = knowledge.status_for(board.id if board else "", day, at)
    times = [s.published for s in (own, general) if s is not None]
    return max(times, default=None)


def _settled(knowledge: Knowledge, at: datetime) -> datetime | None:
    """When the latest deal / call-off / return was announced (None: none yet)."""
    times = [e.published for e in knowledge.events(at) if e.kind in SETTLED_KINDS]
    return max(times, default=None)


def _strike_notes(knowledge: Knowledge, at: datetime) -> tuple[str, ...]:
    """The texts of 'Note: a strike could begin ...' lines that no longer hold (a deal or the end came after)."""
    key = ("strike notes", _cell(knowledge, ("strike note times",), _strike_note_times, at))
    found = knowledge.derived.get(key)
    if found is None:
        found = knowledge.derived[key] = _stale_strike_notes(knowledge, at)
    return found


def _strike_note_times(knowledge: Knowledge) -> list[datetime]:
    events = [t for e in knowledge.timeline for t in (e.published, e.retracted) if t is not None]
    return events + _end_times(knowledge)


def _stale_strike_notes(knowledge: Knowledge, at: datetime) -> tuple[str, ...]:
    settled = _settled(knowledge, at)
    ended = {info.id for info in knowledge.packs_at(at) if info.ended is not None and info.ended <= at}
    return tuple(text for e in knowledge.events(at) if e.kind == "full_strike_start"
                 and (e.pack in ended or (settled is not None and settled > e.published))
                 for text in (e.text, *((e.fr or {}).get("text", ""),)) if text)


def frame(settings, turn: Turn, texts: list[str]) -> list[str]:
    """The answer texts put in time and in their dispute (see the module's docstring)."""
    knowledge, at = turn.knowledge, turn.msg.time
    lang = turn.voice.language
    intent = turn.analysis.intent
    if not texts or not knowledge.packs or intent in {"help", "set_board", "subscribe", "unsubscribe", "admin"}:
        return texts
    if turn.meta.get("choices"):
        return texts
    found = coverage(knowledge, turn.board, at, settings.answers.coverage_days)
    cited = {pack for text in texts for pack in _cited_packs(knowledge, text)}
    if found.pack is not None and len(cited) == 1 and found.pack.id not in cited:
        # An answer wholly from another covering dispute is framed by that one (its end, its age).
        own = coverage(knowledge, turn.board, at, settings.answers.coverage_days, only=next(iter(cited)))
        found = own if own.pack is not None else found
    if found.pack is None:
        if found.last is None:
            return texts
        lead = no_current_dispute(knowledge, turn.board, at, found.last, lang)
        if intent in _NOW_ONLY or (intent == "unknown" and turn.card is None):
            return [lead]  # nothing of then to add: not "What I knew of it then: Sorry, I'm not sure..."
        return [lead + "\n" + say("back_then", lang) + "\n" + texts[0], *texts[1:]]
    turn.meta["news_as_of"] = found.newest.isoformat()  # the age of the newest news behind the answer
    turn.meta["pack"] = found.pack.id
    stale_notes = _strike_notes(knowledge, at) if intent == "school_status" else ()
    if stale_notes:
        texts = ["\n".join(line for line in text.split("\n") if not line.endswith(stale_notes)) for text in texts]
    note = found.pack.note_fr if lang == "fr" and found.pack.note_fr else found.pack.note
    if intent == "who_is_affected" and turn.card is None and note and not found.ended and note not in texts[-1] \
            and "passage" not in turn.meta:  # not under the one text found for a question nothing else placed
        texts = [*texts[:-1], texts[-1] + "\n" + say("pack_note", lang, note=note)]
    if found.ended and intent == "school_status":  # the day asked first, then that the dispute is over
        first, _, rest = texts[0].partition("\n")
        texts = ["\n".join(filter(None, (first, ended_line(found.pack, lang), rest))), *texts[1:]]
    elif found.ended and intent in _NOW_ONLY:
        texts = [ended_line(found.pack, lang) + "\n" + texts[0], *texts[1:]]
    elif intent in _PLANNED_TOPICS and (passed := passed_without_news(knowledge, at, found.newest)) is not None:
        # "talks resume Friday", asked Friday night with no newer report: say that the news stops before it
        lead = say("event_passed_lead", lang, day=short_day(passed.day, lang), newest=day_text(found.newest, lang))
        texts = [lead + " " + texts[0], *texts[1:]]
    elif intent == "school_status":
        day = turn.day or turn.today
        # Old news is the newest the dispute has: a status still standing after newer reports is not old news.
        published = max(filter(None, (_status_news(knowledge, turn.board, day, at), found.newest)), default=None)
        if published is not None and _days_ago(published, at) > settings.answers.stale_after_days:
            named_next = turn.board is not None and texts[0].startswith(turn.board.display)
            texts = [stale_lead(turn.board, published, at, lang, named_next=named_next) + " " + texts[0], *texts[1:]]
    if len(knowledge.packs) > 1:
        texts = [_name_disputes(knowledge, text, lang) for text in texts]
    return texts


def passed_without_news(knowledge: Knowledge, at: datetime, newest: datetime | None) -> TimelineEvent | None:
    """The latest event that was still to come when it was reported, whose day has come by `at` with no news
    published since that day began ("talks resume Friday", asked on Friday evening or later)."""
    if newest is None:
        return None
    over = at.date() if at.hour >= DAY_OVER_HOUR else at.date() - timedelta(days=1)  # the last day that has passed
    due = [e for e in knowledge.events(at)
           if e.kind in _OUTCOME_KINDS and e.day > e.published.date() and newest.date() < e.day <= over]
    return max(due, key=_event_day, default=None)


def _event_day(event: TimelineEvent) -> date:
    return event.day


def _cited_packs(knowledge: Knowledge, text: str) -> list[str]:
    """The packs of the sources a text cites, in the order of the sources."""
    packs = []
    if len(knowledge.packs) > 1:
        for source in knowledge.sources.values():
            if source.file in text and source.pack not in packs:
                packs.append(source.pack)
    return packs


def _name_disputes(knowledge: Knowledge, text: str, language: str = "en") -> str:
    """Add which dispute the sources cited belong to, when several packs are active."""
    infos = [knowledge.packs[p] for p in _cited_packs(knowledge, text) if p in knowledge.packs]
    titles = [info.title_fr if language == "fr" and info.title_fr else info.title for info in infos]
    if not titles:
        return text
    return text + "\n" + say("from_dispute", language, titles="; ".join(titles))
