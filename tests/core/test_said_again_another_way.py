"""A parent saying the last question again another way (issue 20, stop 17: conv_m's impatient repeats): "no i mean
tomorrow", "en français svp, pas en anglais" after an answer, "do i send her today or what", and an ordinary word
that is no misspelt place ("likely" is not Lively). Every reply goes through Bot.handle, on the 2019 pack."""

from __future__ import annotations

from datetime import datetime

from bot.text import normalize
from tests.conftest import TORONTO, chat_with


def test_no_i_mean_tomorrow_asks_the_last_question_for_tomorrow(bot):
    chat = chat_with(bot, datetime(2019, 10, 3, 7, 10, tzinfo=TORONTO))
    chat("school open?")
    assert chat("no i mean tomorrow").startswith("Tomorrow, Friday, October 4, province-wide: open")
    assert chat("and monday? durham btw").startswith("Durham DSB, Monday, October 7")


def test_french_please_after_an_answer_answers_it_again_in_french(bot):
    chat = chat_with(bot, datetime(2019, 10, 2, 23, 15, tzinfo=TORONTO))
    chat("strike monday?? for real?")
    reply = chat("en français svp, pas en anglais")
    assert reply.startswith("D'accord, je vous répondrai en français.")
    assert "lundi 7 octobre" in reply


def test_a_language_asked_for_with_nothing_before_only_sets_it(bot):
    assert chat_with(bot, datetime(2019, 10, 2, 23, 15, tzinfo=TORONTO))("en français svp") \
        .startswith("D'accord, je vous répondrai en français.")


def test_do_i_send_her_today_is_the_days_status_and_send_me_updates_is_not(bot):
    chat = chat_with(bot, datetime(2019, 9, 30, 6, 48, tzinfo=TORONTO))
    assert chat("do i send her today or what").startswith("Today, Monday, September 30, province-wide: open")
    assert bot.matcher.analyse("send me updates today", datetime(2019, 9, 30).date()).intent == "subscribe"


def test_likely_is_no_misspelt_place(bot):
    assert bot.boards.find(normalize("so which one is more likely to stay open")) is None
    assert bot.boards.find(normalize("is sudbry open")).board_id == "rdsb"  # a misspelt place still is


def test_is_the_other_board_different_asks_its_day(bot):
    chat = chat_with(bot, datetime(2019, 10, 3, 20, 12, tzinfo=TORONTO))
    chat("is york the same as peel for monday?")
    assert chat("what about toronto then, is tdsb different").startswith("TDSB, Monday, October 7")
    chat = chat_with(bot, datetime(2019, 10, 4, 7, 25, tzinfo=TORONTO))
    chat("salut, est-ce que les écoles à Ottawa vont fermer lundi avec la grève?", user="fr")
    assert chat("c'est le conseil catholique, ça change-tu de quoi?", user="fr").startswith("CECCE, lundi 7 octobre")


def test_what_happens_between_now_and_then_is_what_comes_next(bot):
    chat = chat_with(bot, datetime(2019, 10, 2, 21, 30, tzinfo=TORONTO))
    chat("just saw the news, are they on full strike now???")
    reply = chat("so what happens between now and then")
    assert "Friday, Oct. 4" in reply and not reply.startswith("I'm not sure"), reply


def test_class_photo_in_french_is_picture_day(bot):
    reply = chat_with(bot, datetime(2019, 10, 3, 19, 50, tzinfo=TORONTO))("pis la photo de classe c'est mardi, ça tient-tu?")
    assert "photos" in reply and reply.startswith("Je n'ai aucune information"), reply


def test_a_deal_asked_yet_before_any_deal_says_no_first(bot):
    reply = chat_with(bot, datetime(2019, 9, 12, 13, 30, tzinfo=TORONTO))("did the school support staff sign a deal yet?")
    assert reply.startswith("No deal yet. "), reply


def test_a_strike_asked_yet_before_it_can_start_says_not_yet_then_when(bot):
    reply = chat_with(bot, datetime(2019, 9, 17, 7, 5, tzinfo=TORONTO))("morning. is the school strike happening yet")
    assert reply.startswith("Not yet. Mon Sep 23:"), reply


def test_if_the_strike_goes_ahead_is_no_telling_word_the_ece_is_asked_about(bot):
    reply = chat_with(bot, datetime(2019, 10, 3, 6, 55, tzinfo=TORONTO))(
        "my daughter is in SK with an ECE and a teacher. if the strike goes ahead would the ECE be gone?")
    assert reply.startswith("Early childhood educators (ECEs)"), reply


def test_the_rest_of_the_week_after_a_days_status_is_the_next_school_day(bot):
    chat = chat_with(bot, datetime(2019, 10, 4, 6, 45, tzinfo=TORONTO))
    chat("markham mom here. trying to plan next week. is monday happening or not")
    assert chat("what about the rest of the week").startswith("York Region DSB, Tuesday, October 8")
    chat("markham mom here. is monday happening or not", user="fr")
    assert chat("et le reste de la semaine?", user="fr").startswith("York Region DSB, mardi 8 octobre")


def test_snow_removal_is_the_shovelling_custodians_stopped(bot):
    assert "shovelling snow" in chat_with(bot, datetime(2019, 10, 3, 10, 30, tzinfo=TORONTO))("snow removal later on?")


def test_encore_alone_is_still_not_yet_and_medicaments_are_health(bot):
    reply = chat_with(bot, datetime(2019, 10, 3, 19, 50, tzinfo=TORONTO))(
        "ma fille prend ses médicaments au bureau à midi, la secrétaire s'en occupe. avec la grève ça marche-tu encore?")
    assert not reply.startswith("Pas encore."), reply
    assert "santé" in reply.split("\n")[0], reply


def test_no_deal_yet_is_not_said_once_planned_talks_have_passed_unreported(bot):
    reply = chat_with(bot, datetime(2019, 10, 7, 6, 40, tzinfo=TORONTO))(
        "is it over? my neighbour says they got a deal last night")
    assert "No deal yet" not in reply and reply.startswith("No news yet of what happened on Fri Oct 4"), reply


def test_a_french_question_naming_only_a_place_gets_the_french_board_then_the_english_one(bot):
    chat = chat_with(bot, datetime(2019, 10, 4, 12, 30, tzinfo=TORONTO))
    lines = chat("Brampton, lundi, école ou pas?").split("\n")
    assert lines[0].startswith("Viamonde, lundi 7 octobre") and lines[1].startswith("Peel DSB, lundi 7 octobre")
    lines = chat("grève lundi oui ou non? conseil catholique de Toronto", user="c").split("\n")
    assert lines[0].startswith("MonAvenir, lundi 7 octobre") and lines[1].startswith("TCDSB, lundi 7 octobre")
    assert "Viamonde" not in chat("is school open monday in toronto", user="en")
    assert "TDSB" not in chat("Viamonde lundi?", user="v")
