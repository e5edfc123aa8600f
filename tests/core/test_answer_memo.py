"""Answers kept per knowledge snapshot (bot/answer_memo.py) are the texts composed anew, whatever was asked before."""

from dataclasses import replace
from datetime import date, datetime, timedelta

from bot import answer_memo, answers, services_answer, timeline_answers
from bot.replies import Voice
from knowledge.model import Card, Status, TimelineEvent
from tests.conftest import THURSDAY, TORONTO


def at(day, hour=9):
    return datetime(2019, 10, day, hour, tzinfo=TORONTO)


def _both(function, knowledge, *args, language="en", **kwargs):
    """(kept text, its voice's fallback flag), asked twice, and (composed text, its flag)."""
    kept_voice = Voice(language)
    kept = getattr(answer_memo, function)(knowledge, *args, voice=kept_voice, **kwargs)
    again_voice = Voice(language)
    again = getattr(answer_memo, function)(knowledge, *args, voice=again_voice, **kwargs)
    composed_voice = Voice(language)
    # the module that composes it
    module = {"withdrawn_services": services_answer, "strike_dates": timeline_answers}.get(function, answers)
    composed = getattr(module, function)(knowledge, *args, voice=composed_voice, **kwargs)
    assert (kept, kept_voice.untranslated) == (again, again_voice.untranslated)
    return (kept, kept_voice.untranslated), (composed, composed_voice.untranslated)


def test_kept_answers_are_the_composed_ones(store):
    knowledge = store.knowledge()
    questions = ["", "when does the strike start", "list all the dates", "are the custodians still cleaning",
                 "quand commence la grève", "what about the talks", "so what about the talks today",
                 "is there a deal", "how did the vote go", "are the eas and custodians working", "les concierges?",
                 "when can they strike", "when did the talks break down", "which services stopped"]
    for language in ("en", "fr"):
        for when in (at(1), THURSDAY, at(7, 15), at(30)):
            for full in (False, True):
                for board_id in ("tdsb", "pdsb", "cepeo"):
                    board = knowledge.board(board_id)
                    for day in (when.date(), date(2019, 10, 5), date(2019, 10, 7)):
                        kept, composed = _both("school_status", knowledge, board, day, when.date(), when,
                                               full=full, language=language)
                        assert kept == composed
                    for question in questions:
                        for name, args in (("withdrawn_services", (when, board, question)),
                                           ("facts_answer", ("negotiations", when, question))):
                            extra = {"board": board} if name == "facts_answer" else {}
                            kept, composed = _both(name, knowledge, *args, full=full, language=language, **extra)
                            assert kept == composed, (name, question)
                for question in questions:
                    kept, composed = _both("strike_dates", knowledge, when, question, full=full, language=language)
                    assert kept == composed
                    for card in knowledge.cards[::7]:
                        kept, composed = _both("card_answer", knowledge, card, when, full=full, language=language,
                                               question=question)
                        assert kept == composed, card.id


def test_a_staff_change_is_a_new_snapshot_with_its_own_answers(store):
    peel = store.knowledge().board("pdsb")
    before = answer_memo.school_status(store.knowledge(), peel, date(2019, 10, 7), THURSDAY.date(), at(3, 10))
    store.put_status(Status(
        id="pdsb-memo", board="pdsb", start=date(2019, 10, 7), until=None, status="open",
        summary="Peel says all schools will stay open on Monday.", source="Peel staff update",
        published=at(3, 8), author="test:staff",
    ))
    knowledge = store.knowledge()
    peel = knowledge.board("pdsb")
    after = answer_memo.school_status(knowledge, peel, date(2019, 10, 7), THURSDAY.date(), at(3, 10))
    assert "contingency" in before and "Peel DSB, Monday, October 7: open." in after
    # The same snapshot asked before the update was published: the older answer, though the newer one is kept.
    earlier = answer_memo.school_status(knowledge, peel, date(2019, 10, 7), THURSDAY.date(), at(3, 7))
    assert earlier == before


def test_a_new_time_span_changes_a_kept_card_answer(store):
    store.put_event(TimelineEvent(
        id="deal-memo", kind="deal", day=date(2019, 10, 3), text="A tentative deal was reached.",
        source="Province-wide update", published=at(3, 8), author="test:staff",
    ))
    knowledge = store.knowledge()
    card = next(c for c in knowledge.cards if c.topic == "negotiations" and c.published < at(3, 7))
    later = answer_memo.card_answer(knowledge, card, at(3, 10), question="is there a deal")
    sooner = answer_memo.card_answer(knowledge, card, at(3, 7), question="is there a deal")
    assert later.startswith("Latest: Thu Oct 3: A tentative deal was reached.")
    assert "tentative deal" not in sooner
    assert sooner == answers.card_answer(knowledge, card, at(3, 7), question="is there a deal")


def test_a_kept_answer_in_english_only_says_so_every_time(store):
    store.put_card(Card(id="memo-no-french", topic="childcare", question="Is the pool open?",
                        answer="The pool is closed.", source="Province-wide update", published=at(2, 8),
                        author="test:staff"))
    knowledge = store.knowledge()
    card = knowledge.card_by_id["memo-no-french"]
    for _ in range(2):
        voice = Voice("fr")
        assert answer_memo.card_answer(knowledge, card, THURSDAY, voice=voice) == "The pool is closed.\n" + \
            answers.cite(knowledge, card.source, card.published, "fr")
        assert voice.untranslated


def test_a_board_or_card_not_of_the_snapshot_is_composed_anew(store):
    knowledge = store.knowledge()
    tdsb = knowledge.board("tdsb")
    answer_memo.withdrawn_services(knowledge, THURSDAY, tdsb, "list them", full=True)
    moved = replace(tdsb, website="https://example.org/tdsb")
    assert "https://example.org/tdsb" in answer_memo.withdrawn_services(knowledge, THURSDAY, moved, "list them", full=True)
    card = knowledge.cards[0]
    answer_memo.card_answer(knowledge, card, THURSDAY)
    assert answer_memo.card_answer(knowledge, replace(card, answer="Something else."), THURSDAY + timedelta(0)) \
        .startswith("Something else.")
