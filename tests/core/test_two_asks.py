"""Two questions in one message (issue 20, stop 17): each gets its line, in the order asked; a question asked again
of something else ("and what about the custodians?"), a condition ("if no deal, is it monday?") and a question about
the first's answer ("...and what does it mean for us") stay one question.

Every reply goes through Bot.handle, on the 2019 pack.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from bot.answering import two_asks
from tests.conftest import TORONTO, chat_with

THURSDAY_EVENING = datetime(2019, 10, 3, 20, 0, tzinfo=TORONTO)


@pytest.fixture
def chat(bot):
    return chat_with(bot, THURSDAY_EVENING)


def test_who_and_why_each_get_a_line_who_first(chat):
    lines = chat("who is cupe and why r they doing this").split("\n")
    assert "55,000" in lines[0] and "support workers" in lines[0]  # who, first: it was asked first
    assert "Local Priorities Fund" in lines[1] or "job security" in lines[1]


def test_what_it_means_and_when_it_starts_each_get_a_line(chat):
    lines = chat("whats work to rule mean and when does it start").split("\n")
    assert "unpaid" in lines[0]
    assert "Sept. 30" in lines[1]


def test_french_when_and_what_they_want(chat):
    lines = chat("c'est quand la grève pis c'est quoi qu'ils veulent au juste").split("\n")
    assert "7 octobre" in lines[0]
    assert "sécurité d'emploi" in lines[1] or "priorités locales" in lines[1]


@pytest.mark.parametrize("text", [
    "are EAs working and what about custodians",  # the first question again, of the custodians
    "Et si pas d'entente, c'est lundi la grève?",  # a condition, then one question
    "the ECEs in kindergarten, are they cupe too",  # no question before the comma
    "whats a no board report and what does it mean for us",  # the second asks about the first's answer
    "strike?",
])
def test_one_question_is_not_split(text):
    assert two_asks.split(text) is None


def test_a_split_keeps_both_questions_as_written():
    asks = two_asks.split("why did the talks break down? i thought they were close? when will we know")
    # the split is where a question word starts the next question, not after every "?"
    assert asks == two_asks.Asks("why did the talks break down? i thought they were close", "when will we know")


def test_the_other_line_goes_where_it_was_asked():
    texts = ("Answer to the second.\nIts detail.",)
    assert two_asks.with_other(texts, "Answer to the first.", before=True) == \
        ("Answer to the first.\nAnswer to the second.\nIts detail.",)
    assert two_asks.with_other(("Answer to the first.\nIts detail.",), "Answer to the second.", before=False) == \
        ("Answer to the first.\nAnswer to the second.\nIts detail.",)
    assert two_asks.with_other(texts, "Its detail.", before=True) == texts  # said already: once


def test_news_of_two_words_before_the_question_is_no_question_of_its_own():
    assert two_asks.split("talks failed?? should i book a sitter for tomorrow") is None
