"""Answers taught in chat survive a backup: `kb export` writes them with a topic `kb load` reads back, so a
fresh database loaded from the export answers them as the old one did."""

from __future__ import annotations

import pytest

from adapters.cli import main
from bot.app import build_bot
from bot.settings import Settings
from knowledge.model import TAUGHT_TOPIC
from tests.admin.conftest import ADMIN
from tests.conftest import THURSDAY, message

TAUGHT = [  # (question, answer); the matcher places some under an intent, others nowhere (topic staff)
    ("Is the science fair happening?", "The science fair is moved to May."),
    ("Do we need to pack extra snacks?", "Yes, pack a snack."),
    ("Will graduation photos happen?", "Photos are postponed."),
    ("Can parents volunteer in class?", "Volunteers are welcome."),
    ("Can my child bring a laptop to class?", "Yes, laptops are allowed."),
    ("Are lunchrooms supervised?", "Yes: lunch supervision continues."),
    ("Can I get the updates by email?", "Not yet: follow the board on Twitter."),
    ("Is the school pool open?", "No: pools are closed."),
    ("Is daycare in schools open?", "Daycares in schools stay open."),
    ("When is the next strike day?", "No new strike day is set."),
    ("Who is on strike at my school?", "Custodians and EAs."),
    ("Are field trips cancelled?", "Field trips go ahead."),
    ("Is the library open after school?", "Libraries close at 3."),
    ("Are talks still going on?", "Talks resume Friday."),
    ("Is the chess club meeting at lunch?", "The chess club meets Wednesdays."),
]


def answers(bot, question: str, user: str) -> str:
    return "\n".join(r.text for r in bot.handle(message(question, user=user)))


@pytest.fixture
def taught(bot, said, store):
    for question, answer in TAUGHT:
        said(f"/teach all | {question} | {answer}", user=ADMIN)
        assert said("/confirm", user=ADMIN).startswith("Done:")
    cards = [c for c in store.knowledge().cards if c.author]
    assert len(cards) == len(TAUGHT) and sum(c.topic == TAUGHT_TOPIC for c in cards) >= 4
    for index, (question, answer) in enumerate(TAUGHT):
        assert answer in answers(bot, question, f"before{index}"), question
    return cards


def test_a_whole_pack_export_with_taught_cards_loads_into_a_fresh_database_and_answers(
        taught, settings, tmp_path, capsys, shared_matcher):
    backup = tmp_path / "cupe-2019.yaml"
    assert main(["kb", "export", "--db", settings.database.path, "cupe-2019", str(backup)]) == 0
    fresh = str(tmp_path / "fresh.db")
    assert main(["kb", "load", "--db", fresh, str(backup)]) == 0, capsys.readouterr().err
    fresh_bot = build_bot(Settings().replace("database", path=fresh), clock=lambda: THURSDAY, matcher=shared_matcher)
    try:
        loaded = {c.question: c for c in fresh_bot.store.knowledge().cards}
        for card in taught:
            assert (loaded[card.question].answer, loaded[card.question].topic) == (card.answer, card.topic)
        for index, (question, answer) in enumerate(TAUGHT):
            assert answer in answers(fresh_bot, question, f"after{index}"), question
    finally:
        fresh_bot.store.close()


def test_the_chat_export_with_taught_cards_loads_every_card(taught, settings, tmp_path, capsys):
    added = tmp_path / "added-in-chat.yaml"
    assert main(["kb", "export", "--db", settings.database.path, str(added)]) == 0
    capsys.readouterr()
    assert main(["kb", "load", "--db", str(tmp_path / "fresh.db"), str(added)]) == 0
    assert f"{len(TAUGHT)} cards" in capsys.readouterr().out


def test_teach_takes_only_a_topic_that_loads_back(said, store):
    refused = said("/teach all | Is the gym open? | Yes. | topic: gym stuff", user=ADMIN)
    assert "I don't know the topic gym_stuff" in refused and "childcare" in refused and "staff" in refused
    assert "(topic childcare)" in said("/teach all | Is the gym open? | Yes. | topic: childcare", user=ADMIN)
    assert "(topic staff)" in said("/teach all | Is the gym open? | Yes. | topic: staff", user=ADMIN)
