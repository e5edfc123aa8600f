"""Follow-ups on the answer itself and days said as weeks (issue 20, stop 17: conv_l's conversations): how old the
news is, where it came from, doubt with a reason, "catholic tho", "next week", make-up days, a school's day asked
before its daycare.

Every reply goes through Bot.handle, on the 2019 pack, at the conversation's clock.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from tests.conftest import TORONTO, chat_with
from tests.knowledge.test_regions import EDMONTON, alberta, ask  # noqa: F401 (fixtures)

THURSDAY = datetime(2019, 10, 3, 12, 15, tzinfo=TORONTO)
FRIDAY_MORNING = datetime(2019, 10, 4, 6, 45, tzinfo=TORONTO)


@pytest.fixture
def chat(bot):
    return chat_with(bot, THURSDAY)


@pytest.mark.parametrize("asked, said", [
    ("how old is this", "My latest news is from Oct 2, 2019"),
    ("is this old news", "My latest news is from Oct 2, 2019"),
    ("seriously you don't know?", "My latest news is from Oct 2, 2019"),
    ("ça date de quand?", "Mes nouvelles les plus récentes datent du 2 octobre 2019"),
])
def test_how_old_the_news_is_asked_after_an_answer(chat, asked, said):
    chat("heard cupe gave strike notice?? for when")
    reply = chat(asked)
    assert reply.startswith(said), reply
    assert "Commands:" not in reply  # never the help


def test_doubt_with_a_reason_is_a_certainty_follow_up(chat):
    chat("ma fille est au TCDSB, c'est fermé lundi c'est sûr?")
    reply = chat("t'es sûr? ma voisine dit que c'est déjà annoncé")
    assert reply.startswith("Non : je n'ai aucune information confirmée pour lundi 7 octobre (TCDSB)"), reply


def test_your_source_said_in_french_word_order(chat):
    chat("ma fille est au TCDSB, c'est fermé lundi?")
    assert chat("ta source c'est quoi?").startswith("Source : 2019-10-02-full-strike-notice-talks-friday.txt")


def test_a_board_kind_with_though_asks_the_other_board_there(chat):
    chat("brampton. school monday?")
    assert chat("catholic tho").startswith("Dufferin-Peel CDSB, Monday, October 7")


@pytest.mark.parametrize("text, first", [
    ("is school open next week in peel", "Peel DSB, Monday, October 7"),
    ("l'école est ouverte la semaine prochaine au CEPEO?", "CEPEO, lundi 7 octobre"),
])
def test_next_week_asks_its_first_school_day(bot, text, first):
    assert chat_with(bot, FRIDAY_MORNING)(text).startswith(first)


def test_a_rumour_about_next_week_is_not_read_as_its_monday(bot):
    reply = chat_with(bot, datetime(2019, 10, 1, 12, 15, tzinfo=TORONTO))(
        "my coworker says theres going to be a full blown strike next week and schools will close. true?")
    assert "October 7" not in reply.split("\n")[0]


@pytest.mark.parametrize("text", ["what about make up days if they close",
                                  "pis si c'est fermé, l'école va reprendre les journées?"])
def test_make_up_days_are_the_school_calendar(chat, text):
    reply = chat(text)
    assert "calendar" in reply or "calendrier" in reply, reply
    assert not reply.startswith(("Sorry", "Désolé")), reply


def test_overtime_said_the_quebec_way(chat):
    assert "heures supplémentaires" in chat("mes heures sup cette semaine?")


def test_the_school_asked_before_its_daycare_gets_the_boards_day_first(bot):
    reply = chat_with(bot, datetime(2019, 10, 3, 20, 0, tzinfo=TORONTO))(
        "is school open tomorrow in peel and what about daycare")
    assert reply.startswith("Peel DSB, tomorrow, Friday, October 4: open"), reply


def test_a_card_of_the_packs_own_topic_answers_before_the_shipped_out_of_scope_list(alberta):
    reply = ask(alberta, "is EPSB cancelling fall break to make up days?", datetime(2025, 11, 7, 20, 30, tzinfo=EDMONTON),
                user="fall")
    assert "fall break" in reply.lower() and not reply.startswith("I have no information"), reply


def test_says_who_gives_the_reports_title_beside_its_file(chat):
    chat("my kids go to Runnymede PS in Toronto. whats the deal for monday")
    reply = chat("who said that")
    assert reply.startswith("Source: 2019-10-02-full-strike-notice-talks-friday.txt"), reply
    assert 'The report: "Union gives notice of full strike; talks resume Friday"' in reply


def test_a_sub_is_a_supply_teacher_and_sub_me_still_subscribes(chat, bot):
    assert "finding replacement staff" in chat("can the school office still call in a sub if my kid's teacher is away")
    assert bot.matcher.analyse("sub me", THURSDAY.date()).intent == "subscribe"


@pytest.mark.parametrize("text, then", [
    ("heard cupe gave strike notice today?? for when", "Next: Mon Oct 7: A full strike could begin"),
    ("c'est quoi exactement un préavis de grève?", "Ensuite : lun. 7 oct. : Une grève générale pourrait commencer"),
])
def test_after_a_notice_comes_the_start_it_gives_notice_of(bot, text, then):
    lines = chat_with(bot, datetime(2019, 10, 2, 22, 30, tzinfo=TORONTO))(text).split("\n")
    assert "notice" in lines[0] or "préavis" in lines[0]
    assert lines[1].startswith(then), lines
