"""The answers of bot/answers.py, composed once per knowledge snapshot for the same inputs.

Every message recomposed the same texts (a board's status for a day, a card's answer, the services
stopped): a few dozen microseconds each, for every message. Each function here has the signature of
the one it stands for and keys its text on everything that function reads:

- the snapshot (the texts are kept in ``knowledge.derived``, which lives and dies with it);
- boards and cards by id, and only when they are the snapshot's own objects (others: composed anew);
- a time only through what the snapshot's queries find at it (``Knowledge.span``: which span between
  the times of the entries a query reads it falls in) and, where it is read, its calendar day;
- a question only through the pure functions of its text that the answer reads (whether it asks for
  the list, whether it asks what comes next, and its words, of which only those the texts it is
  compared with hold: ``overlap`` counts no other);
- the language, and ``full``.

A text is composed with a fresh :class:`Voice` of the same language; whether it had to fall back to
English is kept with it and given to the caller's voice, so the "only in English" line is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

from bot import answers, services_answer, timeline_answers
from bot.asked import asks_for_list, asks_when_next, searchable, words_of
from bot.replies import ENGLISH, Voice
from knowledge.model import Board, Card
from knowledge.snapshot import Knowledge

LIMIT = 4096  # texts kept per snapshot; past this they are composed anew
_MEMO = "composed answers"


def _memo(knowledge: Knowledge) -> dict:
    """The snapshot's composed texts and word sets (they live and die with it)."""
    return knowledge.derived.setdefault(_MEMO, {})


def _remembered(knowledge: Knowledge, key: tuple, voice: Voice, compose: Callable[[Voice], str | None]) -> str | None:
    memo = _memo(knowledge)
    found = memo.get(key)
    if found is None:
        fresh = Voice(voice.language)
        found = (compose(fresh), fresh.untranslated)
        if len(memo) >= LIMIT:
            memo.clear()
        memo[key] = found
    text, untranslated = found
    if untranslated:
        voice.untranslated = True
    return text


def _words_in(knowledge: Knowledge, key: tuple, texts: Callable[[], list[str]]) -> frozenset[str]:
    """Every word (as `words_of` reads them) of some texts, once per snapshot and key: a question's words
    count for an answer only where they meet these (``overlap``), so the rest of them need not key it."""
    memo = _memo(knowledge)
    found = memo.get(key)
    if found is None:
        found = memo[key] = frozenset().union(*map(words_of, texts()))
    return found


def _own_board(knowledge: Knowledge, board: Board | None) -> bool:
    return board is None or knowledge.boards.get(board.id) is board


def school_status(knowledge: Knowledge, board: Board, day: date, today: date, at: datetime, *, full: bool = False,
                  voice: Voice = ENGLISH) -> str:
    def compose(fresh: Voice) -> str:
        return answers.school_status(knowledge, board, day, today, at, full=full, voice=fresh)

    if not _own_board(knowledge, board):
        return compose(voice)
    key = ("school_status", board.id, day, today, knowledge.span("statuses", at), knowledge.span("events", at),
           at.date(), full, voice.language)
    return _remembered(knowledge, key, voice, compose)


def card_answer(knowledge: Knowledge, card: Card, at: datetime | None = None, *, full: bool = False,
                voice: Voice = ENGLISH, question: str = "") -> str:
    def compose(fresh: Voice) -> str:
        return answers.card_answer(knowledge, card, at, full=full, voice=fresh, question=question)

    if knowledge.card_by_id.get(card.id) is not card:
        return compose(voice)
    newer = None  # what the answer reads of the time and the question: only on topics the news moves
    if at is not None and card.topic in answers.OVERTAKEN_BY:
        span = knowledge.span("events", at)
        said = _words_in(knowledge, ("words: event texts", span, voice.language),
                         lambda: [Voice(voice.language).text(e, "text") for e in knowledge.events(at)])
        newer = (span, words_of(question) & said if question else None)
    return _remembered(knowledge, ("card", card.id, newer, full, voice.language), voice, compose)


def strike_dates(knowledge: Knowledge, at: datetime, question: str = "", *, full: bool = False,
                 voice: Voice = ENGLISH, day: date | None = None) -> str | None:
    span = knowledge.span("events", at)
    said = _words_in(knowledge, ("words: events", span, voice.language),
                     lambda: [searchable(e, "text", Voice(voice.language)) for e in knowledge.events(at)])
    key = ("strike_dates", span, at.date(), full, asks_for_list(question), words_of(question) & said,
           asks_when_next(question), voice.language, day, timeline_answers.phase_named(knowledge, question, voice.language))
    return _remembered(knowledge, key, voice, lambda fresh: timeline_answers.strike_dates(
        knowledge, at, question, full=full, voice=fresh, day=day))


def withdrawn_services(knowledge: Knowledge, at: datetime, board: Board | None, question: str = "", *,
                       full: bool = False, voice: Voice = ENGLISH) -> str | None:
    def compose(fresh: Voice) -> str | None:
        return services_answer.withdrawn_services(knowledge, at, board, question, full=full, voice=fresh)

    if not _own_board(knowledge, board):
        return compose(voice)
    span = knowledge.span("services", at)
    said = _words_in(knowledge, ("words: services", span, at.date(), voice.language), lambda: [
        f"{searchable(s, 'workers', fresh)} {searchable(s, 'service', fresh)}"
        for fresh in (Voice(voice.language),) for s in knowledge.services_withdrawn(at)])
    key = ("withdrawn_services", span, at.date(), board.id if board else None, words_of(question) & said,
           asks_for_list(question), full, voice.language)
    return _remembered(knowledge, key, voice, compose)


def facts_answer(knowledge: Knowledge, topic: str, at: datetime, question: str = "", *, full: bool = False,
                 voice: Voice = ENGLISH, board: Board | None = None) -> str | None:
    def compose(fresh: Voice) -> str | None:
        return answers.facts_answer(knowledge, topic, at, question, full=full, voice=fresh, board=board)

    if not _own_board(knowledge, board):
        return compose(voice)
    span = knowledge.span("facts", at)
    said = _words_in(knowledge, ("words: facts", topic, span, voice.language),
                     lambda: [searchable(f, "text", Voice(voice.language)) for f in knowledge.facts_about(topic, at)])
    key = ("facts", topic, span, words_of(question) & said, full, voice.language, board.id if board else None)
    return _remembered(knowledge, key, voice, compose)
