"""Answers from the dispute's timeline: the entry a question asks about, the key dates, and a phase no news
speaks of yet ("No full strike has been announced as of my latest news").

A deal or a strike called off (bot.answers.SETTLING) overtakes older entries whatever was asked: "when does it
start?" after a deal is answered with the deal.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from bot.answers import SETTLING, cite_many, when_published
from bot.asked import asks_for_list, asks_when_next, overlap, searchable, strong_overlap, words_of
from bot.dates.formatting import short_day
from bot.replies import ENGLISH, Voice, shape
from bot.text import normalize
from knowledge.model import TimelineEvent
from knowledge.snapshot import Knowledge


def strike_dates(knowledge: Knowledge, at: datetime, question: str = "", *, full: bool = False,
                 voice: Voice = ENGLISH, day: date | None = None) -> str | None:
    """The timeline entry the question asks about (one on the day it names first, then the next one it speaks
    to, then the newest news), with the entry next to it; a list when asked; a phase no news speaks of yet
    said as not announced."""
    events = knowledge.events(at)
    if not events:
        return None
    lang = voice.language
    today = at.date()
    past = [e for e in events if e.day <= today]
    future = [e for e in events if e.day > today]
    if full or asks_for_list(question):
        chosen = past[-3:] + future[:3]
        lines = [voice.say("key_dates")]
        lines += [_event_line(event, voice) for event in chosen]
        lines.append(cite_many(knowledge, chosen, lang))
        return "\n".join(lines)
    asked = words_of(question)
    unannounced = _phase_not_announced(knowledge, events, question, at, voice)
    if unannounced is not None:
        return unannounced
    candidates = future + list(reversed(past))  # the next event first, then the latest
    # "When can they strike?" asks what comes next: an event to come that the question speaks to
    # answers before a past one that shares more words ("when did ..." does not).
    ahead = asks_when_next(question)

    def rank(event: TimelineEvent) -> tuple[bool, bool, int, int]:
        text = searchable(event, "text", voice)
        shared = overlap(asked, text)
        return event.day == day, ahead and event.day > today and shared > 0, strong_overlap(asked, text), shared

    best = max(candidates, key=rank)
    latest = max(events, key=lambda e: e.published)
    if best.day != day and latest.published > best.published and (
            latest.kind in SETTLING or not overlap(asked, searchable(best, "text", voice))):
        best = latest  # newer news (a deal, a strike called off) comes first, and answers a question no event matches
    # the next date, else the one before (not another entry of the lead's own day); after a notice, the start it
    # gives notice of ("cupe gave strike notice today?? for when": Monday's strike, not Friday's talks)
    starts = [e for e in events if e.day > best.day and e.kind in _STARTS] if best.kind == "strike_notice" else []
    others = starts[:1] or [e for e in future if e.day != best.day][:1] \
        or [e for e in reversed(past) if e.day != best.day][:1]
    lead = f"{short_day(best.day, lang)}{voice.colon}{voice.text(best, 'text')}"
    if best.day > today and _ASKS_YET.search(_plain(question.lower())):
        lead = f"{voice.say('not_yet')} {lead}"  # "is the school strike happening yet": not yet, then when
    support = []
    if others:
        key = "next_event" if others[0].day > best.day else "before_that"  # in time order from the lead's day
        support = [voice.say(key, event=_event_line(others[0], voice)[2:])]
    return shape(lead, support, cite_many(knowledge, [best, *others], lang))


# "...yet", "already", "pas encore", "déjà": whether something has happened; a date still to come says not yet (not
# "encore" alone: "ça marche-tu encore?" asks whether it still works)
_ASKS_YET = re.compile(r"\b(?:yet|already|deja|déjà|pas encore)\b")


def no_deal_yet(knowledge: Knowledge, question: str, at: datetime, voice: Voice) -> str | None:
    """'No deal yet.' for a question whether a deal was reached ("did they sign a deal yet?") when no deal nor
    strike called off is in the news by `at`; else None."""
    if not _ASKS_DEAL.search(_plain(question.lower())):
        return None
    events = knowledge.events(at)
    if any(e.kind in SETTLING for e in events):
        return None
    newest = max((e.published for e in events), default=None)
    if newest is None or any(e.kind == "bargaining" and newest.date() < e.day <= at.date() for e in events):
        return None  # talks planned after the newest news have taken place since (Oct. 7): a deal may have come
    return voice.say("no_deal_yet")


_ASKS_DEAL = re.compile(r"\b(?:deal|agreement|entente|accord)\b.*\b(?:yet|already|reached|signed?|deja|déjà|conclu|signe)\b"
                        r"|\b(?:sign(?:ed)?|reach(?:ed)?|got|get|conclu|signe) (?:a |an |une |un )?(?:deal|agreement|entente|accord)\b")


_STARTS = frozenset({"legal_strike_position", "work_to_rule_start", "full_strike_start"})  # what a notice is for


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[^\w']+", " ", text).split())


def phase_named(knowledge: Knowledge, question: str, language: str) -> str | None:
    """The name of the first phase of the active packs that a question names ("full strike"), or None."""
    norm = f" {_plain(normalize(question))} "
    for info in knowledge.packs.values():
        for phase in info.phases:
            name = phase.words(language)
            if name and f" {_plain(normalize(name))} " in norm:  # "work to rule" is "work-to-rule"
                return name
    return None


def phase_not_announced_line(knowledge: Knowledge, question: str, at: datetime, voice: Voice) -> str | None:
    """'No full strike has been announced as of my latest news (...)' when the question names a phase no news
    speaks of yet, else None: the second half of "is school open, also is there gonna be a full strike"."""
    if phase_named(knowledge, question, voice.language) is None:
        return None  # most questions: no phase named, no timeline read
    events = knowledge.events(at)
    text = _phase_not_announced(knowledge, events, question, at, voice) if events else None
    return text.split("\n", 1)[0] if text else None


def _phase_not_announced(knowledge: Knowledge, events: list[TimelineEvent], question: str, at: datetime,
                         voice: Voice) -> str | None:
    """'Will there be a full strike?' while no event published yet speaks of a full strike: not announced, as
    of the newest news, then the newest event (what is going on). A phase is named by its pack's words."""
    lang = voice.language
    name = phase_named(knowledge, question, lang)
    if name is None or any(normalize(name) in normalize(voice.text(e, "text")) for e in events):
        return None  # the news speaks of it: the timeline answers
    latest = max(events, key=lambda e: e.published)
    lead = voice.say("phase_not_announced", phase=name, newest=when_published(latest.published, lang))
    support = [f"{short_day(latest.day, lang)}{voice.colon}{voice.text(latest, 'text')}"]
    return shape(lead, support, cite_many(knowledge, [latest], lang))


def _event_line(event: TimelineEvent, voice: Voice = ENGLISH) -> str:
    approx = " " + voice.say("approximate") if event.approximate else ""
    return f"- {short_day(event.day, voice.language)}{approx}{voice.colon}{voice.text(event, 'text')}"
