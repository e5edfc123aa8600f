"""/undo takes back the asker's latest change whatever its kind; the audit reads as a table, JSON or chat lines."""

from __future__ import annotations

import getpass
import json

from adapters.cli import main
from tests.admin.conftest import ADMIN, PARENT, TDSB_STAFF
from tests.conftest import message


def confirm(said, command: str, user: str) -> str:
    assert "Preview" in said(command, user=user), command
    reply = said("/confirm", user=user)
    assert reply.startswith("Done"), reply
    return reply


def test_undo_after_a_grant_takes_back_the_grant_not_the_earlier_status(store, said):
    confirm(said, "/setstatus tdsb closed from monday: Closed Monday", ADMIN)
    confirm(said, "/grant test:42 tdsb", ADMIN)
    assert said("/whoami", user="42").count("board staff for tdsb") == 1

    preview = said("/undo", user=ADMIN)
    assert "grant test:42" in preview
    reply = said("/confirm", user=ADMIN)
    assert reply.startswith("Undone") and "test:42 is no admin role again" in reply
    assert store.admin.grant_of("test", "42") is None
    assert any(s.summary == "Closed Monday" and s.retracted is None for s in store.knowledge().statuses)

    # The next /undo reaches the status change.
    assert "closed" in said("/undo", user=ADMIN)
    assert said("/confirm", user=ADMIN).startswith("Undone")
    assert all(s.retracted is not None for s in store.knowledge().statuses if s.summary == "Closed Monday")
    assert said("/undo", user=ADMIN) == "You have no changes left to undo."


def test_undo_of_a_revoke_gives_the_role_back(store, said):
    confirm(said, "/grant test:42 tdsb,pdsb", ADMIN)
    confirm(said, "/revoke test:42 pdsb", ADMIN)
    assert store.admin.grant_of("test", "42")["boards"] == ["tdsb"]
    said("/undo", user=ADMIN)
    assert "board staff for pdsb, tdsb again" in said("/confirm", user=ADMIN)
    assert store.admin.grant_of("test", "42")["boards"] == ["pdsb", "tdsb"]


def test_undo_of_a_taught_card_removes_it_from_the_answers(store, said, bot):
    confirm(said, "/teach tdsb | Are lunchrooms supervised? | Yes: lunch supervision continues.", TDSB_STAFF)
    assert [c.question for c in store.knowledge().cards_at(bot.clock()) if c.author] == ["Are lunchrooms supervised?"]
    assert "card" in said("/undo", user=TDSB_STAFF)
    assert said("/confirm", user=TDSB_STAFF).startswith("Undone")
    assert not [c for c in store.knowledge().cards_at(bot.clock()) if c.author]


def test_audit_table_json_and_chat(store, said, settings, capsys):
    confirm(said, "/setstatus tdsb closed from monday: Closed Monday", TDSB_STAFF)
    said("/undo", user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)
    assert main(["grant", "--db", settings.database.path, "test:42", "pdsb"]) == 0
    capsys.readouterr()

    assert main(["audit", "--db", settings.database.path]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["#", "when", "real", "time", "who", "what", "board", "before", "->", "after"]
    rows = [line for line in table[1:] if line[:1].isdigit()]
    assert len(rows) == 3
    assert "2019-10-03 09:00" in rows[0] and "test:777" in rows[0] and "setstatus" in rows[0]
    assert "closed: Closed Monday" in rows[0]
    # An undo shows what changed: the status was live before and withdrawn after.
    assert "undo status" in rows[1] and "closed: Closed Monday -> closed: Closed Monday (withdrawn)" in rows[1]
    assert f"cli:{getpass.getuser()}" in rows[2] and "grant" in rows[2] and "-> staff for pdsb" in rows[2]

    assert main(["audit", "--db", settings.database.path, "--json"]) == 0
    entries = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [e["action"] for e in entries] == ["setstatus", "undo status", "grant"]
    first = entries[0]
    assert first["clock_time"].startswith("2019-10-03T09:00") and first["real_time"][:4] >= "2025"
    assert first["after"]["status"] == "closed" and first["user_id"] == TDSB_STAFF

    chat = said("/audit", user=ADMIN)
    assert "setstatus tdsb" in chat and "(withdrawn)" in chat and len(chat.splitlines()) == 4


def test_audit_names_the_actor_by_id_and_name(bot, store):
    bot.handle(message("/setstatus tdsb open: Open", user=TDSB_STAFF, name="Dana at TDSB"))
    bot.handle(message("/confirm", user=TDSB_STAFF, name="Dana at TDSB"))
    row = store.audit_rows(1)[0]
    assert (row["platform"], row["user_id"], row["name"]) == ("test", TDSB_STAFF, "Dana at TDSB")


def test_parents_get_the_refusal_for_every_staff_command(said, store):
    from bot.admin import REFUSAL, REGISTRY

    for name, command in REGISTRY.items():
        assert command.usage.startswith(f"/{name}"), name
        assert said(f"/{name} tdsb something", user=PARENT) == REFUSAL, name
    assert store.audit_rows() == []


def test_the_real_time_is_shown_in_the_bot_s_zone_not_the_replayed_clock_s_offset():
    from zoneinfo import ZoneInfo

    from bot.admin.audit import audit_table

    row = {"id": 1, "at": "2019-10-03T09:00:00-04:00", "real_at": "2026-11-23T13:35:00+00:00", "platform": "console",
           "user_id": "local", "action": "setstatus", "target": "tdsb", "before": None, "after": None}
    table = audit_table([row], zone=ZoneInfo("America/Toronto"))
    assert "2026-11-23 08:35" in table  # EST in November, not the -04:00 of the replayed October clock
