"""Admin commands through the one entry point (Bot.handle): roles, previews, confirmation, audit, undo.

Rights are given in settings by platform user id: test:1 is a province admin,
test:777 is TDSB staff, test:888 is PDSB staff. Everything else is a parent.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest

from bot.admin import PRIVATE_ONLY, REFUSAL
from bot.app import build_bot, open_knowledge
from bot.broadcast import Outbox
from bot.broadcast.worker import DeliveryWorker
from bot.messages import ChatKind, SendOutcome, SendStatus
from bot.settings import Settings
from knowledge.store import Store
from tests.conftest import THURSDAY, message

ADMIN, TDSB_STAFF, PDSB_STAFF, PARENT = "1", "777", "888", "p1"


@pytest.fixture
def settings(tmp_path) -> Settings:
    return (
        Settings()
        .replace("database", path=str(tmp_path / "schoolbot.db"))
        .replace("roles", province_admins=("test:1",), board_staff=("test:777=tdsb", "test:888=pdsb"))
    )


@pytest.fixture
def said(bot):
    """said(text, user) -> the reply text, through Bot.handle, as a private message from `user`."""

    def _said(text: str, user: str = PARENT, **kwargs) -> str:
        return "\n".join(r.text for r in bot.handle(message(text, user=user, **kwargs)))

    return _said


class Recorder:
    """A platform boundary for the worker: records what it is asked to send."""

    platform = "test"

    def __init__(self):
        self.sent: list[tuple[str, str]] = []

    async def send_text(self, chat_id: str, text: str) -> SendOutcome:
        self.sent.append((chat_id, text))
        return SendOutcome(SendStatus.SENT)


def subscribe_parents(store: Store, board: str, count: int, platform: str = "test") -> list[str]:
    chats = [f"{board}-parent-{i}" for i in range(count)]
    for chat in chats:
        store.subscribe(platform, chat, board, "private", chat)
    return chats


def drain(store: Store, settings: Settings, sender) -> None:
    asyncio.run(DeliveryWorker(store, sender, settings, poll_interval=0.01).run(once=True))


def broadcasts(store: Store) -> int:
    return store.conn.execute("SELECT COUNT(*) FROM broadcasts").fetchone()[0]


def statuses_of(store: Store, board: str) -> list:
    return [s for s in store.knowledge().statuses if s.board == board]


# --------------------------------------------------------------------- rights
def test_non_admin_broadcast_sends_nothing_and_is_told_politely(bot, store, settings, said):
    chats = subscribe_parents(store, "tdsb", 3)
    reply = said("/broadcast tdsb Schools are closed tomorrow!", user=PARENT)
    assert reply == REFUSAL
    assert "sorry" in reply.lower() and "didn't do anything" in reply
    assert said("/confirm", user=PARENT) == REFUSAL
    assert broadcasts(store) == 0
    recorder = Recorder()
    drain(store, settings, recorder)
    assert recorder.sent == []
    assert store.audit_rows() == []
    assert store.subscribers("tdsb") == sorted(("test", c) for c in chats)


def test_non_admin_cannot_change_anything(store, said):
    before = statuses_of(store, "tdsb")
    for command in ("/setstatus tdsb closed from monday: closed", "/addevent all deal today: deal reached",
                    "/addservice tdsb Custodians: all", "/undo", "/grant test:p1 province", "/audit", "/stats"):
        assert said(command) == REFUSAL, command
        assert said("/confirm") == REFUSAL
    assert statuses_of(store, "tdsb") == before
    assert store.audit_rows() == []


def test_board_staff_cannot_change_or_broadcast_for_another_board(store, said):
    subscribe_parents(store, "pdsb", 2)
    before = statuses_of(store, "pdsb")
    reply = said("/setstatus pdsb closed from monday: Peel schools closed", user=TDSB_STAFF)
    assert "only act for tdsb" in reply and "not for pdsb" in reply
    assert "Nothing was changed" in reply
    reply = said("/broadcast pdsb Peel schools closed", user=TDSB_STAFF)
    assert "only act for tdsb" in reply
    reply = said("/broadcast all Everyone: schools closed", user=TDSB_STAFF)
    assert "not for all boards" in reply
    assert "nothing to confirm" in said("/confirm", user=TDSB_STAFF).lower()
    assert statuses_of(store, "pdsb") == before
    assert broadcasts(store) == 0
    assert store.audit_rows() == []
    # ... while PDSB's own staff can.
    said("/setstatus pdsb closed from monday: Peel schools closed", user=PDSB_STAFF)
    assert said("/confirm", user=PDSB_STAFF).startswith("Done")
    assert len(statuses_of(store, "pdsb")) == len(before) + 1


def test_display_name_of_an_admin_gives_no_rights(store, said):
    subscribe_parents(store, "tdsb", 2)
    # The admin's display name, and even the admin's user id on another platform: still a parent.
    assert said("/broadcast tdsb hi", user="imposter", name="Ontario Province Admin") == REFUSAL
    assert said("/broadcast tdsb hi", user="imposter", name="1") == REFUSAL
    assert said("/broadcast tdsb hi", user=ADMIN, platform="telegram", name="Ontario Province Admin") == REFUSAL
    assert broadcasts(store) == 0
    # The real admin (by platform and id), whatever their display name.
    assert "Preview" in said("/broadcast tdsb hi", user=ADMIN, name="someone else")


def test_admin_commands_only_in_private_chat(store, said):
    kwargs = {"chat": "-100", "kind": ChatKind.GROUP, "addressed": True}
    assert said("/setstatus tdsb closed: x", user=TDSB_STAFF, **kwargs) == PRIVATE_ONLY
    assert said("/broadcast tdsb hi", user=TDSB_STAFF, **kwargs) == PRIVATE_ONLY
    # A community admin (group admin as the platform says) is still not staff.
    assert said("/broadcast tdsb hi", user="groupboss", group_admin=True, **kwargs) == REFUSAL
    assert "nothing to confirm" in said("/confirm", user=TDSB_STAFF).lower()


def test_community_admin_may_subscribe_the_group(store, said):
    group = {"chat": "-100", "kind": ChatKind.GROUP, "addressed": True}
    assert "Only this group's admins" in said("/subscribe tdsb", user="member", **group)
    assert "will now get official updates" in said("/subscribe tdsb", user="groupboss", group_admin=True, **group)
    assert ("test", "-100") in store.subscribers("tdsb")


# ------------------------------------------------------------- status updates
def test_status_change_is_reflected_in_the_next_answer(store, said):
    question = "is school open monday in tdsb?"
    old = said(question)
    assert "not confirmed" in old
    preview = said("/setstatus tdsb reduced from monday: Schools open, reduced cleaning", user=TDSB_STAFF)
    assert preview.startswith("Preview")
    assert "Source: TDSB staff update" in preview
    assert said(question) == old  # nothing changes before /confirm
    done = said("/confirm", user=TDSB_STAFF)
    assert done.startswith("Done")
    new = said(question)
    assert "open, with some services reduced" in new
    assert "Schools open, reduced cleaning" in new
    assert "Source: TDSB staff update, as of Oct 3, 2019, 9:00 a.m." in new
    status = [s for s in statuses_of(store, "tdsb") if s.author][-1]
    assert status.author == "test:777" and status.summary == "Schools open, reduced cleaning"
    assert status.published == THURSDAY


def test_status_dates_and_until(store, said):
    said("/setstatus tdsb closed from oct 7 until 2019-10-08: Closed for the strike", user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)
    assert "closed" in said("is school open monday in tdsb?")
    assert "closed" in said("is school open tuesday in tdsb?")
    assert "Closed for the strike" not in said("is school open wednesday in tdsb?")


def test_status_usage_errors(said):
    assert "Usage: /setstatus" in said("/setstatus", user=TDSB_STAFF)
    reply = said("/setstatus tdsb sunny: nice", user=TDSB_STAFF)
    assert "'sunny' is not a status" in reply and "Usage: /setstatus" in reply
    assert "couldn't read the date" in said("/setstatus tdsb open from blursday: x", user=TDSB_STAFF)
    assert "Add a short note" in said("/setstatus tdsb open from monday", user=TDSB_STAFF)
    assert "don't know a board" in said("/setstatus zzzz open: x", user=TDSB_STAFF)
    long_note = "x" * 1001
    assert "limit is 1,000" in said(f"/setstatus tdsb open: {long_note}", user=TDSB_STAFF)
    assert "nothing to confirm" in said("/confirm", user=TDSB_STAFF).lower()


def test_cancel_and_confirm_after_cancel(store, said):
    before = statuses_of(store, "tdsb")
    said("/setstatus tdsb closed: closed", user=TDSB_STAFF)
    assert "Cancelled" in said("/cancel", user=TDSB_STAFF)
    assert "cancelled" in said("/confirm", user=TDSB_STAFF)
    assert statuses_of(store, "tdsb") == before


def test_confirm_twice_applies_once(store, said):
    before = len(statuses_of(store, "tdsb"))
    said("/setstatus tdsb open: Open as usual", user=TDSB_STAFF)
    assert said("/confirm", user=TDSB_STAFF).startswith("Done")
    assert "already confirmed" in said("/confirm", user=TDSB_STAFF)
    assert len(statuses_of(store, "tdsb")) == before + 1
    assert [r["action"] for r in store.audit_rows()] == ["setstatus"]


def test_preview_expires(said):
    said("/setstatus tdsb open: Open", user=TDSB_STAFF)
    late = THURSDAY + timedelta(minutes=31)
    assert "more than 30 minutes old" in said("/confirm", user=TDSB_STAFF, at=late)


def test_pending_confirmation_survives_a_restart(settings, store, said):
    said("/setstatus tdsb closed from monday: Closed Monday", user=TDSB_STAFF)
    store.close()
    store2 = open_knowledge(settings)  # a new process: nothing kept in memory
    bot2 = build_bot(settings, store=store2, clock=lambda: THURSDAY)
    reply = "\n".join(r.text for r in bot2.handle(message("/confirm", user=TDSB_STAFF)))
    assert reply.startswith("Done")
    answer = "\n".join(r.text for r in bot2.handle(message("is school open monday in tdsb?")))
    assert "Closed Monday" in answer
    store2.close()


def test_undo(store, said):
    question = "is school open monday in tdsb?"
    old = said(question)
    said("/setstatus tdsb closed from monday: Closed Monday", user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)
    assert "Closed Monday" in said(question)
    preview = said("/undo", user=TDSB_STAFF)
    assert "Preview" in preview and "Closed Monday" in preview
    assert "Closed Monday" in said(question)  # not before /confirm
    assert said("/confirm", user=TDSB_STAFF).startswith("Undone")
    assert said(question) == old
    assert "no changes left" in said("/undo", user=TDSB_STAFF)
    undo = store.audit_rows()[0]
    assert undo["action"] == "undo status" and json.loads(undo["after"])["retracted"]


def test_other_staff_cannot_undo_your_change(store, said):
    said("/setstatus tdsb closed: Closed", user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)
    assert "can't act for" in said("/undo 1", user=PDSB_STAFF)
    assert said("/undo 1", user=ADMIN).startswith("Preview")  # a province admin can


def test_a_revoked_board_cannot_be_changed_by_undoing_ones_own_change(store, said):
    said("/grant test:newbie tdsb,pdsb", user=ADMIN)
    said("/confirm", user=ADMIN)
    said("/setstatus tdsb closed: Closed by newbie", user="newbie")
    said("/confirm", user="newbie")
    said("/revoke test:newbie tdsb", user=ADMIN)
    said("/confirm", user=ADMIN)
    assert "can't act for" in said("/undo", user="newbie")
    assert "Closed by newbie" in said("is school open today in tdsb?")


def test_services_and_events(store, said):
    reply = said("/addservice tdsb work-to-rule Custodians: no extra cleaning of classrooms", user=TDSB_STAFF)
    assert "Preview" in reply
    said("/confirm", user=TDSB_STAFF)
    answer = said("what services stopped?")
    assert "Custodians: no extra cleaning of classrooms" in answer and "TDSB staff update" in answer
    service = [s for s in store.knowledge().services if s.author][-1]
    listing = said("/endservice", user=TDSB_STAFF)
    assert service.id in listing
    assert "only a province admin" in said("/endservice unpaid-work", user=TDSB_STAFF)
    assert "Preview" in said(f"/endservice {service.id}", user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)
    assert "Back to normal" in said("what services stopped?")

    assert "not for all boards" in said("/addevent all deal today: A deal was reached", user=TDSB_STAFF)
    said("/addevent all deal today: A tentative deal was reached", user=ADMIN)
    said("/confirm", user=ADMIN)
    event = [e for e in store.knowledge().timeline if e.author][-1]
    assert event.kind == "deal" and event.source == "Province-wide update (province admin)"
    assert "A tentative deal was reached" in said("when could a full strike start?")
    actions = [r["action"] for r in store.audit_rows()]
    assert actions == ["addevent", "endservice", "addservice"]


# ---------------------------------------------------------------- broadcasts
def test_broadcast_preview_confirm_twice_sends_once(store, settings, said):
    chats = subscribe_parents(store, "tdsb", 5)
    store.subscribe("test", "all-boards-parent", "all", "private", "x")
    subscribe_parents(store, "pdsb", 2)
    body = "Schools are *open* Monday <b>with</b> reduced cleaning. @everyone"
    preview = said(f"/broadcast tdsb {body}", user=TDSB_STAFF)
    assert "6 recipients (test 6)" in preview
    assert "Official update for Toronto District School Board (TDSB), Oct 3, 2019, 9:00 a.m.:" in preview
    assert body in preview
    assert broadcasts(store) == 0  # nothing before /confirm
    first = said("/confirm", user=TDSB_STAFF)
    assert "Broadcast #1 queued for 6 recipients" in first
    assert "already confirmed" in said("/confirm", user=TDSB_STAFF)
    assert broadcasts(store) == 1
    stored = store.conn.execute("SELECT body, text FROM broadcasts").fetchone()
    assert stored[0] == body  # verbatim
    recorder = Recorder()
    drain(store, settings, recorder)
    messages = [(c, t) for c, t in recorder.sent if c != TDSB_STAFF]
    assert sorted(c for c, _ in messages) == sorted([*chats, "all-boards-parent"])
    assert all(t == stored[1] for _, t in messages)
    assert body in stored[1]
    # The sender gets the counts at the end.
    reports = [t for c, t in recorder.sent if c == TDSB_STAFF]
    assert reports == ["Your broadcast #1 to tdsb is done: 6 delivered, 0 failed, 0 blocked (of 6 recipients)."]
    assert "6/6 done - 6 delivered" in said("/deliveries", user=TDSB_STAFF)
    audit = store.audit_rows()[0]
    assert audit["action"] == "broadcast" and audit["platform"] == "test" and audit["user_id"] == TDSB_STAFF
    assert json.loads(audit["after"])["recipients"] == 6


def test_broadcast_length_checked(store, said):
    subscribe_parents(store, "tdsb", 1)
    reply = said("/broadcast tdsb " + "y" * 3501, user=TDSB_STAFF)
    assert "3,501 characters long; the limit is 3,500" in reply and "Nothing was sent" in reply
    assert "nothing to confirm" in said("/confirm", user=TDSB_STAFF).lower()


def test_broadcast_with_no_subscribers(said):
    assert "Nobody is subscribed" in said("/broadcast tdsb hello", user=TDSB_STAFF)


# ----------------------------------------------------------- grant and revoke
def test_grant_and_revoke(store, said):
    assert said("/setstatus pdsb open: x", user="newbie") == REFUSAL
    assert "only a province admin" in said("/grant test:newbie pdsb", user=TDSB_STAFF)
    assert "Preview: make test:newbie board staff for pdsb" in said("/grant test:newbie pdsb", user=ADMIN)
    assert said("/setstatus pdsb open: x", user="newbie") == REFUSAL  # not before /confirm
    assert "now board staff for pdsb" in said("/confirm", user=ADMIN)
    assert said("/setstatus pdsb open: Open", user="newbie").startswith("Preview")
    assert "not for tdsb" in said("/setstatus tdsb open: Open", user="newbie")
    said("/revoke test:newbie", user=ADMIN)
    assert "no admin role" in said("/confirm", user=ADMIN)
    assert said("/confirm", user="newbie") == REFUSAL  # a pending change dies with the role
    assert said("/setstatus pdsb open: x", user="newbie") == REFUSAL
    assert "settings file" in said("/revoke test:777", user=ADMIN)
    assert "platform:user_id" in said("/grant newbie pdsb", user=ADMIN)
    assert [r["action"] for r in store.audit_rows()] == ["revoke", "grant"]


def test_a_board_revoke_never_removes_a_whole_province_grant(store, said):
    said("/grant test:boss province", user=ADMIN)
    said("/confirm", user=ADMIN)
    assert "takes the whole role back" in said("/revoke test:boss tdsb", user=ADMIN)
    assert said("/setstatus tdsb open: still allowed", user="boss").startswith("Preview")


def test_broadcast_whose_recipients_all_left_before_confirm(store, said):
    store.subscribe("test", "p9", "pdsb", "private", "p9")
    assert "Preview of a broadcast to 1 recipient" in said("/broadcast pdsb Hello", user=ADMIN)
    store.unsubscribe("test", "p9")
    reply = said("/confirm", user=ADMIN)
    assert "no recipients left" in reply and "message you" not in reply


def test_rights_rechecked_at_confirm(store, said):
    said("/grant test:newbie tdsb", user=ADMIN)
    said("/confirm", user=ADMIN)
    said("/setstatus tdsb closed: Closed", user="newbie")
    said("/revoke test:newbie", user=ADMIN)
    said("/confirm", user=ADMIN)
    before = statuses_of(store, "tdsb")
    assert said("/confirm", user="newbie") == REFUSAL
    assert statuses_of(store, "tdsb") == before


# -------------------------------------------------------------- audit, stats
def test_audit_records_who_what_before_after_when(store, said):
    said("/setstatus tdsb open from monday: Open Monday", user=TDSB_STAFF)
    said("/confirm", user=TDSB_STAFF)
    row = store.audit_rows()[0]
    assert (row["platform"], row["user_id"], row["action"], row["target"]) == ("test", TDSB_STAFF, "setstatus", "tdsb")
    assert row["at"] == THURSDAY.isoformat()
    assert json.loads(row["before"])["id"] == "tdsb-full-strike"
    assert json.loads(row["after"])["summary"] == "Open Monday"
    listing = said("/audit", user=TDSB_STAFF)
    assert "test:777 setstatus tdsb" in listing
    assert "The audit log is empty" in said("/audit", user=PDSB_STAFF)  # not their board
    assert "test:777 setstatus tdsb" in said("/audit 5", user=ADMIN)


def test_stats(said):
    said("is school open monday in tdsb?")
    said("is school open tomorrow in peel?")
    said("blorp zingle wibble")
    said("Blorp zingle wibble ", user="p2")
    stats = said("/stats", user=ADMIN)  # a province admin sees every board
    assert "2019-10-03: school_status 2" in stats
    assert "2x blorp zingle wibble" in stats
    own = said("/stats", user=TDSB_STAFF)  # board staff see their boards' questions only
    assert "for tdsb" in own and "2019-10-03: school_status 1" in own
    assert "blorp" not in own


def test_admin_help_and_whoami(said):
    assert "/setstatus BOARD STATUS" in said("/admin", user=TDSB_STAFF)
    assert "/grant" not in said("/admin", user=TDSB_STAFF)
    assert "/grant" in said("/admin", user=ADMIN)
    assert "test user p1" in said("/whoami")


# ----------------------------------------------------------------------- CLI
def test_cli_broadcast_deliveries_audit(settings, store, capsys, monkeypatch):
    from adapters.cli import main

    subscribe_parents(store, "tdsb", 3)
    db = settings.database.path
    assert main(["broadcast", "--db", db, "--board", "tdsb", "--text", "Schools open Monday.", "--yes", "--no-wait"]) == 0
    out = capsys.readouterr().out
    assert "Preview of a broadcast to 3 recipients (test 3). They will see exactly this:" in out and "Schools open Monday." in out
    assert "Broadcast #1 is in the outbox for 3 recipients" in out
    audited = store.audit_rows(1)[0]  # as `schoolbot grant` audits: cli:<os user>, named, both times
    assert (audited["action"], audited["platform"], audited["name"]) == ("broadcast", "cli", audited["user_id"])
    assert audited["user_id"] and audited["at"] and audited["real_at"]
    assert main(["broadcast", "--db", db, "--board", "tdsb", "--text", "x" * 4000, "--yes"]) == 2
    assert "limit is 3,500" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin.isatty", lambda: False, raising=False)
    assert main(["broadcast", "--db", db, "--board", "tdsb", "--text", "hi"]) == 2
    assert "add --yes" in capsys.readouterr().err

    drain(store, settings, Recorder())
    assert main(["deliveries", "--db", db]) == 0
    assert "#1 tdsb: done, 3/3 done - 3 delivered, 0 failed, 0 blocked" in capsys.readouterr().out
    assert main(["deliveries", "--db", db, "1"]) == 0
    assert "test: sent 3" in capsys.readouterr().out
    assert main(["audit", "--db", db]) == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[5:8] == ["broadcast", "tdsb", "-"] and " ".join(row[8:]) == "-> #1 to 3: Schools open Monday."


def test_cli_broadcast_follows_progress(settings, store, capsys):
    """Without --no-wait the CLI follows the outbox until done (here a worker runs alongside)."""
    import threading

    from adapters.cli import main

    subscribe_parents(store, "tdsb", 20)

    def worker():
        other = open_knowledge(settings)  # another connection, as `schoolbot serve` would be
        Outbox(other)
        import time

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and other.conn.execute("SELECT COUNT(*) FROM broadcasts").fetchone()[0] == 0:
            time.sleep(0.05)
        drain(other, settings, Recorder())
        other.close()

    thread = threading.Thread(target=worker)
    thread.start()
    code = main(["broadcast", "--db", settings.database.path, "--board", "tdsb", "--text", "Hello", "--yes", "--interval", "0.05"])
    thread.join()
    assert code == 0
    out = capsys.readouterr().out
    assert "20/20" in out and "Done: 20 delivered, 0 failed, 0 blocked of 20." in out


def test_dry_run_bot_changes_nothing(settings, store):
    dry = build_bot(settings, store=store, dry_run=True, clock=lambda: THURSDAY)
    before = statuses_of(store, "tdsb")
    reply = dry.handle(message("/setstatus tdsb closed: Closed", user=TDSB_STAFF))[0].text
    assert "dry run" in reply
    assert statuses_of(store, "tdsb") == before
