"""Issue 24, done when: no reply of the Alberta, Chicago or Quebec deployment names an Ontario board, ministry or
city; the Alberta payment questions get the Alberta card.

Every question of the region's blind set (tests/data/regions/R_blind.jsonl), and the commands and short turns that
answer from the wording (greeting, help, /board, "not sure"), go through `Bot.handle` of a deployment set up as
docs/packs.md says (region loaded, then its pack, then only that pack used), at the question's own time. Replies
are checked against the names of config/regions/ontario.yaml: every board's name, short name, aliases and places,
"Ontario", and the Ontario ministry's words.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pytest

from bot.app import build_bot
from knowledge.reading import read_yaml
from tests.conftest import message
from tests.knowledge.test_regions import EDMONTON, REGIONS, deployment

SETS = Path(__file__).resolve().parents[1] / "data" / "regions"
DEPLOYMENTS = {"alberta": "alberta-teachers-2025", "chicago": "ctu-2019-strike", "quebec": "qc-2023-front-commun-fae"}
TURNS = ["/start", "/help", "/aide", "/board", "hello", "bonjour", "asdfgh qwerty", "blorp flarp zut", "more",
         "who is on strike", "qui est en grève?", "what services stopped?", "is school open tomorrow?"]


def ontario_names() -> re.Pattern:
    ontario = read_yaml(REGIONS / "ontario.yaml")
    names = {"Ontario", ontario["region"]["ministry"], ontario["region"]["ministry_fr"]}
    for board in ontario["boards"]:
        names |= {board["name"], board.get("short") or board["name"], board["id"]}
        names |= set(board.get("aliases", ())) | set(board.get("municipalities", ()))
    words = sorted((n for n in names if n), key=len, reverse=True)
    return re.compile(r"(?<!\w)(" + "|".join(re.escape(n) for n in words) + r")(?!\w)", re.IGNORECASE)


ONTARIO = ontario_names()


@pytest.fixture(scope="module", params=sorted(DEPLOYMENTS))
def deployed(request, tmp_path_factory, template_db):
    region = request.param
    settings, store = deployment(tmp_path_factory.mktemp(region), template_db, region, DEPLOYMENTS[region])
    yield region, build_bot(settings, store=store)
    store.close()


def test_the_names_come_from_the_ontario_region_file():
    assert ONTARIO.search("Is Peel closed?") and ONTARIO.search("the TDSB") and ONTARIO.search("in Mississauga")
    assert ONTARIO.search("le site Web du ministère de l'Éducation de l'Ontario")
    assert not ONTARIO.search("Edmonton Public, Chicago Public Schools, CSS de Laval")


def test_no_reply_of_another_region_names_an_ontario_board_ministry_or_city(deployed):
    region, bot = deployed
    lines = [json.loads(line) for line in (SETS / f"{region}_blind.jsonl").read_text().splitlines() if line.strip()]
    assert len(lines) >= 60
    asked = [(q["text"], datetime.fromisoformat(q["now"])) for q in lines]
    asked += [(text, asked[0][1]) for text in TURNS]
    named = []
    for number, (text, at) in enumerate(asked):
        for reply in bot.handle(message(text, at=at, user=f"{region}-{number}")):
            found = ONTARIO.search(reply.text)
            if found:
                named.append(f"{text!r} -> {found.group(0)!r} in {reply.text[:300]!r}")
    assert not named, "\n".join(named)


@pytest.mark.parametrize("text", ["when does the parent payment come", "how do I apply for the $30 a day"])
def test_the_alberta_payment_questions_get_the_alberta_card(tmp_path, template_db, text):
    settings, store = deployment(tmp_path, template_db, "alberta", DEPLOYMENTS["alberta"])
    try:
        bot = build_bot(settings, store=store)
        responses = bot.handle(message(text, at=datetime(2025, 10, 20, 9, 0, tzinfo=EDMONTON)))
        reply = "\n".join(r.text for r in responses)
        payment = {c.id: c for c in store.knowledge().cards if "payment" in c.id or "parent" in c.id}
        assert any(c.answer.split(".")[0][:40] in reply for c in payment.values()), reply
        assert "I have no information on" not in reply and "best place to look" not in reply, reply
        assert not ONTARIO.search(reply), reply
    finally:
        store.close()
