"""Receiving updates: long polling and the webhook, each update answered once, nothing lost on a crash."""

from __future__ import annotations

import asyncio
import logging
import signal
import sqlite3
import sys
import time

import pytest
from telegram_support import GROUP, PARENT, REPO, answered, free_port

from adapters.telegram import TelegramStopped, open_sender, run_telegram
from adapters.telegram.journal import UpdateJournal
from knowledge.store import open_store
from tests.fakes.telegram import BOT_ID, BOT_USERNAME


# ------------------------------------------------------------------ polling
async def test_network_errors_back_off_and_recover(fake, bot, tg_settings, running):
    fake.fail("getUpdates", 502, times=2)
    async with running(bot, tg_settings, fake):
        started = time.monotonic()
        update = fake.private("/help", user_id=PARENT)
        await answered(fake, update, PARENT)
    assert time.monotonic() - started >= 1.0  # backed off (1 s, then 2 s) instead of hammering
    assert len([c for c in fake.calls if c.method == "getUpdates"]) >= 3


async def test_restart_neither_replays_nor_drops(fake, bot, tg_settings, running):
    # Two messages wait for the bot; they come in one getUpdates batch.
    one = fake.private("/help", user_id=PARENT)
    two = fake.private("/whoami", user_id=1002)
    fake.fail("sendMessage", 429, retry_after=60, chat_ids=["1002"])  # the second reply stalls ...
    async with running(bot, tg_settings, fake, crash=True):
        await fake.wait_sent(1, PARENT)
        await fake.wait_for(lambda: any(p["chat_id"] == "1002" for p in fake.calls_to("sendMessage")))
        # handled means queued, not sent: the next batch is fetched, which confirms both
        await fake.wait_for(lambda: fake.confirmed(two["update_id"]), what="both updates confirmed")
    # ... and the bot dies while that reply waits out its flood control: it waits in the reply queue.
    assert fake.sent(1002) == []
    assert bot.store.conn.execute("SELECT chat_id, state FROM replies").fetchall() == [("1002", "pending")]

    # While the bot is down, two more messages arrive.
    three = fake.private("is school open monday in peel?", user_id=PARENT)
    four = fake.group(f"@{BOT_USERNAME} /status tdsb", user_id=2001)

    # Run 2 is served all four: the handled one is skipped, the rest answered once.
    async with running(bot, tg_settings, fake):
        await fake.wait_confirmed(four)
        await fake.wait_sent(2, PARENT)
        await fake.wait_sent(1, 1002)
        await fake.wait_sent(1, GROUP)
    # A graceful stop confirms what was handled, so run 3 is not served it again.
    assert all(fake.confirmed(u["update_id"]) for u in (one, two, three, four))
    async with running(bot, tg_settings, fake):
        await fake.wait_confirmed(fake.private("/start", user_id=PARENT))
        await fake.wait_sent(3, PARENT)
    texts = fake.sent_texts(PARENT)
    assert len(texts) == 3
    assert "Commands:" in texts[0] and texts[1].startswith("Peel DSB, Monday") and "Commands:" in texts[2]
    assert len(fake.sent_texts(1002)) == 1 and "You are telegram user 1002" in fake.sent_texts(1002)[0]
    assert len(fake.sent_texts(GROUP)) == 1 and "Toronto District School Board" in fake.sent_texts(GROUP)[0]


async def test_409_conflict_stops_with_one_clear_error(fake, bot, tg_settings):
    fake.fail("getUpdates", 409, times=100)
    with pytest.raises(TelegramStopped) as info:
        await asyncio.wait_for(run_telegram(bot, tg_settings, poll_timeout=1), 10)
    message = str(info.value)
    assert "409 Conflict" in message and "another process" in message and "\n" not in message
    assert len(fake.calls_to("getUpdates")) == 1  # no fighting


# ------------------------------------------------------------------ start-up
async def test_rejected_token_stops_with_one_clear_error(fake, bot, tg_settings):
    wrong = tg_settings.replace("telegram", token="999:WRONG-token")
    with pytest.raises(TelegramStopped) as info:
        await run_telegram(bot, wrong)
    message = str(info.value)
    assert "telegram:" in message and "rejected the token" in message and "SCHOOLBOT_TELEGRAM_TOKEN" in message
    assert "WRONG" not in message and "\n" not in message
    assert len(fake.calls_to("getMe")) == 1  # a rejected token is not retried


