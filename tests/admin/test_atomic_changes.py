"""Each admin change, its undo record and its audit row are one transaction; /confirm is idempotent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from knowledge.records import AdminRecords
from knowledge.store import open_store
from tests.admin.conftest import ADMIN, TDSB_STAFF

CHANGES = [
    ("/setstatus tdsb closed from monday: Schools closed Monday", TDSB_STAFF),
    ("/addservice tdsb Custodians: no extra cleaning", TDSB_STAFF),
    ("/addevent tdsb talks friday: Talks resume", TDSB_STAFF),
    ("/grant test:42 tdsb", ADMIN),
    ("/enddispute today: The job action ended today; schools are open as usual.", ADMIN),
    ("/teach tdsb | Are lunchrooms supervised? | Yes: lunch supervision continues. | source: TDSB letter of Oct 3",
     TDSB_STAFF),
]


def visible(store) -> tuple:
    """Everything a change could leave behind: knowledge, grants, change records, audit rows."""
    k = store.knowledge()
    return (len(k.statuses), len(k.services), len(k.timeline), len(k.cards), len(k.pack_ends), len(store.admin.all_grants()),
            store.admin.latest_change("test", TDSB_STAFF), store.admin.latest_change("test", ADMIN),
            len(store.audit_rows(1000)))


@pytest.mark.parametrize(("command", "user"), CHANGES, ids=[c.split()[0] for c, _ in CHANGES])
def test_a_failing_audit_insert_leaves_nothing_of_the_change(command, user, store, said, monkeypatch):
    before = visible(store)
    assert "Preview" in said(command, user=user)

    def broken(*args, **kwargs):
        raise RuntimeError("disk full while writing the audit row")

    monkeypatch.setattr(AdminRecords, "audit", broken)
    reply = said("/confirm", user=user)
    assert "something went wrong" in reply.lower()
    assert visible(store) == before  # the change, its record and its audit row: none of them
    assert store.admin.latest_pending("test", user)["state"] == "pending"  # so /confirm can be tried again

    monkeypatch.undo()
    assert said("/confirm", user=user).startswith("Done")
    after = visible(store)
    assert after != before and after[-1] == before[-1] + 1  # one audit row
    assert "already confirmed" in said("/confirm", user=user)
    assert visible(store) == after


def test_a_failing_change_record_leaves_no_status(store, said, monkeypatch):
    before = visible(store)
    said("/setstatus tdsb closed from monday: Closed", user=TDSB_STAFF)
    monkeypatch.setattr(AdminRecords, "record_change", lambda *a, **k: (_ for _ in ()).throw(OSError("I/O error")))
    said("/confirm", user=TDSB_STAFF)
    assert visible(store) == before


KILLER = textwrap.dedent("""
    import os, signal, sys
    from datetime import datetime
    from zoneinfo import ZoneInfo
    from bot.app import build_bot
    from bot.messages import Incoming
    from bot.settings import Settings
    from knowledge.records import AdminRecords

    settings = Settings().replace("database", path=sys.argv[1]).replace("roles", board_staff=("test:777=tdsb",))
    bot = build_bot(settings)
    at = datetime(2019, 10, 3, 9, tzinfo=ZoneInfo("America/Toronto"))
    say = lambda text: bot.handle(Incoming("test", "777", "777", text, at))
    say("/setstatus tdsb closed from monday: Closed")
    real = AdminRecords.audit
    def audit_then_die(self, *args, **kwargs):
        real(self, *args, **kwargs)
        os.kill(os.getpid(), signal.SIGKILL)  # after the status, its record and the audit row: before COMMIT
    AdminRecords.audit = audit_then_die
    say("/confirm")
""")


def test_sigkill_before_commit_leaves_nothing_and_confirm_works_after(settings, store):
    before = visible(store)
    done = subprocess.run([sys.executable, "-c", KILLER, settings.database.path], capture_output=True, timeout=120,
                          cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()[-2000:]
    fresh = open_store(settings.database.path)
    try:
        assert visible(fresh) == before
        assert fresh.admin.latest_pending("test", TDSB_STAFF)["state"] == "pending"
    finally:
        fresh.close()


def test_a_broadcast_is_queued_with_its_audit_row_or_not_at_all(store, said, monkeypatch):
    for i in range(3):
        store.subscribe("test", f"parent-{i}", "tdsb", "private", f"parent-{i}")
    assert "Preview of a broadcast to 3 recipients" in said("/broadcast tdsb Schools open Monday.", user=TDSB_STAFF)
    audits = len(store.audit_rows(1000))

    def broken(*args, **kwargs):
        raise RuntimeError("disk full after the outbox rows")

    monkeypatch.setattr(AdminRecords, "set_result", broken)
    assert "something went wrong" in said("/confirm", user=TDSB_STAFF).lower()
    assert store.conn.execute("SELECT COUNT(*) FROM broadcasts").fetchone()[0] == 0
    assert store.conn.execute("SELECT COUNT(*) FROM deliveries").fetchone()[0] == 0
    assert len(store.audit_rows(1000)) == audits

    monkeypatch.undo()
    assert "queued for 3 recipients" in said("/confirm", user=TDSB_STAFF)
    assert "already confirmed" in said("/confirm", user=TDSB_STAFF)
    assert store.conn.execute("SELECT COUNT(*) FROM deliveries").fetchone()[0] == 3
    assert [r["action"] for r in store.audit_rows(1000)][: 1] == ["broadcast"] and len(store.audit_rows(1000)) == audits + 1
