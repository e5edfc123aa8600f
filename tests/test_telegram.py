"""The Telegram adapter, with python-telegram-bot for real against the fake Bot API server.

Nothing of ours is mocked: the real core (conftest's bot and store, the
shipped knowledge) answers, python-telegram-bot talks HTTP to
tests/fake_telegram.py, and the assertions read the recorded sendMessage calls.
Messages are dated Thursday 2019-10-03 09:00 in Toronto (the fake's clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import sys
import time
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from adapters.telegram import COMMANDS, MAX_CHARS, TelegramSender, TelegramStopped, build_application, run_telegram
from bot.messages import Incoming, SendStatus
from bot.text import plain, split_text
from knowledge.model import Status

try:
    from tests.fake_telegram import ANONYMOUS_ADMIN_ID, BOT_USERNAME, FakeTelegram
except ImportError:  # pytest run without the repository root on sys.path
    from fake_telegram import ANONYMOUS_ADMIN_ID, BOT_USERNAME, FakeTelegram

REPO = Path(__file__).resolve().parent.parent
GROUP = -1001234567890
PARENT = 1001


@pytest.fixture
async def fake():
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
def tg_settings(settings, fake):
    return settings.replace("telegram", token=fake.token, base_url=fake.base_url)


@contextlib.asynccontextmanager
async def running(bot, settings, fake, *, crash: bool = False):
    """Run the adapter (long polling) while the block runs; stop it gracefully, or abruptly if crash=True."""
    stop = asyncio.Event()
    ready = asyncio.Event()
    task = asyncio.create_task(run_telegram(bot, settings, stop=stop, on_ready=lambda s: ready.set(), poll_timeout=5))
    await asyncio.wait([task, asyncio.ensure_future(ready.wait())], return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        task.result()  # raises what stopped it
    holder = {"task": task, "stop": stop}
    try:
        yield holder
    finally:
        if crash:
            task.cancel()  # like kill -9: nothing is confirmed on the way out
            with contextlib.suppress(asyncio.CancelledError):
                await task
        else:
            stop.set()
            await asyncio.wait_for(task, 10)


async def answered(fake, update, chat, count=1):
    """Wait for the update to be handled, return the texts sent to the chat."""
    await fake.wait_confirmed(update)
    return await fake.wait_sent(count, chat)


# ---------------------------------------------------------------- private chat
async def test_private_question_and_answer(fake, bot, tg_settings):
    async with running(bot, tg_settings, fake):
        update = fake.private("is school open monday in peel?", user_id=PARENT, name="Dana")
        texts = await answered(fake, update, PARENT)
        follow = fake.private("what services stopped?", user_id=PARENT, name="Dana")
        await answered(fake, follow, PARENT, 2)
    assert "Peel District School Board, Monday, October 7" in texts[0]
    params = fake.sent(PARENT)[0]
    assert "parse_mode" not in params  # plain text, always
    assert "reply_parameters" not in params  # no quoting in a private chat
    assert fake.sent_texts(PARENT)[1].strip()
    print("\n--- private chat transcript ---\n" + fake.transcript(PARENT))


async def test_startup_registers_commands_and_keeps_pending_updates(fake, bot, tg_settings):
    waiting = fake.private("/start", user_id=PARENT)  # arrived before the bot started
    async with running(bot, tg_settings, fake):
        await answered(fake, waiting, PARENT)
    registered = fake.calls_to("setMyCommands")[0]["commands"]
    assert [c["command"] for c in registered] == [name for name, _ in COMMANDS]
    assert all(p.get("drop_pending_updates") in (None, False) for p in fake.calls_to("deleteWebhook"))
    assert fake.calls_to("getUpdates")[0].get("allowed_updates") == ["message", "my_chat_member"]


# ------------------------------------------------------------------- commands
@pytest.mark.parametrize("command, expected", [
    ("/start", "I answer parents' questions"),
    ("/help", "Commands:"),
    ("/board peel", "Got it: your board is Peel District School Board"),
    ("/board", "You haven't set a board yet"),
    ("/status peel", "Peel District School Board"),
    ("/status", "Which board is your child's?"),
    ("/subscribe peel", "You will now get official updates for Peel District School Board"),
    ("/unsubscribe", "There were no updates to stop"),
    ("/whoami", f"You are telegram user {PARENT}"),
    (f"/help@{BOT_USERNAME}", "Commands:"),
])
async def test_each_command_in_private(fake, bot, tg_settings, command, expected):
    async with running(bot, tg_settings, fake):
        texts = await answered(fake, fake.private(command, user_id=PARENT), PARENT)
    assert expected in texts[0]


async def test_commands_change_the_store(fake, bot, store, tg_settings):
    async with running(bot, tg_settings, fake):
        await answered(fake, fake.private("/board tdsb", user_id=PARENT), PARENT, 1)
        texts = await answered(fake, fake.private("/status", user_id=PARENT), PARENT, 2)
        assert "Toronto District School Board" in texts[1]
        await answered(fake, fake.private("/subscribe", user_id=PARENT), PARENT, 3)
        assert store.subscriptions_of("telegram", str(PARENT)) == ["tdsb"]
        texts = await answered(fake, fake.private("/unsubscribe", user_id=PARENT), PARENT, 4)
        assert "no more updates for Toronto District School Board" in texts[3]
    assert store.subscriptions_of("telegram", str(PARENT)) == []
    assert store.get_user("telegram", str(PARENT))["board"] == "tdsb"


# --------------------------------------------------------------------- groups
async def test_group_message_not_addressed_gets_no_reply(fake, bot, tg_settings):
    async with running(bot, tg_settings, fake):
        chatter = [
            fake.group("is school open monday in peel?"),
            fake.group("/status@some_other_bot peel"),  # a command for another bot
            fake.group("thanks everyone, see you at pickup"),
        ]
        for update in chatter:
            await fake.wait_confirmed(update)
    assert fake.sent(GROUP) == []
    assert fake.calls_to("getChatMember") == []


async def test_group_mention_command_and_reply_are_answered(fake, bot, tg_settings):
    async with running(bot, tg_settings, fake):
        chatter = fake.group("anyone know if school is open monday in peel?", user_id=2002, name="Alex")
        await fake.wait_confirmed(chatter)
        assert fake.sent(GROUP) == []  # not addressed: the bot stays quiet
        asked = fake.group(f"@{BOT_USERNAME} is school open monday in peel?", user_id=2001, name="Sam")
        texts = await answered(fake, asked, GROUP)
        assert "Peel District School Board, Monday, October 7" in texts[0]
        first = fake.sent(GROUP)[0]
        assert first["reply_parameters"]["message_id"] == asked["message"]["message_id"]
        assert "parse_mode" not in first

        bots_answer = fake.last_sent_message(GROUP)
        follow = fake.group("and what services stopped?", user_id=2002, name="Alex", reply_to=bots_answer)
        await answered(fake, follow, GROUP, 2)

        command = fake.group(f"/status@{BOT_USERNAME} tdsb", user_id=2001, name="Sam")
        texts = await answered(fake, command, GROUP, 3)
        assert "Toronto District School Board" in texts[2]
        plain_command = fake.group("/help", user_id=2003, name="Kim")
        await answered(fake, plain_command, GROUP, 4)
    print("\n--- group chat transcript ---\n" + fake.transcript(GROUP))


async def test_group_subscription_needs_a_group_admin(fake, bot, store, tg_settings):
    async with running(bot, tg_settings, fake):
        texts = await answered(fake, fake.group("/subscribe peel", user_id=2001), GROUP)
        assert "Only this group's admins" in texts[0]
        assert store.subscriptions_of("telegram", str(GROUP)) == []

        fake.set_member(GROUP, 2009, "administrator")
        texts = await answered(fake, fake.group("/subscribe peel", user_id=2009), GROUP, 2)
        assert "This group will now get official updates for Peel District School Board" in texts[1]
        assert store.subscriptions_of("telegram", str(GROUP)) == ["pdsb"]

        texts = await answered(fake, fake.group("/unsubscribe", user_id=2001), GROUP, 3)
        assert "Only this group's admins" in texts[2]

        # An anonymous admin posts as the group itself.
        anonymous = fake.group("/unsubscribe", user_id=ANONYMOUS_ADMIN_ID,
                               sender_chat=fake.chat(GROUP))
        texts = await answered(fake, anonymous, GROUP, 4)
        assert "no more updates" in texts[3]
    asked = [(p["chat_id"], p["user_id"]) for p in fake.calls_to("getChatMember")]
    assert asked == [(str(GROUP), "2001"), (str(GROUP), "2009"), (str(GROUP), "2001")]
    assert store.subscriptions_of("telegram", str(GROUP)) == []


# ------------------------------------------------------------- long answers
async def test_a_5000_character_answer_is_split_in_two(fake, bot, store, tg_settings):
    sentence = "Buses run on the usual schedule but the office closes at noon for staff meetings. "
    store.put_status(Status(  # a board notice as long as some real ones
        id="peel-long-notice", board="pdsb", start=date(2019, 10, 3), until=date(2019, 10, 3), status="open",
        summary=(sentence * 60).strip(), source="peel-notice.txt",
        published=datetime(2019, 10, 2, 20, 0, tzinfo=UTC),
    ))
    async with running(bot, tg_settings, fake):
        texts = await answered(fake, fake.private("/status peel", user_id=PARENT), PARENT, 2)
    # What the core says to the same question (another user, same moment):
    replies = bot.handle(Incoming("telegram", "55", "55", "/status peel", fake.clock))
    full = plain(replies[0].text)
    assert len(replies) == 1 and 5000 < len(full) < 2 * MAX_CHARS
    assert len(texts) == 2 and all(len(t) <= MAX_CHARS for t in texts)
    assert texts == split_text(full, MAX_CHARS)
    assert texts[0].endswith(".") and full.startswith(texts[0]) and full.endswith(texts[1])  # cut between sentences
    assert texts[0] + " " + texts[1] == full or texts[0] + "\n" + texts[1] == full


# ---------------------------------------------------------------- rate limits
async def test_429_is_waited_out_then_sent(fake, bot, tg_settings):
    fake.fail("sendMessage", 429, retry_after=1)
    async with running(bot, tg_settings, fake):
        update = fake.private("what does work-to-rule mean?", user_id=PARENT)
        texts = await answered(fake, update, PARENT)
    tries = [c for c in fake.calls if c.method == "sendMessage"]
    assert len(tries) == 2 and tries[0].params["text"] == tries[1].params["text"] == texts[0]
    assert tries[1].at - tries[0].at >= 1.0  # retry_after honoured


async def test_rate_limiting_can_be_turned_off(fake, bot, tg_settings):
    from telegram.ext import AIORateLimiter

    assert isinstance(build_application(tg_settings).bot.rate_limiter, AIORateLimiter)
    off = tg_settings.replace("limits", telegram_per_second=0)
    assert build_application(off).bot.rate_limiter is None
    async with running(bot, off, fake):
        await answered(fake, fake.private("/help", user_id=PARENT), PARENT)


async def test_sender_maps_errors_to_outcomes(fake, store, tg_settings):
    store.subscribe("telegram", "777", "pdsb", "private", "777")
    store.subscribe("telegram", "778", "all", "private", "778")
    app = build_application(tg_settings)
    await app.initialize()
    try:
        sender = TelegramSender(app.bot)
        assert (await sender.send_text("777", "Peel: schools open tomorrow.")).status is SendStatus.SENT

        fake.fail("sendMessage", 429, retry_after=3)
        outcome = await sender.send_text("777", "again")
        assert outcome.status is SendStatus.RETRY and outcome.retry_after == 3

        fake.fail("sendMessage", 502)
        assert (await sender.send_text("777", "again")).status is SendStatus.RETRY

        fake.fail("sendMessage", 400)
        assert (await sender.send_text("777", "again")).status is SendStatus.FAILED

        fake.fail("sendMessage", 401)  # the token was revoked: the outbox waits, nobody is marked failed
        outcome = await sender.send_text("777", "again")
        assert outcome.status is SendStatus.RETRY and outcome.retry_after >= 60

        fake.fail("sendMessage", 403, chat_ids=["777"])
        outcome = await sender.send_text("777", "Peel: update")
        assert outcome.status is SendStatus.BLOCKED  # reported only: the worker or the core decides
        assert store.subscriptions_of("telegram", "777") == ["pdsb"]

        long = ("A sentence that goes on. " * 300).strip()
        assert (await sender.send_text("778", long)).status is SendStatus.SENT
        assert [len(t) <= MAX_CHARS for t in fake.sent_texts("778")] == [True, True]
        assert all("parse_mode" not in p for p in fake.sent())
    finally:
        await app.shutdown()


async def test_a_reply_refused_with_403_stops_that_chats_subscriptions(fake, bot, store, tg_settings):
    async with running(bot, tg_settings, fake):
        await answered(fake, fake.private("/subscribe all", user_id=PARENT), PARENT)
        store.subscribe("telegram", "4242", "pdsb", "private", "4242")
        fake.fail("sendMessage", 403, chat_ids=[str(PARENT)], times=5)
        fake.private("is school open monday in peel?", user_id=PARENT)
        for _ in range(200):
            if not store.subscriptions_of("telegram", str(PARENT)):
                break
            await asyncio.sleep(0.02)
    assert store.subscriptions_of("telegram", str(PARENT)) == []
    assert store.subscriptions_of("telegram", "4242") == ["pdsb"]  # others untouched


async def test_user_blocking_the_bot_marks_subscriptions_inactive(fake, bot, store, tg_settings):
    async with running(bot, tg_settings, fake):
        await answered(fake, fake.private("/subscribe all", user_id=PARENT), PARENT)
        assert store.subscriptions_of("telegram", str(PARENT)) == ["all"]
        blocked = fake.membership("kicked", chat_id=PARENT, user_id=PARENT)
        await fake.wait_confirmed(blocked)
    assert store.subscriptions_of("telegram", str(PARENT)) == []


# --------------------------------------------------------- odd and bad input
async def test_malformed_updates_are_handled_without_error(fake, bot, tg_settings, caplog):
    caplog.set_level(logging.WARNING)
    async with running(bot, tg_settings, fake):
        odd = [
            fake.sticker(chat_id=PARENT, user_id=PARENT),  # private sticker: a short hint
            fake.sticker(chat_id=GROUP, user_id=2001),  # group sticker: nothing
            fake.edited("is school open monday in peel?", chat_id=PARENT, user_id=PARENT),
            fake.channel_post("Schools are closed!"),
            fake.channel_post(None),
            fake.private(None, user_id=PARENT),  # no text, no content at all
            fake.group(None, new_chat_members=[fake.user(3001)]),  # service message
            fake.add_update({"message_reaction": {"chat": fake.chat(PARENT), "message_id": 1,
                                                  "date": 1570107600, "old_reaction": [], "new_reaction": []}}),
            fake.add_update({"some_future_update_kind": {"x": 1}}),
        ]
        for update in odd:
            await fake.wait_confirmed(update)
        after = fake.private("/help", user_id=PARENT)  # still alive and answering
        await answered(fake, after, PARENT, 2)
    texts = fake.sent_texts(PARENT)
    assert len(texts) == 2 and "Send me a question" in texts[0] and "Commands:" in texts[1]
    assert fake.sent(GROUP) == [] and fake.sent(-1009876543210) == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_crash_in_one_update_is_logged_and_the_bot_goes_on(fake, bot, tg_settings, caplog):
    # The API answers a sendMessage with a result that is not a Message: the library raises.
    fake.fail("sendMessage", 200, result={"not": "a message"})
    async with running(bot, tg_settings, fake):
        broken = fake.private("/help", user_id=PARENT)
        await fake.wait_confirmed(broken)
        fine = fake.private("/whoami", user_id=PARENT)
        texts = await answered(fake, fine, PARENT)
    assert f"You are telegram user {PARENT}" in texts[0]
    crash_logs = [r for r in caplog.records if r.levelno >= logging.ERROR and str(broken["update_id"]) in r.getMessage()]
    assert crash_logs and crash_logs[0].exc_info


async def test_network_errors_back_off_and_recover(fake, bot, tg_settings):
    fake.fail("getUpdates", 502, times=2)
    async with running(bot, tg_settings, fake):
        started = time.monotonic()
        update = fake.private("/help", user_id=PARENT)
        await answered(fake, update, PARENT)
    assert time.monotonic() - started >= 1.0  # backed off (1 s, then 2 s) instead of hammering
    assert len([c for c in fake.calls if c.method == "getUpdates"]) >= 3


# ----------------------------------------------------------- exactly once
async def test_restart_neither_replays_nor_drops(fake, bot, tg_settings):
    # Two messages wait for the bot; they come in one getUpdates batch.
    one = fake.private("/help", user_id=PARENT)
    two = fake.private("/whoami", user_id=1002)
    fake.fail("sendMessage", 429, retry_after=60, chat_ids=["1002"])  # the second reply stalls ...
    async with running(bot, tg_settings, fake, crash=True):
        await fake.wait_sent(1, PARENT)
        await fake.wait_for(lambda: any(p["chat_id"] == "1002" for p in fake.calls_to("sendMessage")))
        await fake.wait_for(lambda: bot.store.conn.execute(
            "SELECT count(*) FROM telegram_updates").fetchone()[0] == 1, what="the first update journaled")
    # ... and the bot dies (kill -9) mid-batch: Telegram has confirmation of neither.
    assert not fake.confirmed(one["update_id"]) and not fake.confirmed(two["update_id"])

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
    assert "Commands:" in texts[0] and "Peel District School Board" in texts[1] and "Commands:" in texts[2]
    assert len(fake.sent_texts(1002)) == 1 and "You are telegram user 1002" in fake.sent_texts(1002)[0]
    assert len(fake.sent_texts(GROUP)) == 1 and "Toronto District School Board" in fake.sent_texts(GROUP)[0]


async def test_409_conflict_stops_with_one_clear_error(fake, bot, tg_settings):
    fake.fail("getUpdates", 409, times=100)
    with pytest.raises(TelegramStopped) as info:
        await asyncio.wait_for(run_telegram(bot, tg_settings, poll_timeout=1), 10)
    message = str(info.value)
    assert "409 Conflict" in message and "another process" in message and "\n" not in message
    assert len(fake.calls_to("getUpdates")) == 1  # no fighting


async def test_rejected_token_stops_with_one_clear_error(fake, bot, tg_settings):
    wrong = tg_settings.replace("telegram", token="999:WRONG-token")
    with pytest.raises(TelegramStopped) as info:
        await run_telegram(bot, wrong)
    assert "rejected the token" in str(info.value) and "WRONG" not in str(info.value)


# -------------------------------------------------------------------- webhook
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_webhook_mode_checks_the_secret(fake, bot, tg_settings):
    pytest.importorskip("tornado")
    port = _free_port()
    hooked = tg_settings.replace("telegram", webhook_url=f"http://127.0.0.1:{port}/telegram-hook",
                                 webhook_port=port, webhook_secret="s3cret-Token_1")
    async with running(bot, hooked, fake):
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
        await fake.wait_sent(2, PARENT)
    texts = fake.sent_texts(PARENT)
    assert len(texts) == 2 and "You are telegram user" in texts[0] and "Commands:" in texts[1]
    assert fake.calls_to("getUpdates") == []


# -------------------------------------------------------- the serve command
async def _schoolbot(*args: str, env: dict[str, str], timeout: float = 60) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "adapters.cli", *args, cwd=str(REPO), env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    return proc.returncode, out.decode(), err.decode()


@pytest.fixture
def serve_env(tmp_path, fake):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHOOLBOT_")}
    env.update({
        "SCHOOLBOT_DATABASE_PATH": str(tmp_path / "serve.db"),
        "SCHOOLBOT_TELEGRAM_BASE_URL": fake.base_url,
        "PYTHONPATH": str(REPO),
    })
    return env


async def test_serve_without_a_token_is_one_clear_line(serve_env):
    code, out, err = await _schoolbot("serve", "--telegram", env=serve_env)
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and "SCHOOLBOT_TELEGRAM_TOKEN" in err
    code, out, err = await _schoolbot("serve", env=serve_env)
    assert code != 0 and err.count("\n") == 1 and "no platform token" in err


async def test_serve_with_a_rejected_token_is_one_clear_line(fake, serve_env):
    serve_env["SCHOOLBOT_TELEGRAM_TOKEN"] = "999:WRONG-secret-token"
    code, out, err = await _schoolbot("serve", "--quiet", env=serve_env)  # no flag: configured platforms
    assert code == 1
    assert err.count("\n") == 1 and "rejected the token" in err
    assert "WRONG-secret-token" not in err + out


async def test_serve_reports_a_409_conflict_and_exits(fake, serve_env):
    serve_env["SCHOOLBOT_TELEGRAM_TOKEN"] = fake.token
    fake.fail("getUpdates", 409, times=100)
    code, out, err = await _schoolbot("serve", "--telegram", "--quiet", env=serve_env)
    assert code == 1
    assert err.count("\n") == 1 and "409 Conflict" in err
    assert fake.token not in err + out


async def test_serve_answers_then_stops_on_sigterm(fake, serve_env):
    import signal

    serve_env["SCHOOLBOT_TELEGRAM_TOKEN"] = fake.token
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "adapters.cli", "serve", "--telegram", cwd=str(REPO), env=serve_env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    try:
        update = fake.private("/whoami", user_id=PARENT)
        await answered(fake, update, PARENT)
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err.decode()
    assert fake.confirmed(update["update_id"])
    assert fake.token not in err.decode()
    assert "polling as @" + BOT_USERNAME in err.decode()


async def test_loading_the_cli_does_not_import_platform_libraries():
    code = ("import sys, adapters.cli; adapters.cli.build_parser(); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'telegram', 'discord', 'aiohttp', 'httpx'}))")
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", code, cwd=str(REPO),
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    assert proc.returncode == 0, err.decode()
    assert out.decode().strip() == "[]"


async def test_a_group_upgraded_to_a_supergroup_keeps_its_subscriptions(fake, bot, store, tg_settings):
    """Telegram gives a growing group a new id; the bot follows it, both ways it can learn of it."""
    old, new = "-4001", "-1004001"
    store.subscribe("telegram", old, "tdsb", "group", "1")

    # 1. The migration service message moves the subscriptions.
    async with running(bot, tg_settings, fake):
        update = fake.add_update({"message": fake.message(None, chat_id=int(old), user_id=2001, chat_type="group",
                                                          migrate_to_chat_id=int(new))})
        for _ in range(200):
            if fake.confirmed(update["update_id"]):
                break
            await asyncio.sleep(0.02)
    assert store.subscriptions_of("telegram", old) == []
    assert store.subscriptions_of("telegram", new) == ["tdsb"]

    # 2. A send to the old id (the message was missed) is delivered to the new one.
    app = build_application(tg_settings)
    await app.initialize()
    try:
        fake.fail("sendMessage", 400, chat_ids=[old], migrate_to=int(new))
        outcome = await TelegramSender(app.bot).send_text(old, "Official update")
    finally:
        await app.shutdown()
    assert outcome.status is SendStatus.SENT
    assert fake.sent_texts(new)[-1] == "Official update"