async def test_no_token_stops_before_any_call(fake, bot, tg_settings):
    with pytest.raises(TelegramStopped) as info:
        await run_telegram(bot, tg_settings.replace("telegram", token="  "))
    assert "no bot token" in str(info.value) and "SCHOOLBOT_TELEGRAM_TOKEN" in str(info.value)
    assert fake.calls == []


async def test_an_unreachable_api_is_retried_then_one_line(fake, bot, tg_settings):
    fake.fail("getMe", 502, times=1)  # a blip: the second try connects
    stop = asyncio.Event()
    ready = asyncio.Event()
    task = asyncio.create_task(run_telegram(bot, tg_settings, stop=stop, on_ready=lambda s: ready.set(),
                                            startup_attempts=3, poll_timeout=1))
    await asyncio.wait_for(ready.wait(), 10)
    stop.set()
    await asyncio.wait_for(task, 10)
    assert len(fake.calls_to("getMe")) == 2

    port = free_port()  # nothing listens there
    gone = tg_settings.replace("telegram", base_url=f"http://127.0.0.1:{port}/bot")
    started = time.monotonic()
    with pytest.raises(TelegramStopped) as info:
        await run_telegram(bot, gone, startup_attempts=2)
    message = str(info.value)
    assert time.monotonic() - started >= 1.0  # waited once between the two tries
    assert message.startswith("telegram: cannot reach the Bot API at 127.0.0.1:") and "after 2 tries" in message
    assert "check the network" in message and "\n" not in message and tg_settings.telegram.token not in message


async def test_deliver_connects_the_same_way_with_the_same_lines(fake, tg_settings):
    """open_sender (schoolbot deliver) retries and words its errors like run_telegram (schoolbot serve)."""
    port = free_port()
    gone = tg_settings.replace("telegram", base_url=f"http://127.0.0.1:{port}/bot")
    with pytest.raises(TelegramStopped) as info:
        async with open_sender(gone, attempts=2):
            raise AssertionError("connected to nothing")
    assert str(info.value).startswith("telegram: cannot reach the Bot API at 127.0.0.1:")
    assert "after 2 tries" in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(TelegramStopped) as info:
        async with open_sender(tg_settings.replace("telegram", token="999:WRONG-token")):
            raise AssertionError("a wrong token connected")
    assert "rejected the token" in str(info.value) and "WRONG" not in str(info.value)
    with pytest.raises(TelegramStopped) as info:
        async with open_sender(tg_settings.replace("telegram", token="")):
            raise AssertionError("no token connected")
    assert "no bot token" in str(info.value)


# ------------------------------------------------------------------ webhook
def _hooked(settings, port: int, secret: str = "s3cret-Token_1"):
    return settings.replace("telegram", webhook_url=f"http://127.0.0.1:{port}/telegram-hook",
                            webhook_port=port, webhook_secret=secret)


async def test_webhook_checks_the_secret_and_answers_once(fake, bot, tg_settings, running):
    port = free_port()
    async with running(bot, _hooked(tg_settings, port), fake):
        await fake.wait_for(lambda: fake.webhook is not None, what="setWebhook")
        assert fake.webhook == {"url": f"http://127.0.0.1:{port}/telegram-hook", "secret_token": "s3cret-Token_1"}
        assert fake.calls_to("setWebhook")[0].get("drop_pending_updates") in (None, False)
        update = {"update_id": 900, "message": fake.message("/whoami", chat_id=PARENT, user_id=PARENT)}
        assert await fake.deliver(update, secret="wrong") == 403
        assert await fake.deliver(update, secret=None) == 403
        assert await fake.deliver(update) == 200
        await fake.wait_sent(1, PARENT)
        assert await fake.deliver(update) == 200  # Telegram delivering again: not answered twice
        assert await fake.deliver({"update_id": 901, "message": fake.message(
            "/help", chat_id=PARENT, user_id=PARENT)}) == 200
        assert await fake.deliver({"no": "update"}) == 200  # acknowledged and dropped: a retry would not fix it
        await fake.wait_sent(2, PARENT)
    texts = fake.sent_texts(PARENT)
    assert len(texts) == 2 and "You are telegram user" in texts[0] and "Commands:" in texts[1]
    assert fake.calls_to("getUpdates") == []


