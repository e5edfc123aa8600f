"""Issue 24, items 3 and 4: what a deployment of another region says comes from its packs and region, in the
order and the words its phase calls for."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.app import build_bot
from tests.conftest import message
from tests.knowledge.test_regions import EDMONTON, alberta, ask, deployment, quebec  # noqa: F401 (fixtures)

QUEBEC_TIME = ZoneInfo("America/Toronto")


@pytest.mark.parametrize("text", ["what is stopped", "what services are stopped"])
def test_a_strike_stops_the_work_most_important_first(alberta, text):
    """A strike's services: "stopped work", classes before buses (the pack file's order), short or listed."""
    reply = ask(alberta, text, datetime(2025, 10, 20, 9, 0, tzinfo=EDMONTON), user=f"s-{text}")
    assert "some tasks" not in reply, reply
    if text == "what is stopped":  # the first three
        assert reply.startswith("During the strike, workers stopped work, including: teachers: all classes"), reply
    else:
        assert reply.index("all classes and instruction") < reply.index("school bus routes"), reply


def test_work_to_rule_stops_some_tasks(settings, store, shared_matcher):
    from tests.conftest import TORONTO

    bot = build_bot(settings, store=store, matcher=shared_matcher)
    reply = ask(bot, "what's stopped", datetime(2019, 10, 3, 12, 0, tzinfo=TORONTO), user="wtr")
    assert reply.startswith("During the work-to-rule, workers stopped some tasks, for example: custodians: "), reply


def test_the_french_greeting_and_prompts_name_the_regions_places(quebec):
    at = datetime(2023, 11, 27, 9, 0, tzinfo=QUEBEC_TIME)
    hello = ask(quebec, "bonjour", at, user="g1")
    assert hello.startswith("Bonjour!") and "Laval" in hello and "CEPEO" not in hello, hello
    assert "« le service de garde est tu ouvert? »" in hello and "aides-enseignantes" not in hello, hello  # the pack's
    menu = ask(quebec, "/board", at, user="g2")
    assert menu.startswith("Vous n'avez pas encore choisi de centre de services scolaire.") and "« CSSDM »" in menu \
        and "Ottawa" not in menu, menu
    unsure = ask(quebec, "blorp flarp zut", at, user="g3")
    assert unsure.startswith("Désolé") and "Laval" in unsure, unsure


def test_the_board_menu_greeting_and_not_sure_in_alberta(alberta):
    at = datetime(2025, 10, 8, 9, 0, tzinfo=EDMONTON)
    hello = ask(alberta, "hello", at, user="m0")
    assert hello.endswith('"is school open monday in edmonton?" or "when do kids go back to school?"'), hello
    menu = ask(alberta, "/board", at, user="m1")
    assert menu.startswith("You haven't set a school division yet.") and '"Edmonton Public", "Calgary Catholic" or '
    '"Red Deer"' in menu, menu
    unsure = ask(alberta, "asdfgh qwerty", at, user="m2")
    assert "edmonton" in unsure and "peel" not in unsure.lower(), unsure


def test_an_initial_does_not_end_the_sentence_a_reply_leads_with(settings, store, shared_matcher, tmp_path):
    """"Lester B. Pearson" is one name: a fact leading a reply is not cut at "B."."""
    from knowledge.loader import load_knowledge_file
    from tests.conftest import TORONTO

    pack = tmp_path / "initials.yaml"
    pack.write_text("pack: {id: initials, title: Initials}\nsources:\n  - {file: a.txt, title: A, published: "
                    "2031-03-01T10:00:00-05:00}\nfacts:\n  - {id: f1, topic: who_is_affected, text: 'The teachers of "
                    "the Lester B. Pearson School Board are on strike. Support staff keep working.', source: a.txt}\n")
    load_knowledge_file(store, pack)
    store.use_packs(["initials"])
    bot = build_bot(settings, store=store, matcher=shared_matcher)
    reply = ask(bot, "who is on strike", datetime(2031, 3, 2, 9, 0, tzinfo=TORONTO), user="initials")
    assert reply.startswith("The teachers of the Lester B. Pearson School Board are on strike.\n"), reply


def test_the_intent_reported_is_the_topic_of_the_card_that_answered(tmp_path, template_db):
    """docs/packs.md: a card answers as its topic's intent, so ask, eval and /stats count it there, even where the
    matcher was sure of another intent ("still going on" read as who is affected; the card is on the dates)."""
    settings, store = deployment(tmp_path, template_db, "alberta", "alberta-teachers-2025")
    try:
        bot = build_bot(settings, store=store)
        cards = {c.id: c for c in store.knowledge().cards}
        at = datetime(2025, 10, 20, 9, 0, tzinfo=EDMONTON)
        for number, text in enumerate(["is the teacher strike still going on in alberta?", "who is on strike",
                                       "how do I apply for the $30 a day"]):
            response = bot.respond(message(text, at=at, user=f"r{number}"))
            assert response.card is not None and response.intent == cards[response.card].topic, (text, response)
        store.flush_questions()
        logged = [row[0] for row in store.conn.execute("SELECT intent FROM question_log ORDER BY at, rowid")]
        assert logged[0] == cards[bot.respond(message("is the teacher strike still going on in alberta?", at=at,
                                                      user="again")).card].topic, logged
    finally:
        store.close()
