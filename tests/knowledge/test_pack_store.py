"""Packs in a database: switching, several active, validity windows, old news, a pack the code never saw."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from bot.app import build_bot, open_knowledge
from knowledge.loader import load_knowledge_file, validate_knowledge_file
from knowledge.loading import LoadError
from knowledge.pack_export import export_whole_pack
from tests.conftest import TORONTO, message

WALKOUT = Path("config/knowledge/cupe-2022-walkout.yaml")

# A dispute the code has never seen: a lockout with its own phase and status words.
LOCKOUT = """
pack:
  id: lockout-2031
  title: 2031 lockout of school support staff
  boards: [tdsb]
  phases:
    - {id: lockout, name: lockout, name_fr: lock-out}
  statuses:
    - {id: half_days, words: "open mornings only; afternoons at home", words_fr: "ouvert le matin seulement"}
  topics:
    - {id: lunch_program, intent: childcare}
  examples: [is there school in the afternoon?]
  note: Bus drivers are not locked out.
sources:
  - {file: memo.txt, title: Board memo, published: 2031-03-01T10:00:00-05:00}
statuses:
  - {id: tdsb-half, board: tdsb, from: 2031-03-02, until: 2031-03-06, status: half_days,
     summary: TDSB schools open mornings only this week., source: memo.txt}
  - {id: all-open-later, board: all, from: 2031-03-05, status: open, summary: Schools reopen fully.,
     source: memo.txt, published: 2031-03-04T18:00:00-05:00}
withdrawn_services:
  - {id: lunch, workers: lunchroom supervisors, service: lunch supervision, phase: lockout, source: memo.txt,
     from: 2031-03-02, until: 2031-03-04}
facts:
  - {id: lunch-fact, topic: lunch_program, text: The lunch program is cancelled during the lockout., source: memo.txt}