async def test_a_webhook_update_with_a_lone_surrogate_is_journalled(fake, bot, tg_settings, running):
    """JSON may carry half an emoji ("\\ud800"); the journal must still store it, or Telegram retries forever."""
    port = free_port()
    async with running(bot, _hooked(tg_settings, port), fake):
        await fake.wait_for(lambda: fake.webhook is not None, what="setWebhook")
        edited = fake.message("is school open \ud800 monday?", chat_id=PARENT, user_id=PARENT)
        assert await fake.deliver({"update_id": 960, "edited_message": edited}) == 200
        await fake.wait_for(lambda: UpdateJournal(bot.store, str(BOT_ID)).seen(960), what="update 960 handled")
    journal = UpdateJournal(bot.store, "1")
    assert journal.receive(1, {"update_id": 1, "message": {"text": "\ud800"}})
    assert journal.unhandled() == [{"update_id": 1, "message": {"text": "\ud800"}}]


async def test_a_webhook_update_is_journalled_before_the_200(fake, bot, tg_settings, running):
    port = free_port()
    fake.fail("sendMessage", 429, retry_after=60, chat_ids=[str(PARENT)])  # the reply stalls after the 200
    async with running(bot, _hooked(tg_settings, port), fake, crash=True):
        await fake.wait_for(lambda: fake.webhook is not None, what="setWebhook")
        update = {"update_id": 950, "message": fake.message("/whoami", chat_id=PARENT, user_id=PARENT)}
        assert await fake.deliver(update) == 200
        # Acknowledged: from here on Telegram would never send it again. It is in the journal, waiting to be
        # handled, or handled with its reply in the queue.
        journal = UpdateJournal(bot.store, str(BOT_ID))
        assert journal.unhandled() == [update] or journal.seen(950)
        await fake.wait_for(lambda: fake.calls_to("sendMessage"), what="the reply tried")
    assert fake.sent(PARENT) == []
    assert journal.seen(950) and journal.unhandled() == []
    assert bot.store.conn.execute("SELECT chat_id, state FROM replies").fetchall() == [(str(PARENT), "pending")]


async def test_webhook_kill_and_restart_loses_nothing_and_answers_once(fake, serve_env):
    """A real process, SIGKILLed after Telegram got its 200s; the next start answers what was left, once."""
    port = free_port()
    serve_env.update({"SCHOOLBOT_TELEGRAM_TOKEN": fake.token,
                      "SCHOOLBOT_TELEGRAM_WEBHOOK_URL": f"http://127.0.0.1:{port}/hook",
                      "SCHOOLBOT_TELEGRAM_WEBHOOK_PORT": str(port),
                      "SCHOOLBOT_TELEGRAM_WEBHOOK_SECRET": "kill-test-secret"})

    async def start() -> asyncio.subprocess.Process:
        fake.webhook = None
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "adapters.cli", "serve", "--telegram", cwd=str(REPO), env=serve_env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        await fake.wait_for(lambda: fake.webhook is not None, timeout=30, what="setWebhook")
        return proc

    proc = await start()
    answered_first = {"update_id": 7001, "message": fake.message("/whoami", chat_id=PARENT, user_id=PARENT)}
    assert await fake.deliver(answered_first) == 200
    await fake.wait_sent(1, PARENT, timeout=20)
    await fake.wait_for(lambda: _handled(serve_env, 7001), what="update 7001 journalled as handled")
    for chat in ("1002", "1003"):  # these replies stall ...
        fake.fail("sendMessage", 429, retry_after=60, chat_ids=[chat])
    stalled = [{"update_id": 7002, "message": fake.message("/whoami", chat_id=1002, user_id=1002)},
               {"update_id": 7003, "message": fake.message("/help", chat_id=1003, user_id=1003)}]
    for update in stalled:
        assert await fake.deliver(update) == 200  # ... after Telegram got its 200
    await fake.wait_for(lambda: len(fake.calls_to("sendMessage")) >= 3, what="the stalled sends")
    proc.kill()  # SIGKILL: no clean-up of any kind
    await proc.wait()
    assert fake.sent(1002) == [] and fake.sent(1003) == []

    proc = await start()
    try:
        await fake.wait_sent(1, 1002, timeout=20)
        await fake.wait_sent(1, 1003, timeout=20)
        assert await fake.deliver(answered_first) == 200  # Telegram sending an old one again
        after = {"update_id": 7004, "message": fake.message("/start", chat_id=PARENT, user_id=PARENT)}
        assert await fake.deliver(after) == 200
        await fake.wait_sent(2, PARENT, timeout=20)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err.decode()
    assert "2 replies queued before the last stop not sent yet" in err.decode()  # handled, queued, not sent
    assert len(fake.sent_texts(1002)) == 1 and "You are telegram user 1002" in fake.sent_texts(1002)[0]
    assert len(fake.sent_texts(1003)) == 1 and "Commands:" in fake.sent_texts(1003)[0]
    assert len(fake.sent_texts(PARENT)) == 2  # /whoami once, /start once
    assert all(_handled(serve_env, uid) for uid in (7001, 7002, 7003, 7004))


