"""What parents say beside the question (issue 20, stop 16: the group-chat conversations of conv_j): a board
said not to be the one, a trip's destination, the day news is counted from, "tell me if..." that asks now.

Every test goes through Bot.handle, on the 2019 pack, at the conversation's clock.
"""

from __future__ import annotations

from datetime import date, datetime

import pytest

from bot.dates import find_date
from tests.conftest import TORONTO, chat_with, message

FRIDAY = datetime(2019, 10, 4, 7, 30, tzinfo=TORONTO)


@pytest.fixture
def chat(bot):
    """chat(text, ...) -> the reply texts joined; each call a few seconds after the last, one parent."""
    return chat_with(bot, FRIDAY)


def test_a_board_said_not_to_be_the_one_gives_way_to_the_one_meant(chat):
    chat("is peel closing on monday for the strike")
    assert chat("wait sorry not peel, we're york region, markham").startswith("York Region DSB, Monday, October 7")
    chat("is peel closing on monday for the strike", user="other")
    reply = chat("attends non c'est pas le PDSB, c'est une école de Viamonde à Mississauga", user="other")
    assert reply.startswith("Viamonde, lundi 7 octobre") and "Peel" not in reply.split("\n")[0]


def test_school_tomorrow_or_not_still_names_the_board_after_it(bot):
    assert bot.boards.find("its almost midnight is there a strike tomorrow or not york region vaughan").board_id \
        == "yrdsb"


def test_another_child_at_another_board_same_thing_asks_the_last_question_there(chat):
    chat("is york region closing on monday")
    assert chat("and my other one is at york catholic, same thing?").startswith("York Catholic DSB, Monday, October 7")


def test_a_place_a_trip_goes_to_is_not_the_familys_board(chat):
    reply = chat("my sons grade 8 trip to ottawa is in november, will it be cancelled")
    assert "OCDSB" not in reply and "Ottawa-Carleton" not in reply
    assert "Ottawa" not in chat("/board")


@pytest.mark.parametrize("text, day", [
    ("any update since friday? is the strike still on for monday, tdsb", date(2019, 10, 7)),
    ("pas de nouvelles depuis vendredi, toujours en grève lundi?", date(2019, 10, 7)),
    ("anything new since friday", date(2019, 10, 4)),  # the day itself, in the past, when no other is asked
])
def test_the_day_news_is_counted_from_is_not_the_day_asked(text, day):
    assert find_date(text, date(2019, 10, 6)).day == day


def test_tell_me_if_the_school_is_closing_is_asked_now_not_a_subscription(bot):
    at = datetime(2019, 10, 3, 17, 40, tzinfo=TORONTO)
    reply = bot.handle(message("can you just tell me if the school near me is closing, its Elmdale PS", at=at))[0]
    assert reply.meta["intent"] == "school_status" and "alerts" not in reply.text
    assert bot.handle(message("let me know if school is cancelled", at=at))[0].meta["intent"] == "subscribe"


def test_a_short_exclamation_after_an_answer_gets_one_line_not_the_help(chat):
    assert "Sorry, I'm not sure" in chat("yikes")  # nothing answered yet: what the bot can do
    chat("est-ce que c'est vrai que les concierges ramassent pu les poubelles")
    assert chat("ouache") == "D'accord. Posez-moi une autre question sur l'école au besoin."
    assert chat("lol this province") == "D'accord. Posez-moi une autre question sur l'école au besoin."  # still French
    assert not chat("who's right").startswith("OK.")  # a question, however short


def test_a_board_and_nothing_else_understood_gets_the_boards_day_not_a_word_in_common(chat):
    friday_night = datetime(2019, 10, 4, 21, 0, tzinfo=TORONTO)
    assert chat("MonAvenir ils ont dit quoi?", at=friday_night).startswith("MonAvenir, lundi 7 octobre")
    assert not chat("whats the best pizza place in oakville").startswith("Halton DSB")


