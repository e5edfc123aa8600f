"""Staff close the loop from chat: /unanswered lists what parents asked in vain, /teach adds the answer,
`kb export` keeps it in a YAML pack."""

from __future__ import annotations

from datetime import timedelta

import yaml

from adapters.cli import main
from knowledge.loading import load_knowledge
from tests.admin.conftest import ADMIN, PDSB_STAFF, TDSB_STAFF
from tests.conftest import THURSDAY, message

LUNCH = "/teach tdsb | Are lunchrooms supervised? | Yes: lunch supervision continues at TDSB schools. | source: TDSB letter of Oct 3"


def ask(bot, text: str, user: str, board: str | None = None, at=THURSDAY) -> None:
    if board:
        bot.handle(message(f"/board {board}", user=user, at=at))
    bot.handle(message(text, user=user, at=at))


def test_unanswered_lists_the_most_frequent_deduplicated_with_counts_scoped_to_the_boards(bot, said):
    for i in range(3):
        ask(bot, ["Can I pick up my kid's things?", "can i pick up my kid's things", "CAN I PICK UP MY KID'S THINGS?!"][i],
            f"t{i}", "tdsb")
    ask(bot, "what colour is the principal's car", "t9", "tdsb")
    ask(bot, "do I owe the bus company a refund form", "p1", "pdsb")
    ask(bot, "is school open monday?", "t5", "tdsb")  # answered: not listed

    reply = said("/unanswered", user=TDSB_STAFF)
    lines = reply.splitlines()
    assert lines[1] == "3x Can I pick up my kid's things?"
    assert "1x what colour is the principal's car" in lines
    assert "refund" not in reply and "is school open" not in reply  # Peel's question; an answered one
    assert "/teach" in lines[-1]
    assert "refund" in said("/unanswered pdsb", user=ADMIN)
    assert "can only act for pdsb" in said("/unanswered tdsb", user=PDSB_STAFF)


def test_teach_previews_confirms_and_the_card_answers_at_once(bot, store, said):
    preview = said(LUNCH, user=TDSB_STAFF)
    assert preview.startswith("Preview: a new answer for tdsb")
    assert "Q: Are lunchrooms supervised?" in preview and "source TDSB letter of Oct 3" in preview
    assert not [c for c in store.knowledge().cards if c.author]
    done = said("/confirm", user=TDSB_STAFF)
    assert done.startswith('Done: I now answer "Are lunchrooms supervised?"')
    card = next(c for c in store.knowledge().cards_at(THURSDAY + timedelta(seconds=1)) if c.author)
    assert (card.boards, card.answer, card.source) == (("tdsb",), "Yes: lunch supervision continues at TDSB schools.",
                                                      "TDSB letter of Oct 3")
    assert card.author == f"test:{TDSB_STAFF}" and "TDSB letter of Oct 3" in store.knowledge().sources
    assert store.audit_rows(1)[0]["action"] == "teach"


def test_teach_is_forgiving_and_says_how_when_it_cannot_read(said, store):
    # New lines instead of bars, no board (staff of one board teach for it), extra wordings and details.
    preview = said("/teach Is the pool open?\nNo: pools are closed during the strike.\nalso: swimming; pool closed?\n"
                   "Lessons resume after.", user=TDSB_STAFF)
    assert "a new answer for tdsb" in preview and "Also asked as: swimming; pool closed?" in preview
    assert "More: Lessons resume after." in preview
    usage = said("/teach tdsb | only a question?", user=TDSB_STAFF)
    assert "I need the question and its answer" in usage and "Usage: /teach BOARD | QUESTION | ANSWER" in usage
    assert "can only act for tdsb" in said("/teach pdsb | Q? | A.", user=TDSB_STAFF)
    assert "can only act for tdsb" in said("/teach all | Q? | A.", user=TDSB_STAFF)
    assert "Usage: /teach" in said("/teach", user=TDSB_STAFF)


def test_kb_export_writes_a_pack_that_kb_load_reads(said, store, settings, tmp_path, capsys):
    said(LUNCH, user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)
    said("/setstatus tdsb closed from monday: Closed Monday", user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)
    said("/teach tdsb | Undone question? | Undone answer.", user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)
    said("/undo", user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)

    out = tmp_path / "chat.yaml"
    assert main(["kb", "export", "--db", settings.database.path, str(out)]) == 0
    assert "1 cards, 1 statuses" in capsys.readouterr().out
    pack = yaml.safe_load(out.read_text())
    assert [c["question"] for c in pack["cards"]] == ["Are lunchrooms supervised?"]
    loaded = load_knowledge(out, store.knowledge().boards)
    assert loaded.cards[0].answer.startswith("Yes: lunch supervision") and loaded.statuses[0].summary == "Closed Monday"
    # ... and loads into a fresh database with `kb load`.
    fresh = str(tmp_path / "fresh.db")
    assert main(["kb", "load", "--db", fresh, str(out)]) == 0
    assert "1 cards" in capsys.readouterr().out


def test_whoami_says_exactly_how_to_become_an_admin(said):
    reply = said("/whoami", user="5001")
    assert "schoolbot grant test:5001 province" in reply and "/grant test:5001 province" in reply
    assert "province admin" in said("/whoami", user=ADMIN)
