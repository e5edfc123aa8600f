"""Staff run a new dispute from chat: remote learning over a date range, events, ending a phase, into the active pack."""

from __future__ import annotations

from pathlib import Path

from knowledge.loader import load_knowledge_file
from knowledge.pack_export import export_whole_pack
from tests.admin.conftest import ADMIN, TDSB_STAFF

WALKOUT = Path("config/knowledge/cupe-2022-walkout.yaml")


def test_remote_learning_for_a_date_range_goes_into_the_active_pack(said, store):
    load_knowledge_file(store, WALKOUT)
    store.use_packs(["cupe-2022-walkout"])
    preview = said("/setstatus tdsb remote-learning from monday until tuesday: Classes are online Monday and Tuesday.",
                   TDSB_STAFF)
    assert "closed to students: learning is remote" in preview and "until" in preview
    assert "is now closed to students: learning is remote" in said("/confirm", TDSB_STAFF)
    status = next(s for s in store.knowledge().statuses if s.author)
    assert status.pack == "cupe-2022-walkout" and status.status == "remote_learning" and status.until is not None
    exported = export_whole_pack(store, "cupe-2022-walkout")
    assert any(s["id"] == status.id and s["status"] == "remote_learning" for s in exported["statuses"])
    assert exported["pack"]["id"] == "cupe-2022-walkout" and len(exported["cards"]) == 39
    assert said("/undo", TDSB_STAFF).startswith("Preview: undo")
    said("/confirm", TDSB_STAFF)
    assert all(s["id"] != status.id for s in export_whole_pack(store, "cupe-2022-walkout")["statuses"])


def test_pack_status_words_and_neutral_event_kinds(said, store):
    assert "I know:" in said("/setstatus tdsb half-days: Mornings only.", TDSB_STAFF)  # not a status of cupe-2019
    said("/addevent all law-passed today: The legislature passed the back-to-work bill.", ADMIN)
    said("/confirm", ADMIN)
    event = next(e for e in store.knowledge().timeline if e.author)
    assert event.kind == "law_passed" and event.pack == "cupe-2019"


def test_endphase_ends_the_phase_services_and_undo_brings_them_back(said, store):
    count = len(store.knowledge().services_withdrawn(store.knowledge().services[-1].published))
    assert "Which phase? I know:" in said("/endphase lunch", ADMIN)
    assert said("/endphase work-to-rule", TDSB_STAFF).startswith("Sorry, only a province admin")
    preview = said("/endphase work-to-rule", ADMIN)
    assert preview.startswith("Preview: mark the") and "work-to-rule phase" in preview
    assert "are listed as back to normal" in said("/confirm", ADMIN)
    knowledge = store.knowledge()
    assert all(s.ended is not None for s in knowledge.services if s.phase == "work_to_rule")
    said("/undo", ADMIN)
    said("/confirm", ADMIN)
    assert all(s.ended is None for s in store.knowledge().services if s.phase == "work_to_rule") and count