@pytest.mark.parametrize("text, says", [
    ("do the workers get strike pay", "I have no information on strike pay"),
    ("pick up time same?", "I have no information on bell times"),
    ("and lunch supervision?", "The reports don't say anything about lunch"),
])
def test_what_the_reports_do_not_cover_is_said_not_answered_with_something_else(chat, text, says):
    chat("what services stopped")
    assert chat(text).startswith(says)


@pytest.mark.parametrize("text", ["school tmrw? i heard the support staff made a deal",
                                  "school tomorrow for real? what time", "school tomorrow? no more strike"])
def test_a_sentence_of_only_school_and_a_day_asks_that_days_status(bot, text):
    reply = bot.handle(message(text, at=FRIDAY))[0]
    assert reply.meta["intent"] == "school_status" and "Saturday, October 5" in reply.text


def test_two_days_asked_get_a_line_each_one_day_said_twice_one(chat):
    reply = chat("is tdsb open monday and tuesday?")
    assert reply.startswith("TDSB, Monday, October 7") and "\nTDSB, Tuesday, October 8" in reply
    tuesday = datetime(2019, 10, 8, 8, 0, tzinfo=TORONTO)
    reply = chat("Bonjour, mes enfants sont à MonAvenir. Y a-t-il de l'école aujourd'hui mardi?", at=tuesday)
    assert "15 octobre" not in reply


def test_two_boards_given_at_once_get_each_boards_day(chat):
    saturday = datetime(2019, 10, 5, 16, 30, tzinfo=TORONTO)
    reply = chat("mes deux sont à deux conseils, un au CEPEO pis l'autre à l'OCDSB", at=saturday)
    assert reply.startswith("CEPEO, lundi 7 octobre") and "\nOCDSB, lundi 7 octobre" in reply
    reply = chat("kids are at hamilton wentworth and my stepson at hamilton catholic")
    assert reply.startswith("HWDSB, Monday, October 7") and "\nHWCDSB, Monday, October 7" in reply
    assert chat("switch me from peel to halton").startswith("Got it: your board is Halton District School Board")


def test_a_day_gone_by_is_not_a_second_day_asked(chat):
    saturday = datetime(2019, 10, 5, 11, 20, tzinfo=TORONTO)
    reply = chat("Toujours en grève lundi? pas de nouvelles depuis vendredi, on est au CEPEO", at=saturday)
    assert reply.startswith("CEPEO, lundi 7 octobre") and "vendredi 4 octobre" not in reply


@pytest.mark.parametrize("text", ["someone on facebook says the strike is cancelled, is it true?",
                                  "quelqu'un sur facebook dit que la grève est annulée, c'est vrai?"])
def test_a_rumour_asks_about_the_claim_not_who_said_it(bot, text):
    saturday = datetime(2019, 10, 5, 16, 30, tzinfo=TORONTO)
    assert bot.handle(message(text, at=saturday))[0].meta["intent"] == "negotiations"


def test_a_subscription_is_stopped_only_by_a_message_about_the_messages(chat):
    chat("/subscribe tdsb")
    assert "official updates" not in chat("office said they cant take cash for pizza lunch anymore?? whats going on")
    assert "unsubscribe" not in chat("they cant take cash anymore").lower()
    assert chat("stop sending me these").startswith("Done")


def test_a_board_and_a_day_with_nothing_else_read_surely_gets_that_boards_day(chat):
    saturday = datetime(2019, 10, 5, 9, 30, tzinfo=TORONTO)
    reply = chat("Kanata mom here, my kids are at an elementary school off Hazeldean. do we need to worry about monday?",
                 at=saturday)
    assert reply.startswith("OCDSB, Monday, October 7")


@pytest.mark.parametrize("text, day", [
    ("is school open tomorrow and is the after school daycare still running?", "Tomorrow, Monday, September 30"),
    ("est-ce que l'école est ouverte demain pis le service de garde après l'école marche-tu encore?",
     "Demain, lundi 30 septembre"),
])
def test_school_asked_first_then_the_daycare_gets_the_day_first_without_a_board(bot, text, day):
    sunday = datetime(2019, 9, 29, 19, 0, tzinfo=TORONTO)
    reply = bot.handle(message(text, at=sunday))[0].text
    assert reply.startswith(day) and ("daycare" in reply or "garde" in reply)
