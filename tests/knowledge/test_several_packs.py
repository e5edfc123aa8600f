"""Statuses of several active packs: the newest applicable statement wins, across disputes too.

A status without an end, from a dispute that never ended (here the 2019 pack), stops applying
from the first day a newer statement of another dispute speaks for the same board or
province-wide: it does not come back after that statement's dates, nor after its dispute ended.
"""

from __future__ import annotations

from datetime import date, datetime

import pytest

from bot.app import build_bot
from knowledge.loader import load_knowledge_file
from tests.conftest import TORONTO, message

# A newer dispute with one-day statements only: nothing it says covers Wednesday, March 5.
ROTATING = """
pack:
  id: rotating-2031
  title: 2031 rotating strikes
  boards: all
  phases: [{id: rotating, name: rotating strikes}]
sources:
  - {file: memo-2031.txt, title: Ministry memo, published: 2031-03-01T10:00:00-05:00}
statuses:
  - {id: all-open-mon, board: all, from: 2031-03-03, until: 2031-03-03, status: open,
     summary: Schools are open Monday., source: memo-2031.txt}
  - {id: tdsb-closed-tue, board: tdsb, from: 2031-03-04, until: 2031-03-04, status: closed,
     summary: TDSB schools are closed Tuesday for a one-day strike., source: memo-2031.txt}
"""
# A dispute of one board: what it says for "all" is for its board only.
ONE_BOARD = """
pack:
  id: tdsb-only-2031
  title: 2031 TDSB custodians' strike
  boards: [tdsb]
sources:
  - {file: tdsb-2031.txt, title: TDSB letter, published: 2031-03-01T10:00:00-05:00}
statuses:
  - {id: all-closed, board: all, from: 2031-03-03, status: closed, summary: Schools are closed., source: tdsb-2031.txt}
"""
AT = datetime(2031, 3, 2, 12, 0, tzinfo=TORONTO)  # a Sunday: both packs' news is out
MONDAY, TUESDAY, WEDNESDAY = date(2031, 3, 3), date(2031, 3, 4), date(2031, 3, 5)


@pytest.fixture
def two_packs(store, tmp_path):
    """The 2019 pack (never ended; its boards' statuses run "until further notice") and a newer one, both active."""
    path = tmp_path / "rotating-2031.yaml"
    path.write_text(ROTATING)
    load_knowledge_file(store, path)
    store.use_packs(["rotating-2031", "cupe-2019"])
    return store


def ask(settings, store, shared_matcher, text: str) -> str:
    bot = build_bot(settings, store=store, clock=lambda: AT, matcher=shared_matcher)
    return "\n".join(r.text for r in bot.handle(message(text, at=AT)))


def test_the_newer_packs_status_wins_and_the_older_never_comes_back(two_packs):
    knowledge = two_packs.knowledge()
    old_own, old_general = knowledge.status_for("tdsb", MONDAY, datetime(2031, 2, 1, tzinfo=TORONTO))
    assert old_own.id == "tdsb-full-strike" and old_general.id == "all-full-strike"  # before the newer news
    own, general = knowledge.status_for("tdsb", MONDAY, AT)
    assert own.id == general.id == "all-open-mon"  # the newer province-wide statement is the board's word
    own, _ = knowledge.status_for("tdsb", TUESDAY, AT)
    assert own.id == "tdsb-closed-tue"
    assert knowledge.status_for("tdsb", WEDNESDAY, AT) == (None, None)  # not 2019's "until further notice"
    assert knowledge.status_for("pdsb", WEDNESDAY, AT) == (None, None)  # the newer province-wide word spoke for Peel too
    own, _ = knowledge.status_for("pdsb", date(2019, 10, 7), AT)
    assert own.id == "pdsb-full-strike"  # for the days before the newer statements, 2019's word still stands


def test_parents_are_not_given_the_old_disputes_status(settings, two_packs, shared_matcher):
    reply = ask(settings, two_packs, shared_matcher, "is school open wednesday in tdsb?")
    assert reply.startswith("I have no confirmed information from TDSB for Wednesday, March 5.")
    assert "2019" not in reply and "No decision yet" not in reply
    reply = ask(settings, two_packs, shared_matcher, "is school open tuesday in tdsb?")
    assert reply.startswith("TDSB, Tuesday, March 4: closed.")
    assert reply.endswith("(From: 2031 rotating strikes.)")  # which dispute the fact belongs to


def test_a_pack_of_one_board_does_not_speak_for_the_others(store, tmp_path):
    path = tmp_path / "tdsb-only-2031.yaml"
    path.write_text(ONE_BOARD)
    load_knowledge_file(store, path)
    store.use_packs(["tdsb-only-2031", "cupe-2019"])
    knowledge = store.knowledge()
    own, general = knowledge.status_for("tdsb", WEDNESDAY, AT)
    assert own.id == general.id == "all-closed"
    own, general = knowledge.status_for("pdsb", WEDNESDAY, AT)
    assert own.id == "pdsb-full-strike" and general.id == "all-full-strike"  # the TDSB strike says nothing of Peel


def test_an_ended_packs_statuses_stop_after_its_end_unless_said_after_it(store):
    load_knowledge_file(store, "config/knowledge/cupe-2022-walkout.yaml")
    store.use_packs(["cupe-2022-walkout"])
    knowledge = store.knowledge()  # ended 2022-11-20 20:00 in its header
    at = datetime(2022, 11, 25, 8, 0, tzinfo=TORONTO)
    own, _ = knowledge.status_for("pdsb", date(2022, 11, 18), at)
    assert own.id == "pdsb-reopen-nov-8"  # up to the end, what was said applies
    own, general = knowledge.status_for("pdsb", date(2022, 11, 21), at)
    assert own.id == general.id == "all-deal-open-nov-21"  # said at the end, for the days after it
    assert all(s.id != "all-second-notice-nov-21" for s in (own, general))  # a strike notice said before the end


def test_after_the_newer_dispute_ends_in_chat_the_older_ones_status_stays_gone(settings, two_packs, shared_matcher):
    tuesday = datetime(2031, 3, 4, 18, 0, tzinfo=TORONTO)
    bot = build_bot(settings.replace("roles", province_admins=("test:1",)), store=two_packs, clock=lambda: tuesday,
                    matcher=shared_matcher)

    def ask(text: str, user: str = "u1") -> str:
        return "\n".join(r.text for r in bot.handle(message(text, user=user, at=tuesday)))

    ask("/enddispute rotating-2031 today: The rotating strikes are over; schools are open as usual.", "1")
    assert ask("/confirm", "1").startswith("Done: 2031 rotating strikes is listed as ended on Mar 4, 2031")
    knowledge = two_packs.knowledge()
    own, _ = knowledge.status_for("tdsb", TUESDAY, tuesday)
    assert own.id == "tdsb-closed-tue"  # up to the end, what was said applies
    assert knowledge.status_for("tdsb", WEDNESDAY, tuesday) == (None, None)  # nor 2019's word after the end
    reply = ask("is school open tomorrow in tdsb?")
    assert reply.startswith("I have no confirmed information from TDSB for tomorrow, Wednesday, March 5.\nThe rotating "
                            "strikes are over; schools are open as usual.")