def _handled(env: dict, update_id: int) -> bool:
    conn = sqlite3.connect(env["SCHOOLBOT_DATABASE_PATH"])
    try:
        row = conn.execute("SELECT state FROM telegram_updates WHERE update_id = ?", (update_id,)).fetchone()
    except sqlite3.OperationalError:  # the table is not there yet
        return False
    finally:
        conn.close()
    return row is not None and row[0] == "handled"


async def test_an_older_journal_table_is_migrated(tmp_path):
    """A database from before the webhook journal (schema 4): its rows count as handled, and new ones can be journalled."""
    path = tmp_path / "old.db"
    open_store(path).close()
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE telegram_updates")
    conn.execute("CREATE TABLE telegram_updates (bot TEXT NOT NULL, update_id INTEGER NOT NULL, "
                 "handled TEXT NOT NULL, PRIMARY KEY (bot, update_id))")
    conn.execute("INSERT INTO telegram_updates VALUES ('42', 5, '2019-10-01T00:00:00+00:00')")
    conn.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    store = open_store(path)  # knowledge/schema.py migrates it to the latest version
    journal = UpdateJournal(store, "42")
    assert journal.seen(5) and not journal.seen(6)
    assert journal.receive(6, {"update_id": 6}) and journal.unhandled() == [{"update_id": 6}]
    assert not journal.receive(5, {"update_id": 5})
    journal.mark(6)
    assert journal.seen(6) and journal.unhandled() == []


async def test_a_webhook_update_that_can_never_be_handled_is_acknowledged_and_dropped(fake, bot, tg_settings, running,
                                                                                       caplog):
    """Telegram sends again whatever is not answered 2xx: an update no retry can fix gets a 200, one warning, no 500."""
    port = free_port()
    hopeless = [
        {"update_id": 2**80, "message": fake.message("/help", chat_id=PARENT, user_id=PARENT)},  # beyond SQLite
        b'{"update_id": 970, "message": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",  # nested 100,000 deep
        b"not JSON at all", b"[970]", {"no": "update"}, {"update_id": "970"}, {"update_id": True}, {"update_id": -5},
        b'{"update_id": 971, "text": "\xff\xfe"}',  # not UTF-8
    ]
    with caplog.at_level(logging.WARNING, logger="schoolbot.telegram"):
        async with running(bot, _hooked(tg_settings, port), fake):
            await fake.wait_for(lambda: fake.webhook is not None, what="setWebhook")
            for body in hopeless:
                assert await fake.deliver(body) == 200, body if isinstance(body, dict) else body[:40]
            good = {"update_id": 972, "message": fake.message("/whoami", chat_id=PARENT, user_id=PARENT)}
            assert await fake.deliver(good) == 200
            await fake.wait_sent(1, PARENT)
    dropped = [r for r in caplog.records if "dropped" in r.getMessage()]
    assert len(dropped) == len(hopeless) and not any(r.exc_info for r in dropped)  # one line each, no traceback
    assert all("\n" not in r.getMessage() and len(r.getMessage()) < 300 for r in dropped)
    rows = bot.store.conn.execute("SELECT update_id FROM telegram_updates").fetchall()
    assert rows == [(972,)]
