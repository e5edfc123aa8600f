"""A question asking why is not answered with a card asked when (issue 20 point 1, issue 24's Chicago pack: "why do
chicago teachers want to strike?" before the pack has any reason got the strike's start date)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.answering import kinds
from bot.app import build_bot
from knowledge.model import Card
from tests.conftest import TORONTO, chat_with
from tests.knowledge.test_regions import ask, deployment

CHICAGO = ZoneInfo("America/Chicago")
PUBLISHED = datetime(2019, 10, 2, 12, 0, tzinfo=TORONTO)


def _card(question: str) -> Card:
    return Card(id="c", topic="strike_dates", question=question, answer="Thursday, Oct. 17.", source="s.txt",
                published=PUBLISHED)


def test_why_is_answered_otherwise_than_when(bot):
    assert kinds.asked_otherwise(_card("When does the strike start?"), "why do teachers want to strike", bot.subjects)
    assert not kinds.asked_otherwise(_card("Why are they striking?"), "why do teachers want to strike", bot.subjects)
    assert not kinds.asked_otherwise(_card("Is school open?"), "why do teachers want to strike", bot.subjects)


@pytest.fixture(scope="module")
def chicago(tmp_path_factory, template_db):
    settings, store = deployment(tmp_path_factory.mktemp("chicago"), template_db, "chicago", "ctu-2019-strike")
    yield build_bot(settings, store=store)
    store.close()


def test_why_before_the_pack_knows_the_reasons_says_so(chicago):
    reply = ask(chicago, "why do chicago teachers want to strike? isnt it just about money",
                datetime(2019, 10, 10, 12, 0, tzinfo=CHICAGO), user="why")
    assert "Oct. 17" not in reply.split("\n")[0], reply


def test_why_a_group_is_in_it_still_speaks_of_the_group(bot):
    chat = chat_with(bot, datetime(2019, 10, 3, 12, 0, tzinfo=TORONTO))
    assert "CUPE" in chat("why are EAs even in this").split("\n")[0]


def test_a_day_asked_is_never_offered_the_why_card(bot):
    reply = chat_with(bot, datetime(2019, 10, 2, 23, 30, tzinfo=TORONTO))("is cupe striking monday")
    assert not reply.startswith("Do you mean"), reply
    assert "Monday" in reply.split("\n")[0]
    assert "job security" in chat_with(bot, datetime(2019, 10, 2, 23, 30, tzinfo=TORONTO))(
        "why are they striking on monday", user="why")
