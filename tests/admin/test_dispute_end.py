"""/enddispute: a province admin ends a whole dispute from chat; parents see it at once; /undo reopens it."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from bot.app import build_bot
from bot.messages import ChatKind
from knowledge.loader import load_knowledge_file
from knowledge.pack_export import export_whole_pack
from tests.admin.conftest import ADMIN, PARENT, TDSB_STAFF
from tests.conftest import TORONTO, message

DEAL = "The job action ended on Oct 3 with a tentative deal; schools are open as usual."
TODAY = "is school open today in tdsb?"  # Thursday Oct 3: open with reduced services, and a note of the strike to come


def test_a_province_admin_ends_the_dispute_from_chat_and_undo_reopens_it(said, store):
    before = said(TODAY)
    assert "Note: A full strike could begin on Monday" in before and DEAL not in before
    refused = said(f"/enddispute today: {DEAL}", TDSB_STAFF)  # one board's staff: not a whole dispute
    assert refused == "Sorry, only a province admin can use /enddispute. Nothing was changed."
    assert said(f"/enddispute today: {DEAL}", PARENT).startswith("Sorry, that command is only for")

    preview = said(f'/enddispute today: "{DEAL}"', ADMIN)
    assert preview.startswith("Preview: mark 2019 CUPE education workers' job action as ended on Oct 3, 2019.")
    assert f"\n{DEAL}\n" in preview and preview.endswith("Send /confirm to apply it, or /cancel.")
    assert said(TODAY) == before  # a preview changes nothing
    done = said("/confirm", ADMIN)
    assert done.startswith("Done: 2019 CUPE education workers' job action is listed as ended on Oct 3, 2019")

    now = said(TODAY)
    assert now.split("\n")[1] == DEAL and "could begin" not in now  # the day first, then the end
    monday = said("is school open monday in tdsb?")  # said before the end, for a day after it: no longer applies
    assert monday.split("\n")[1] == DEAL and "I have no confirmed information from TDSB" in monday
    header = export_whole_pack(store, "cupe-2019")["pack"]
    assert header["end_text"] == DEAL and header["ended"].startswith("2019-10-03T09:00:00")
    assert store.packs()[0]["ended"].startswith("2019-10-03T09:00:00")  # what `schoolbot kb list` shows
    audit = store.audit_rows(1)[0]
    assert audit["action"] == "enddispute" and audit["target"] == "cupe-2019"

    assert said("/undo", ADMIN).startswith("Preview: undo change #1 (enddispute)")
    assert said("/confirm", ADMIN).endswith("The dispute is on again in answers.")
    assert said(TODAY) == before
    assert "ended" not in export_whole_pack(store, "cupe-2019")["pack"]
    assert store.packs()[0]["ended"] is None
    assert store.audit_rows(1)[0]["action"] == "undo enddispute"


def test_a_day_before_today_with_a_french_text_and_the_standard_sentence(said, store):
    said("/enddispute oct 2: The strike was called off on Oct 2. | fr: La grève a été annulée le 2 octobre.", ADMIN)
    said("/confirm", ADMIN)
    end = store.knowledge().pack_ends[0]
    assert end.ended == datetime(2019, 10, 2, 23, 59, tzinfo=TORONTO) and end.fr == {"text": "La grève a été annulée le 2 octobre."}
    assert said("l'école est-elle ouverte aujourd'hui à tdsb?").split("\n")[1] == "La grève a été annulée le 2 octobre."
    said("/enddispute cupe-2019 today", ADMIN)  # no text: the standard sentence; the newer end replaces the other
    said("/confirm", ADMIN)
    assert said(TODAY).split("\n")[1] == "The job action ended on Oct 3, 2019; schools are open as usual."


def test_what_enddispute_refuses(said, store):
    assert "has not come yet" in said("/enddispute friday: Over.", ADMIN)
    assert said("/enddispute", ADMIN).startswith("Tell me the day the dispute ended")
    assert "before the dispute started (Sep 30, 2019)" in said("/enddispute sep 2: Over.", ADMIN)
    assert "at most 300" in said("/enddispute today: " + "x" * 301, ADMIN)
    assert "only in a private chat" in said("/enddispute today: Over.", ADMIN, kind=ChatKind.GROUP)
    assert store.knowledge().pack_ends == [] and store.admin.latest_change("test", ADMIN) is None


def test_an_end_from_chat_stays_when_the_pack_file_is_loaded_again(said, store):
    said(f"/enddispute today: {DEAL}", ADMIN)
    said("/confirm", ADMIN)
    load_knowledge_file(store, Path("config/knowledge/cupe-2019.yaml"))
    assert said(TODAY).split("\n")[1] == DEAL


# A dispute alongside the 2022 walkout, with newer news than it.
TEACHERS = """
pack: {id: teachers-2022, title: 2022 teachers' work-to-rule, boards: all}
sources:
  - {file: teachers.txt, title: Union bulletin, published: 2022-11-03T21:30:00-04:00}
cards:
  - {id: t1, topic: negotiations, question: Are the teachers' talks going on?, source: teachers.txt,
     answer: "Yes: the teachers' union and the province meet again Monday.",
     phrasings: [are the teachers talks going on, teachers union talks, when do the teachers talks resume,
                 are teachers bargaining, teachers negotiations news]}
"""


def test_with_two_active_packs_the_named_one_ends_and_the_other_goes_on(settings, store, shared_matcher, tmp_path):
    teachers = tmp_path / "teachers-2022.yaml"
    teachers.write_text(TEACHERS)
    load_knowledge_file(store, Path("config/knowledge/cupe-2022-walkout.yaml"))
    load_knowledge_file(store, teachers)
    store.use_packs(["cupe-2022-walkout", "teachers-2022"])
    when = datetime(2022, 11, 3, 22, 0, tzinfo=TORONTO)
    bot = build_bot(settings, store=store, clock=lambda: when, matcher=shared_matcher)

    def ask(text: str, user: str = PARENT) -> str:
        return "\n".join(r.text for r in bot.handle(message(text, user=user, at=when)))

    friday = ask("is school open friday in peel?")
    assert friday.startswith("Peel DSB, tomorrow, Friday, November 4: closed to students")
    ask("/enddispute teachers-2022 today: The teachers' work-to-rule is over.", ADMIN)
    assert ask("/confirm", ADMIN).startswith("Done: 2022 teachers' work-to-rule is listed as ended")
    assert store.knowledge().pack_ends[0].pack == "teachers-2022"
    assert ask("is school open friday in peel?") == friday  # the walkout goes on: the other's end does not lead
    talks = ask("any news on the teachers talks?")  # an answer of the ended dispute: its end first
    assert talks.startswith("The teachers' work-to-rule is over.\nYes: the teachers' union")
    assert talks.endswith("(From: 2022 teachers' work-to-rule.)")
