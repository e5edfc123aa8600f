"""Broadcasts in the console session, and `schoolbot broadcast` with and without a running worker."""

from __future__ import annotations

import asyncio
import os
from collections import Counter

from bot.broadcast import Outbox
from tests.broadcast.helpers import subscribe
from tests.conftest import THURSDAY
from tests.fakes.telegram import FakeTelegram


# ------------------------------------------------------------------ console
def _console(bot, lines: list[str]) -> str:
    import io

    from adapters.console import run_console

    out = io.StringIO()
    run_console(bot, stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out)
    return out.getvalue()


def test_a_console_broadcast_is_shown_in_the_console_session(store, settings, shared_matcher):
    """Staff rehearse without any token: subscribe in the console, broadcast, confirm, see it arrive there."""
    from bot.app import build_bot

    staff = settings.replace("roles", province_admins=("console:local",))
    bot = build_bot(staff, store=store, clock=lambda: THURSDAY, matcher=shared_matcher)
    out = _console(bot, ["/subscribe tdsb", "/broadcast tdsb Schools are open Monday.", "/confirm", "is school open monday in tdsb?"])
    preview_at = out.index("Preview of a broadcast to 1 recipient (console 1)")
    confirm_at = out.index("you> /confirm")
    update_at = out.index("bot> Official update for Toronto District School Board (TDSB), Oct 3, 2019, 9:00 a.m.:")
    report_at = out.index("bot> Your broadcast #1 to tdsb is done: 1 delivered, 0 failed, 0 blocked (of 1 recipients).")
    next_turn = out.index("you> is school open monday")
    assert preview_at < confirm_at < update_at < report_at < next_turn  # shown right after the turn that queued it
    assert out.count("Schools are open Monday.") == 3  # typed, previewed, delivered: once each
    assert Outbox(store).progress(1).state == "done"
    assert store.conn.execute("SELECT COUNT(*) FROM deliveries WHERE state != 'sent'").fetchone()[0] == 0


def test_a_cli_broadcast_reaches_the_console_when_the_chat_opens(store, settings, shared_matcher, capsys):
    """`schoolbot broadcast` while no console is open: the console subscriber sees it when `schoolbot chat` starts."""
    from adapters.cli import main
    from bot.app import build_bot

    store.subscribe("console", "local", "tdsb", "private", "local")
    assert main(["broadcast", "--db", settings.database.path, "--board", "tdsb", "--text", "Buses run late.",
                 "--yes", "--no-wait"]) == 0
    assert "Broadcast #1 is in the outbox for 1 recipients" in capsys.readouterr().out
    bot = build_bot(settings, store=store, clock=lambda: THURSDAY, matcher=shared_matcher)
    out = _console(bot, [])
    assert out.count("bot> Official update for Toronto District School Board (TDSB)") == 1
    assert "Buses run late." in out
    assert _console(bot, ["/help"]).count("Official update") == 0  # delivered once, not on every start


# ------------------------------------------- `schoolbot broadcast` and its workers
def _run_cli(argv: list[str], limit: float = 30.0) -> int:
    """Run the command line in a thread; fail (instead of hanging) if it does not return in `limit` seconds."""
    import threading

    from adapters.cli import main

    result: dict[str, int] = {}
    thread = threading.Thread(target=lambda: result.setdefault("code", main(argv)), daemon=True)
    thread.start()
    thread.join(limit)
    assert not thread.is_alive(), f"`schoolbot {argv[0]}` still waiting after {limit:.0f} s"
    return result["code"]


