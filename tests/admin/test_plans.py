"""Staff actions as plans: stored typed for /confirm, applied with their audit row, undone; one preview for chat
and the command line."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from bot.admin.plans import PLAN_VERSION
from tests.admin.conftest import TDSB_STAFF
from tests.admin.test_admin import subscribe_parents
from tests.conftest import THURSDAY, TORONTO, message


def _pending(store, user: str) -> dict:
    return store.admin.latest_pending("test", user)["action"]


def test_a_status_plan_round_trips_from_preview_to_undo(bot, store, said):
    preview = said("/setstatus tdsb closed from monday until tuesday: Schools closed Monday and Tuesday", user=TDSB_STAFF)
    assert preview.startswith("Preview: Toronto District School Board (TDSB) from Monday, October 7 until Tuesday")
    stored = _pending(store, TDSB_STAFF)
    assert stored["version"] == PLAN_VERSION and stored["kind"] == "status"
    assert (stored["actor"], stored["board"], stored["status"]) == (f"test:{TDSB_STAFF}", "tdsb", "closed")
    assert (stored["start"], stored["until"], stored["at"]) == ("2019-10-07", "2019-10-08", THURSDAY.isoformat())
    assert stored["source"] == "TDSB staff update" and stored["before"]["board"] == "tdsb"

    done = said("/confirm", user=TDSB_STAFF)
    assert done.startswith("Done: Toronto District School Board (TDSB) is now closed from Mon Oct 7.")
    audit = store.audit_rows(1)[0]
    assert (audit["action"], audit["target"]) == ("setstatus", "tdsb")
    assert json.loads(audit["before"]) == stored["before"]
    assert json.loads(audit["after"])["summary"] == "Schools closed Monday and Tuesday"
    assert "closed" in said("is school open monday in tdsb?").lower()

    assert said("/undo", user=TDSB_STAFF).startswith("Preview: undo change #")
    assert said("/confirm", user=TDSB_STAFF).startswith("Undone: change #")
    assert store.audit_rows(1)[0]["action"] == "undo status"
    assert "Schools closed Monday and Tuesday" not in said("is school open monday in tdsb?")


def test_a_broadcast_plan_is_stored_typed_and_queued_with_its_audit_row(bot, store):
    subscribe_parents(store, "tdsb", 2)
    store.subscribe("test", "fr-parent", "tdsb", "private", "fr-parent", "fr")
    text = "Buses run late. fr: Les autobus sont en retard."
    preview = bot.handle(message(f"/broadcast tdsb {text}", user=TDSB_STAFF, name="Dana"))[0].text
    assert "----- in English (2) -----" in preview and "----- in French (1) -----" in preview
    stored = _pending(store, TDSB_STAFF)
    assert stored["version"] == PLAN_VERSION and stored["kind"] == "broadcast" and stored["body"] == text
    assert stored["recipients"] == {"platforms": [["test", 3]], "languages": [["en", 2], ["fr", 1]]}
    assert stored["written_in"] == ["en", "fr"]

    later = THURSDAY + timedelta(minutes=5)
    reply = bot.handle(message("/confirm", user=TDSB_STAFF, name="Dana", at=later))[0].text
    assert reply.startswith("Broadcast #1 queued for 3 recipients")
    audit = store.audit_rows(1)[0]
    assert (audit["action"], audit["platform"], audit["user_id"], audit["name"]) == ("broadcast", "test", TDSB_STAFF,
                                                                                   "Dana")
    assert audit["at"] == later.isoformat() and audit["real_at"] is not None
    assert json.loads(audit["after"]) == {"broadcast": 1, "board": "tdsb", "recipients": 3, "text": text}
    created, body, text_fr = store.conn.execute("SELECT created, body, text_fr FROM broadcasts").fetchone()
    assert created == later.isoformat() and body == text and "Les autobus sont en retard." in text_fr


def test_a_pending_action_stored_before_plans_is_still_confirmed(bot, store, said):
    """A preview made by the version before plans (a plain dict), confirmed after the upgrade."""
    store.admin.propose("test", TDSB_STAFF, TDSB_STAFF, {"kind": "status", "board": "tdsb", "status": "closed",
                                                         "start": "2019-10-07", "until": None, "note": "Closed"},
                        THURSDAY)
    assert said("/confirm", user=TDSB_STAFF).startswith("Done: Toronto District School Board (TDSB) is now closed")
    subscribe_parents(store, "tdsb", 1)
    store.admin.propose("test", TDSB_STAFF, TDSB_STAFF, {"kind": "broadcast", "board": "tdsb", "body": "Hi",
                                                         "text": "Official update: Hi", "text_fr": None}, THURSDAY)
    assert said("/confirm", user=TDSB_STAFF).startswith("Broadcast #1 queued for 1 recipient")
    assert store.conn.execute("SELECT text, text_fr FROM broadcasts").fetchone() == ("Official update: Hi",
                                                                                     "Official update: Hi")


def test_chat_and_command_line_preview_the_same_broadcast_with_the_same_text(bot, store, settings, capsys,
                                                                            monkeypatch):
    from adapters.cli import main

    subscribe_parents(store, "tdsb", 2)
    store.subscribe("test", "fr-parent", "tdsb", "private", "fr-parent", "fr")
    monkeypatch.setattr("sys.stdin.isatty", lambda: False, raising=False)
    for _ in range(3):  # the header names the minute: try again if the clock turned a minute meanwhile
        at = datetime.now(TORONTO)
        # Without --yes and no terminal, the command line shows the preview and sends nothing.
        assert main(["broadcast", "--db", settings.database.path, "--board", "tdsb", "--text", "Buses run late."]) == 2
        printed = capsys.readouterr().out
        if datetime.now(TORONTO).replace(second=0, microsecond=0) == at.replace(second=0, microsecond=0):
            break
    said = bot.handle(message("/broadcast tdsb Buses run late.", user=TDSB_STAFF, at=at))[0].text
    preview, _, ask = said.rpartition("\n\n")
    assert ask == "Send /confirm to apply it, or /cancel."
    assert printed == preview + "\n"
    assert "French-speaking subscribers (1) get it in English, under a French header" in preview
    assert store.conn.execute("SELECT COUNT(*) FROM broadcasts").fetchone()[0] == 0


def test_an_event_plan_round_trips_and_an_old_event_preview_is_still_confirmed(bot, store, said):
    preview = said("/addevent tdsb talks friday: Talks resume", user=TDSB_STAFF)
    stored = _pending(store, TDSB_STAFF)
    assert stored["version"] == PLAN_VERSION and stored["kind"] == "event"
    assert (stored["board"], stored["event"], stored["day"], stored["text"]) == ("tdsb", "bargaining", "2019-10-04",
                                                                                 "Talks resume")
    assert "Talks resume" in preview and said("/confirm", user=TDSB_STAFF).startswith("Done")
    audit = store.audit_rows(1)[0]
    assert (audit["action"], audit["before"], json.loads(audit["after"])["text"]) == ("addevent", None, "Talks resume")
    assert said("/undo", user=TDSB_STAFF).startswith("Preview: undo change #")
    assert said("/confirm", user=TDSB_STAFF).startswith("Undone: change #")
    assert store.audit_rows(1)[0]["action"] == "undo event"

    store.admin.propose("test", TDSB_STAFF, TDSB_STAFF, {"kind": "event", "board": "tdsb", "event": "deal",
                                                         "day": "2019-10-06", "text": "A deal"}, THURSDAY)
    assert said("/confirm", user=TDSB_STAFF).startswith("Done")
    assert any(e.text == "A deal" and e.kind == "deal" for e in store.knowledge().timeline)


def test_a_service_plan_round_trips(bot, store, said):
    assert "Custodians" in said("/addservice tdsb Custodians: no extra cleaning", user=TDSB_STAFF)
    stored = _pending(store, TDSB_STAFF)
    assert stored["version"] == PLAN_VERSION and stored["kind"] == "service"
    assert (stored["workers"], stored["service"], stored["source"]) == ("Custodians", "no extra cleaning",
                                                                        "TDSB staff update")
    assert said("/confirm", user=TDSB_STAFF).startswith("Done")
    assert store.audit_rows(1)[0]["action"] == "addservice"
    assert said("/undo", user=TDSB_STAFF).startswith("Preview: undo change #")
    assert said("/confirm", user=TDSB_STAFF).startswith("Undone: change #")
    assert store.audit_rows(1)[0]["action"] == "undo service"
