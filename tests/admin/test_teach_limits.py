"""What /teach accepts (issue 23, item 10): a source of one short line that claims no authority it does not have,
and no card standing in for a board's status."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.admin.conftest import TDSB_STAFF
from tests.conftest import THURSDAY


def _taught(store) -> list:
    return [c for c in store.knowledge().cards_at(THURSDAY + timedelta(seconds=1)) if c.author]


def test_a_source_over_200_characters_is_refused(said, store):
    reply = said("/teach tdsb | Are lunchrooms supervised? | Yes. | source: " + "x" * 15_000, user=TDSB_STAFF)
    assert "The source is 15,000 characters long; the limit is 200." in reply
    assert said("/confirm", user=TDSB_STAFF).startswith("There is nothing to confirm")
    assert _taught(store) == []


@pytest.mark.parametrize("source", ["Ontario Ministry of Education (official)", "TDSB official letter",
                                    "Government of Ontario", "Ministère de l'Éducation"])
def test_a_source_cannot_claim_an_authority(said, store, source):
    reply = said(f"/teach tdsb | Are lunchrooms supervised? | Yes. | source: {source}", user=TDSB_STAFF)
    assert f"{source!r} is not a source staff may write" in reply
    assert _taught(store) == []


def test_a_pack_source_can_be_cited_by_its_title_or_file(said, store):
    source = next(iter(store.knowledge().sources.values()))
    preview = said(f"/teach tdsb | Are lunchrooms supervised? | Yes. | source: {source.title.upper()}", user=TDSB_STAFF)
    assert preview.startswith("Preview: a new answer for tdsb")
    said("/confirm", user=TDSB_STAFF)
    assert [c.source for c in _taught(store)] == [source.file]


@pytest.mark.parametrize("question", ["is school open", "Are TDSB schools open tomorrow?", "will my kids have school"])
def test_a_status_question_is_not_taught(said, store, question):
    reply = said(f"/teach tdsb | {question} | Yes, schools are open as usual.", user=TDSB_STAFF)
    assert "is not a question to teach: it asks whether school is open" in reply and "/setstatus" in reply
    assert _taught(store) == []


def test_the_board_status_answers_after_a_refused_status_card(said):
    said("/teach tdsb | is school open | Yes, schools are open as usual.", user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)
    said("/board tdsb")
    assert "open as usual" not in said("is school open")


@pytest.mark.parametrize("question", ["Is the pool open?", "Is the school library open?"])
def test_a_question_about_something_at_school_is_still_taught(said, store, question):
    preview = said(f"/teach tdsb | {question} | No: closed during the strike.", user=TDSB_STAFF)
    assert preview.startswith("Preview: a new answer for tdsb")
