"""Conversations that keep their thread (issue 20, shapes 2 and 5): reactions with words of their own, the day
talked about, a board asked after a question whose answer is the same at every board, and a phase no news
has announced yet. Every test goes through Bot.handle on the 2019 pack."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tests.conftest import TORONTO, message

TUESDAY = datetime(2019, 10, 1, 12, 20, tzinfo=TORONTO)  # work-to-rule, before the full strike notice
THURSDAY = datetime(2019, 10, 3, 12, 20, tzinfo=TORONTO)  # the full strike notice given for Monday Oct 7


@pytest.fixture
def chat(bot):
    """chat(text, at=...) -> the reply texts joined; each call twenty seconds after the last, one parent."""
    clock = {"at": THURSDAY}

    def _chat(text: str, *, at: datetime | None = None) -> str:
        clock["at"] = at or clock["at"] + timedelta(seconds=20)
        return "\n".join(r.text for r in bot.handle(message(text, at=clock["at"])))

    return _chat


@pytest.mark.parametrize("words, start", [
    ("Thank you dear", "You're welcome!"),
    ("ok thx night", "You're welcome!"),
    ("thanks for being straight with me", "You're welcome!"),
    ("figures. k", "OK."),
    ("lol ok. no pizza then", "OK."),
    ("wow super rassurant", "OK."),
    ("k night", ""),
])
def test_a_reaction_with_words_of_its_own_gets_one_short_line(chat, words, start):
    chat("is school open monday in peel?")
    reply = chat(words)
    assert reply.startswith(start) and "\n" not in reply and len(reply) <= 100
    assert "not sure" not in reply and "/help" not in reply


@pytest.mark.parametrize("words", ["ok what about tuesday", "ok and tcdsb", "thanks, but when does it end",
                                   "great, so schools are closed"])
def test_a_reaction_that_also_asks_is_answered(chat, words):
    chat("is school open monday in peel?")
    reply = chat(words)
    assert not reply.startswith(("OK.", "You're welcome"))


def test_the_day_talked_about_stays_over_a_question_without_a_day(chat):
    chat("is tdsb open monday?")
    assert chat("what about the custodians").startswith("School custodians")
    assert chat("and tcdsb?").startswith("TCDSB, Monday, October 7: not confirmed")


def test_a_board_after_an_answer_that_is_the_same_everywhere_gets_that_board_s_day(chat):
    chat("who is on strike?")
    assert chat("what about peel").startswith("Peel DSB, ")


def test_a_board_after_an_answer_that_differs_by_board_asks_it_again(chat):
    chat("what services stopped?")
    assert not chat("and tcdsb?").startswith("TCDSB, ")  # TCDSB's services, not its status


def test_a_phase_no_news_speaks_of_yet_is_not_announced(chat):
    reply = chat("will there be a full strike", at=TUESDAY)
    assert reply.startswith("No full strike has been announced as of my latest news (Sep 29, 2019")
    reply = chat("va-t-il y avoir une grève générale?")
    assert reply.startswith("Aucune grève générale n'a été annoncée")


def test_a_phase_the_news_announced_gets_its_date(chat):
    reply = chat("will there be a full strike", at=THURSDAY)
    assert "Oct. 7" in reply.split("\n")[0]


# ---------------------------------------------------------------- a question is not a request
@pytest.mark.parametrize("words", ["and will the school tell me if something changes for her", "When do they decide"])
def test_a_question_about_what_others_will_do_is_answered_not_subscribed(chat, store, words):
    reply = chat(words)
    assert "You will now get" not in reply and "I'll send you alerts" not in reply
    assert store.subscriptions_of("test", "u1") == []


def test_a_request_to_the_bot_still_subscribes(chat):
    assert chat("can you let me know if it changes").startswith("I'll send you alerts when there is news.")


def test_an_unsure_reading_as_a_request_is_not_acted_on(chat, store):
    reply = chat("le cepeo a tu dit quelque chose")
    assert reply.startswith("CEPEO, aujourd'hui")
    assert store.subscriptions_of("test", "u1") == []


# ---------------------------------------------------------------- short enough for a phone
def test_a_status_past_a_phone_s_screen_loses_the_board_s_full_name_first(chat):
    reply = chat("grandma here. do i drive them to school on monday or not. they go to a public school in Richmond Hill")
    assert len(reply) <= 400 and "arrangements" in reply and "(York Region DSB: York Region" not in reply


def test_a_status_still_too_long_keeps_the_first_clause_of_its_explanation(chat):
    reply = chat("markham public school tomorrow?", at=datetime(2019, 10, 6, 10, 0, tzinfo=TORONTO))
    assert len(reply) <= 400
    assert "If a strike goes ahead, York Region's public board may close schools but had not decided.\n" in reply


def test_a_list_asked_for_keeps_every_item_whole(chat):
    reply = chat("what services stopped?")
    assert "giving unpaid volunteer time to clubs, coaching and similar activities" in reply