def test_cli_broadcast_with_no_worker_running_says_how_to_deliver_and_exits(store, settings, capsys):
    chats = subscribe(store, 5, platform="telegram")
    store.subscribe("console", "local", "tdsb", "private", "local")
    code = _run_cli(["broadcast", "--db", settings.database.path, "--board", "tdsb", "--text", "Hi", "--yes",
                     "--interval", "0.05", "--grace", "0.3"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Broadcast #1 is in the outbox for 6 recipients" in out
    assert "No delivery worker is running for telegram. Start one with `schoolbot deliver` (or `schoolbot serve`)" in out
    assert "--deliver" in out and "`schoolbot chat`" in out and "`schoolbot deliveries 1` shows its state" in out
    assert "Done:" not in out
    states = store.conn.execute("SELECT chat_id, state FROM deliveries ORDER BY id").fetchall()
    assert {c for c, s in states if s == "pending"} == {*chats, "local"}  # nothing lost, nothing sent


async def test_cli_broadcast_deliver_sends_from_the_same_process(store, settings, capsys):
    chats = subscribe(store, 25, platform="telegram")
    async with FakeTelegram() as fake:
        os.environ["SCHOOLBOT_TELEGRAM_TOKEN"] = fake.token
        os.environ["SCHOOLBOT_TELEGRAM_BASE_URL"] = fake.base_url
        try:
            code = await asyncio.to_thread(_run_cli, ["broadcast", "--db", settings.database.path, "--board", "tdsb",
                                                      "--text", "Buses run late.", "--yes", "--deliver"])
        finally:
            del os.environ["SCHOOLBOT_TELEGRAM_TOKEN"], os.environ["SCHOOLBOT_TELEGRAM_BASE_URL"]
        received = Counter(str(p["chat_id"]) for p in fake.sent())
    out = capsys.readouterr().out
    assert code == 0
    assert received == Counter({c: 1 for c in chats})
    assert "telegram: 25 delivered, 0 failed, 0 blocked" in out and "#1: 25 delivered, 0 failed, 0 blocked of 25." in out
    assert Outbox(store).progress(1).state == "done"
    assert store.conn.execute("SELECT COUNT(*) FROM delivery_workers").fetchone()[0] == 0


def test_cli_broadcast_deliver_without_a_token_says_what_is_missing(store, settings, capsys, monkeypatch):
    monkeypatch.delenv("SCHOOLBOT_TELEGRAM_TOKEN", raising=False)
    subscribe(store, 2, platform="telegram")
    code = _run_cli(["broadcast", "--db", settings.database.path, "--board", "tdsb", "--text", "Hi", "--yes", "--deliver"])
    out = capsys.readouterr().out
    assert code == 1
    assert "Not delivered to telegram: no token is configured here" in out
    assert Outbox(store).unfinished("telegram") == 2


def test_cli_broadcast_in_two_languages_previews_both_and_stores_each_recipients(store, settings, capsys):
    subscribe(store, 2, platform="telegram")
    store.subscribe("telegram", "fr-chat", "tdsb", "private", "fr-user", "fr")
    code = _run_cli(["broadcast", "--db", settings.database.path, "--board", "tdsb", "--text",
                     "Buses run late. fr: Les autobus sont en retard.", "--yes", "--no-wait"])
    out = capsys.readouterr().out
    assert code == 0
    assert "----- in English (2) -----\nOfficial update for Toronto District School Board (TDSB)" in out
    assert "----- in French (1) -----\nMise à jour officielle – Toronto District School Board (TDSB)" in out
    assert "Les autobus sont en retard." in out and "Note:" not in out
    languages = dict(store.conn.execute("SELECT chat_id, language FROM deliveries"))
    assert languages["fr-chat"] == "fr" and sorted(languages.values()) == ["en", "en", "fr"]
    assert "Les autobus sont en retard." in Outbox(store).text_of(1, "fr")


def test_cli_broadcast_in_english_only_warns_of_french_subscribers(store, settings, capsys):
    store.subscribe("telegram", "fr-chat", "tdsb", "private", "fr-user", "fr")
    store.subscribe("telegram", "en-chat", "tdsb", "private", "en-user", "en")
    _run_cli(["broadcast", "--db", settings.database.path, "--board", "tdsb", "--text", "Buses run late.",
              "--yes", "--no-wait"])
    out = capsys.readouterr().out
    assert "Note: the text is in English only, so French-speaking subscribers (1) get it in English, under a French header" in out
    assert "(Cette mise à jour n'a été rédigée qu'en anglais.)" in out
