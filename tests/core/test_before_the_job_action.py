"""Before a phase begins, nothing has stopped and school days need no other care: what a parent reads
in September, before work-to-rule (Sept. 30) and before any notice of a full strike (Oct. 2)."""

from datetime import datetime

import pytest

from tests.conftest import TORONTO


def at(month, day, hour=10):
    return datetime(2019, month, day, hour, tzinfo=TORONTO)


def first(say, text, when):
    return say(text, at=when).split("\n")[0]


@pytest.mark.parametrize("when, starts", [
    (at(9, 6), "Not now: no job action has started and schools are open."),
    (at(9, 25), "Not for now: CUPE plans to start with work-to-rule on Monday, Sept. 30, not a walkout"),
    (at(9, 30, 8), "Not for school days: under work-to-rule schools stay open and classes go on"),
    (at(10, 3), "Line up backup care now:"),
])
def test_do_i_need_child_care_follows_the_dispute(say, when, starts):
    assert first(say, "do i need childcare", when).startswith(starts)


def test_child_care_in_french_before_the_job_action(say):
    assert first(say, "faut-il trouver une gardienne?", at(9, 6)).startswith("Pas pour l'instant : aucun moyen de pression")


def test_services_announced_for_a_phase_to_come_have_not_stopped(say):
    """Sept. 6: the union warned what it could pull from late September; nothing had stopped."""
    assert first(say, "what stopped", at(9, 6)).startswith(
        "Nothing has stopped yet. If the work-to-rule begins, workers plan to stop some tasks, for example:")
    assert first(say, "quels services sont arrêtés?", at(9, 6)).startswith("Rien n'est encore arrêté.")
    assert first(say, "what stopped", at(9, 30, 8)).startswith("During the work-to-rule, workers stopped")


def test_school_is_open_before_any_job_action_but_not_promised_past_the_legal_date(say):
    """Sept. 6: no job action yet, so Monday is open; Sept. 23 (the earliest legal date) is not confirmed."""
    assert first(say, "is school open monday in peel", at(9, 6)).startswith("Peel DSB, Monday, September 9: open")
    assert first(say, "is school open sept 23 in peel", at(9, 6)).startswith("I have no confirmed information")


def test_tomorrow_on_a_friday_with_no_board_says_it_is_the_weekend_first(say):
    reply = say("is school open tomorrow?", at=at(10, 4)).split("\n")
    assert reply[0] == "Tomorrow, Saturday, October 5 is on the weekend: no school."
    assert reply[1].startswith("Monday, October 7, province-wide: not confirmed")
