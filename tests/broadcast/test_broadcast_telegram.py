"""Broadcasts end to end through python-telegram-bot and the fake Bot API server, by `deliver` and `serve`."""

from __future__ import annotations

import asyncio
import os
import sys
from collections import Counter
from pathlib import Path

from bot.admin import REFUSAL
from bot.broadcast import Outbox, broadcast_text
from tests.broadcast.helpers import subscribe, worker
from tests.conftest import THURSDAY
from tests.fakes.telegram import FakeTelegram


# ------------------------------------------------------- through Telegram
async def _telegram_sender(settings, store):
    from adapters.telegram import open_sender

    return open_sender(settings)


async def test_1000_subscribers_through_fake_telegram_with_429s_and_403s(store, settings):
    chats = subscribe(store, 1000, platform="telegram")
    blocked = chats[100:1000:20]  # 45 users who blocked the bot
    async with FakeTelegram() as fake:
        fake.fail("sendMessage", 429, times=3, retry_after=1)
        fake.fail("sendMessage", 403, times=len(blocked), chat_ids=blocked, description="Forbidden: bot was blocked by the user")
        tg = settings.replace("telegram", token=fake.token, base_url=fake.base_url).replace("limits", telegram_per_second=0)
        outbox = Outbox(store)
        body = "Schools are open Monday."
        broadcast_id = outbox.create("tdsb", body, broadcast_text("TDSB", THURSDAY, body), "test:777")
        async with await _telegram_sender(tg, store) as sender:
            stats = await worker(store, sender, tg).run(once=True)
        received = Counter(str(p["chat_id"]) for p in fake.sent())
        attempts = Counter(str(p["chat_id"]) for p in fake.calls_to("sendMessage"))
    served = [c for c in chats if c not in blocked]
    assert all(received[c] == 1 for c in served)  # every non-blocked subscriber exactly once
    assert all(received[c] == 0 for c in blocked)
    assert sum(received.values()) == len(served)
    assert sum(attempts.values()) == len(served) + len(blocked) + 3  # the 429s were retried
    progress = outbox.progress(broadcast_id)
    assert (progress.delivered, progress.blocked, progress.failed, progress.state) == (955, 45, 0, "done")
    assert stats.retried == 3
    assert all(store.subscriptions_of("telegram", c) == [] for c in blocked)
    assert store.subscriptions_of("telegram", served[0]) == ["tdsb"]
    assert all("parse_mode" not in p for p in fake.calls_to("sendMessage")[:10])


async def test_deliver_once_cli_drains_the_outbox(store, settings, capsys):
    from adapters.cli import main

    chats = subscribe(store, 25, platform="telegram")
    store.subscribe("console", "local", "tdsb", "private", "local")  # waits for `schoolbot chat`
    async with FakeTelegram() as fake:
        env_settings = ["--db", settings.database.path]
        os.environ["SCHOOLBOT_TELEGRAM_TOKEN"] = fake.token
        os.environ["SCHOOLBOT_TELEGRAM_BASE_URL"] = fake.base_url
        try:
            code = await asyncio.to_thread(main, ["broadcast", *env_settings, "--board", "tdsb", "--text", "Hi", "--yes", "--no-wait"])
            assert code == 0
            code = await asyncio.to_thread(main, ["deliver", *env_settings, "--once"])
            assert code == 0
        finally:
            del os.environ["SCHOOLBOT_TELEGRAM_TOKEN"], os.environ["SCHOOLBOT_TELEGRAM_BASE_URL"]
        received = Counter(str(p["chat_id"]) for p in fake.sent())
    assert received == Counter({c: 1 for c in chats})
    out = capsys.readouterr().out
    assert "telegram: 25 delivered, 0 failed, 0 blocked" in out
    assert "Console subscribers see it in `schoolbot chat`" in out and "no sender configured" not in out


# ------------------------------------------- the whole flow, on Telegram, via serve
async def test_staff_update_and_broadcast_on_telegram_then_a_parent_asks(bot, store, settings, capsys):
    """Staff update TDSB's status and broadcast it over Telegram; subscribers get it; a parent's next answer is new."""
    from adapters.serve import serve

    parents = [5001, 5002, 5003]
    async with FakeTelegram() as fake:
        tg = settings.replace("telegram", token=fake.token, base_url=fake.base_url)
        stop = asyncio.Event()
        running = asyncio.create_task(serve(bot, tg, ["telegram"], stop=stop))
        try:
            for parent in parents:
                fake.private("/subscribe tdsb", user_id=parent, name="Parent")
            await fake.wait_sent(3, timeout=20)

            async def say(user: int, text: str, name: str = "") -> str:
                name = name or ("TDSB Staff" if user == 777 else f"Parent {user}")
                before = len(fake.sent_texts(user))
                fake.private(text, user_id=user, name=name)
                texts = await fake.wait_sent(before + 1, user, timeout=20)
                return texts[-1]

            assert "not confirmed" in await say(5001, "is school open monday in tdsb?")
            # Someone with the staff member's display name, but another id: no rights.
            assert await say(4242, "/broadcast tdsb Schools closed!", name="TDSB Staff") == REFUSAL
            await say(777, "/setstatus tdsb reduced from monday: Schools open Monday, reduced cleaning")
            assert (await say(777, "/confirm")).startswith("Done")
            preview = await say(777, "/broadcast tdsb Schools are open Monday, with reduced cleaning.")
            assert "3 recipients (telegram 3)" in preview
            assert "Broadcast #1 queued" in await say(777, "/confirm")
            assert "already confirmed" in await say(777, "/confirm")
            report = await fake.wait_sent(len(fake.sent_texts(777)) + 1, 777, timeout=20)
            assert report[-1].startswith("Your broadcast #1 to tdsb is done: 3 delivered, 0 failed, 0 blocked")
            answer = await say(5001, "is school open monday in tdsb?")
        finally:
            stop.set()
            await asyncio.wait_for(running, 15)
        for parent in parents:
            updates = [t for t in fake.sent_texts(parent) if t.startswith("Official update")]
            assert len(updates) == 1 and "Schools are open Monday, with reduced cleaning." in updates[0]
        assert "open, with some services reduced" in answer
        assert "Source: TDSB staff update, as of Oct 3, 2019" in answer
        transcript = ("--- staff (telegram user 777), private chat ---\n" + fake.transcript(777)
                      + "\n--- parent (telegram user 5001) ---\n" + fake.transcript(5001))
    with capsys.disabled():
        print("\n" + transcript)
    if os.environ.get("SCHOOLBOT_TRANSCRIPT"):
        Path(os.environ["SCHOOLBOT_TRANSCRIPT"]).write_text(transcript)  # noqa: ASYNC240 - once, at the end


async def test_deliver_with_a_rejected_token_says_so_in_one_line_without_the_token(settings, store):
    """python-telegram-bot quotes the token in InvalidToken; `deliver` must not pass it on."""
    from tests.fakes.telegram import FakeTelegram

    secret = "123456:SECRET-TOKEN-VALUE"  # not the fake's token: it answers 401
    async with FakeTelegram() as fake:
        env = {**os.environ, "SCHOOLBOT_TELEGRAM_TOKEN": secret, "SCHOOLBOT_TELEGRAM_BASE_URL": fake.base_url}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "adapters.cli", "deliver", "--once", "--db", settings.database.path,
            env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 1
    assert "rejected the token" in err.decode()
    assert "SECRET" not in (out + err).decode()
    assert err.decode().strip().count("\n") == 0