"""


@pytest.fixture
def lockout(tmp_path) -> Path:
    path = tmp_path / "lockout-2031.yaml"
    path.write_text(LOCKOUT)
    return path


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=TORONTO)


def ask(settings, store, shared_matcher, text: str, when: datetime, **kw) -> str:
    bot = build_bot(settings, store=store, clock=lambda: when, matcher=shared_matcher)
    return "\n".join(r.text for r in bot.handle(message(text, at=when, **kw)))


def test_loading_a_second_pack_neither_mixes_nor_activates_it(store):
    counts = load_knowledge_file(store, WALKOUT)
    assert counts["cards"] == 39 and store.active_pack_ids() == ["cupe-2019"]
    again = load_knowledge_file(store, WALKOUT)  # loading twice changes nothing
    assert again == counts and [p["counts"] for p in store.packs()][1]["statuses"] == 27
    knowledge = store.knowledge()
    assert {s.pack for s in knowledge.statuses} == {"cupe-2019"}
    store.use_packs(["cupe-2022-walkout"])
    knowledge = store.knowledge()
    assert {c.pack for c in knowledge.cards} == {"cupe-2022-walkout"}
    assert "teachers-not-striking" in knowledge.card_by_id  # an id the 2019 pack uses too: ids are per pack
    assert knowledge.card_by_id["teachers-not-striking"].pack == "cupe-2022-walkout"


def test_switching_packs_changes_the_answers(settings, store, shared_matcher):
    load_knowledge_file(store, WALKOUT)
    store.use_packs(["cupe-2022-walkout"])
    reply = ask(settings, store, shared_matcher, "is school open friday in peel?", at("2022-11-03T22:00:00"))
    assert reply.startswith("Peel DSB, tomorrow, Friday, November 4: closed to students: learning is remote.")
    store.use_packs(["cupe-2019"])
    reply = ask(settings, store, shared_matcher, "is school open friday in peel?", at("2022-11-03T22:00:00"))
    assert "I have no information about a job action at Peel District School Board right now" in reply
    assert "2019 CUPE education workers' job action" in reply


def test_opening_never_loads_the_shipped_pack_over_a_chosen_one(settings, store):
    load_knowledge_file(store, WALKOUT)
    store.remove_pack("cupe-2019")
    store.use_packs(["cupe-2022-walkout"])
    store.conn.execute("DELETE FROM meta WHERE key = 'default_digest'")  # as if the shipped file changed
    store.close()
    reopened = open_knowledge(settings)
    assert [p["id"] for p in reopened.packs()] == ["cupe-2022-walkout"]
    assert reopened.active_pack_ids() == ["cupe-2022-walkout"]
    reopened.close()


def test_several_active_packs_name_the_dispute(settings, store, shared_matcher):
    load_knowledge_file(store, WALKOUT)
    store.use_packs(["cupe-2022-walkout", "cupe-2019"])
    reply = ask(settings, store, shared_matcher, "what is bill 28?", at("2022-11-10T10:00:00"))
    assert "(From: November 2022 CUPE education workers' walkout.)" in reply
    assert store.staff_pack() == "cupe-2022-walkout"


def test_a_pack_with_a_phase_and_a_status_the_code_never_saw(settings, store, shared_matcher, lockout):
    kfile = validate_knowledge_file(store, lockout)
    assert kfile.pack.phase("lockout").name == "lockout" and any("no French text" in w for w in kfile.warnings)
    load_knowledge_file(store, lockout)
    store.use_packs(["lockout-2031"])
    reply = ask(settings, store, shared_matcher, "is school open tuesday in tdsb?", at("2031-03-02T08:00:00"))
    assert "TDSB, Tuesday, March 4: open mornings only; afternoons at home." in reply
    reply = ask(settings, store, shared_matcher, "what services stopped?", at("2031-03-02T08:00:00"))
    assert "During the lockout" in reply and "lunchroom supervisors" in reply
    assert store.knowledge().facts[0].topic == "childcare"  # the pack's topic answers as its intent
    help_text = ask(settings, store, shared_matcher, "/help", at("2031-03-02T08:00:00"))
    assert "2031 lockout of school support staff" in help_text and "is there school in the afternoon?" in help_text
    assert "2019" not in help_text.split("Commands:")[0]
    french = ask(settings, store, shared_matcher, "/aide", at("2031-03-02T08:00:00"))  # no examples_fr in the pack
    assert "- « l'école est-elle ouverte lundi? »" in french.split("Commandes :")[0]  # generic French ones instead
    assert "is there school in the afternoon?" not in french


def test_validity_windows_and_the_newest_statement(store, lockout):
    load_knowledge_file(store, lockout)
    store.use_packs(["lockout-2031"])
    knowledge = store.knowledge()
    own, _ = knowledge.status_for("tdsb", at("2031-03-04T00:00").date(), at("2031-03-03T12:00"))
    assert own.id == "tdsb-half"
    # Published later and covering Thursday: the province-wide statement wins over the board's own.
    own, general = knowledge.status_for("tdsb", at("2031-03-05T00:00").date(), at("2031-03-05T08:00"))
    assert own.id == general.id == "all-open-later"
    assert [s.id for s in knowledge.services_withdrawn(at("2031-03-03T12:00"))] == ["lunch"]
    assert knowledge.services_withdrawn(at("2031-03-05T12:00")) == []  # past its `until`
    assert [s.id for s in knowledge.services_ended(at("2031-03-05T12:00"))] == ["lunch"]


def test_old_news_is_said_first_and_no_status_for_a_day_no_pack_covers(settings, store, shared_matcher):
    reply = ask(settings, store, shared_matcher, "is school open friday in peel?", at("2019-10-07T07:30:00"))
    assert reply.startswith("My latest news is from Oct 2, 2019, 5 days ago: Peel DSB, ")
    fresh = ask(settings, store, shared_matcher, "is school open monday in peel?", at("2019-10-03T09:00:00"))
    assert fresh.startswith("Peel DSB, Monday")
    bot = build_bot(settings, store=store, clock=lambda: at("2019-10-03T09:00:00"), matcher=shared_matcher)
    meta = bot.handle(message("what services stopped?", at=at("2019-10-03T09:00:00")))[0].meta
    assert meta["pack"] == "cupe-2019" and meta["news_as_of"] == "2019-10-02T20:00:00-04:00"
    reply = ask(settings, store, shared_matcher, "is school open monday in peel?", at("2026-11-23T07:30:00"))
    assert reply == ("I have no information about a job action at Peel District School Board right now. The last one "
                     "I know of is 2019 CUPE education workers' job action (my latest news of it is from Oct 2, 2019).")


def test_with_no_dispute_now_a_past_one_is_not_told_as_current(settings, store, shared_matcher):
    """'Are EAs on strike?' today: no 'Yes' from 2019. 'Why?' may tell the past, marked as such."""
    today = at("2026-11-23T07:30:00")
    who = ask(settings, store, shared_matcher, "are EAs on strike?", today)
    assert who.startswith("I have no information about a job action") and "Yes" not in who
    deal = ask(settings, store, shared_matcher, "is there a deal yet?", today)
    assert "\n" not in deal and "talks" not in deal.lower()
    why = ask(settings, store, shared_matcher, "why are they striking?", today)
    assert why.split("\n")[1] == "What I knew of it then:" and "job security" in why
    # A question the bot does not follow gets the answer that holds anyway, not "back then: I'm not sure".
    unclear = ask(settings, store, shared_matcher, "zorblax quux?", today)
    assert unclear.startswith("I have no information about a job action") and "\n" not in unclear


def test_an_ended_dispute_says_so_and_drops_the_strike_note(settings, store, shared_matcher):
    load_knowledge_file(store, WALKOUT)
    store.use_packs(["cupe-2022-walkout"])
    reply = ask(settings, store, shared_matcher, "is school open monday in peel?", at("2022-11-20T21:00:00"))
    assert reply.split("\n")[1].startswith("The walkout took place on Nov. 4 and Nov. 7")  # after the day
    assert "could begin" not in reply
    who = ask(settings, store, shared_matcher, "are EAs on strike?", at("2022-11-25T12:00:00"))
    assert who.startswith("The walkout took place on Nov. 4 and Nov. 7")  # who was on strike: it is over
    later = ask(settings, store, shared_matcher, "is school open monday in peel?", at("2023-02-01T08:00:00"))
    assert later.startswith("I have no information about a job action") and "(it ended on Nov 20, 2022)" in later


def test_bad_packs_are_refused_whole(store, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(LOCKOUT.replace("status: half_days", "status: quarter_days").replace("phase: lockout", "phase: strike")
                   + "  - {id: x, topic: t, text: y, source: memo.txt, fr: {texte: z}}\n")
    with pytest.raises(LoadError) as error:
        load_knowledge_file(store, bad)
    problems = "\n".join(error.value.problems)
    assert "'quarter_days' is not one of" in problems and "'strike' is not one of: lockout" in problems
    assert "unknown French field(s) texte; known: text" in problems
    assert [p["id"] for p in store.packs()] == ["cupe-2019"]


def test_export_writes_a_pack_that_loads_back(store, tmp_path, lockout):
    import yaml

    load_knowledge_file(store, lockout)
    out = tmp_path / "again.yaml"
    out.write_text(yaml.safe_dump(export_whole_pack(store, "lockout-2031"), allow_unicode=True, sort_keys=False))
    store.remove_pack("lockout-2031")
    counts = load_knowledge_file(store, out)
    assert counts["statuses"] == 2 and counts["facts"] == 1 and counts["withdrawn_services"] == 1
    store.use_packs(["lockout-2031"])
    assert store.knowledge().facts[0].pack_topic == "lunch_program"


def test_an_old_database_becomes_one_active_pack(tmp_path):
    from knowledge.store import open_store

    path = tmp_path / "v3.db"
    conn = sqlite3.connect(path)
    conn.execute('CREATE TABLE meta ("key" TEXT PRIMARY KEY, "value" TEXT)')
    conn.execute("INSERT INTO meta VALUES ('schema_version', '3')")
    conn.execute('CREATE TABLE statuses ("id" TEXT, "board" TEXT, "start" TEXT, "until" TEXT, "status" TEXT, '
                 '"summary" TEXT, "source" TEXT, "published" TEXT, "author" TEXT, "retracted" TEXT, "origin" TEXT, '
                 'PRIMARY KEY (id))')
    conn.execute('CREATE TABLE facts ("id" TEXT, "topic" TEXT, "text" TEXT, "source" TEXT, "published" TEXT, '
                 '"origin" TEXT, PRIMARY KEY (id))')
    conn.execute("INSERT INTO statuses VALUES ('s1', 'tdsb', '2019-10-07', NULL, 'open', 'Open.', 'a.txt', "
                 "'2019-10-02T20:00:00-04:00', '', NULL, '/x/config/knowledge/cupe-2019.yaml')")
    conn.commit()
    conn.close()
    store = open_store(path)
    assert store.active_pack_ids() == ["cupe-2019"]
    assert [s.id for s in store.knowledge().statuses] == ["s1"]
    store.close()


def test_french_texts_are_kept_and_the_pack_note_is_said(settings, store, shared_matcher, lockout):
    knowledge = store.knowledge()
    assert all(f.fr and f.fr["text"] for f in knowledge.facts)  # the shipped 2019 pack has French on every fact
    assert next(iter(knowledge.sources.values())).fr["title"]
    assert knowledge.statuses[0].fr["summary"] and knowledge.services[0].fr["service"]
    load_knowledge_file(store, lockout)
    store.use_packs(["lockout-2031"])
    reply = ask(settings, store, shared_matcher, "who is taking part in the job action?", at("2031-03-02T08:00:00"))
    assert reply.endswith("Note: Bus drivers are not locked out.")


def test_a_status_of_an_ended_dispute_does_not_speak_for_later_days(store):
    load_knowledge_file(store, WALKOUT)
    store.use_packs(["cupe-2022-walkout", "cupe-2019"])
    knowledge = store.knowledge()
    own, general = knowledge.status_for("pdsb", at("2022-11-10T00:00").date(), at("2022-11-10T08:00"))
    assert own.id == "pdsb-reopen-nov-8"  # the 2022 statement, not 2019's "until further notice"
    own, general = knowledge.status_for("pdsb", at("2022-11-21T00:00").date(), at("2022-11-21T08:00"))
    assert general.id == "all-deal-open-nov-21"  # made for the days after the end: still said
    own, general = knowledge.status_for("pdsb", at("2022-12-05T00:00").date(), at("2022-12-05T08:00"))
    assert own is None or own.pack == "cupe-2022-walkout"


def test_old_news_and_no_current_dispute_in_french(settings, store, shared_matcher):
    reply = ask(settings, store, shared_matcher, "l'école est-elle ouverte vendredi à peel", at("2019-10-07T07:30:00"))
    assert reply.startswith("Nouvelles du 2 octobre 2019 (il y a 5 jours) : Peel DSB, ")
    reply = ask(settings, store, shared_matcher, "l'école est-elle ouverte lundi à peel", at("2026-11-23T07:30:00"))
    assert reply.startswith("Je n'ai aucune information sur des moyens de pression à Peel District School Board")


def test_a_topic_the_intents_leave_out_is_answered_from_a_status_that_speaks_of_it(settings, store, shared_matcher):
    """Buses are 'no information' in 2019; a pack that speaks of them (its bus card, its statuses) answers them,
    with no "I have no information on buses" after its own answer."""
    load_knowledge_file(store, Path("tests/data/packs/rotating-2027.yaml"))
    store.use_packs(["octf-2027-rotating"])
    reply = ask(settings, store, shared_matcher, "is the bus running wednesday in thames valley",
                at("2027-04-19T20:00:00"))
    assert reply.startswith("Thames Valley DSB, Wednesday, April 21: closed to students")
    assert "buses for a board's students are cancelled" in reply and "I have no information" not in reply
    other = ask(settings, store, shared_matcher, "is the bus running wednesday", at("2027-04-19T20:00:00"))
    assert other.startswith("No: buses for a board's students are cancelled on that board's strike day")  # its card


def test_a_reply_cut_to_fit_a_phone_keeps_what_the_parent_s_board_said(settings, store, shared_matcher):
    """A long child-care answer is cut to its first clauses, but not the clause naming the board asked about."""
    load_knowledge_file(store, Path("tests/data/packs/rotating-2027.yaml"))
    store.use_packs(["octf-2027-rotating"])
    reply = ask(settings, store, shared_matcher, "le service de garde du OCDSB mardi, c'est ouvert pareil?",
                at("2027-04-23T12:40:00"))
    assert "l'OCDSB offre son programme de jour prolongé" in reply
