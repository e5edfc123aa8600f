"""A choice offered before staff undid one of its cards (issue 23, item 6): picking that card does not serve it."""

from __future__ import annotations

import pytest

from tests.admin.conftest import ADMIN, PARENT
from tests.conftest import message

QUESTION = "what about the zorblax helpers"
KEPT, UNDONE = "Zorblax helpers stay home all week.", "Zorblax helpers work as usual."


@pytest.fixture
def offered(said, bot, store) -> list[str]:
    """The answers of the cards offered, in their numbers' order."""
    for question, answer in ((QUESTION, KEPT), (QUESTION + "?", UNDONE)):
        said(f"/teach all | {question} | {answer}", user=ADMIN)
        said("/confirm", user=ADMIN)
    [choice] = bot.handle(message(QUESTION, user=PARENT))
    assert choice.text.startswith("Do you mean:")
    said("/undo", user=ADMIN)  # the latest change: the second card
    assert said("/confirm", user=ADMIN).startswith("Undone")
    return [store.knowledge().card_by_id[card].answer for card in choice.meta["choices"]]


@pytest.mark.parametrize("pick", ["1", "2"])
def test_a_card_undone_after_it_was_offered_is_not_served(said, offered, pick):
    assert UNDONE not in said(pick)


def test_the_card_still_standing_is_served_by_its_number(said, offered):
    assert KEPT in said(str(offered.index(KEPT) + 1))


def test_more_after_an_undone_card_does_not_give_it(said):
    said(f"/teach all | {QUESTION} | {UNDONE} | Details of the undone card.", user=ADMIN)
    said("/confirm", user=ADMIN)
    assert UNDONE in said(QUESTION)
    said("/undo", user=ADMIN)
    said("/confirm", user=ADMIN)
    assert "undone card" not in said("more")
