"""The outbox and its delivery workers: written before sending, delivered once, limits, retries, blocks.

The core logic is driven through small in-test Senders (the platform boundary);
the end-to-end tests go through python-telegram-bot and the fake Bot API server
(tests/fake_telegram.py), and through `schoolbot serve`'s delivery hook.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from bot.admin import REFUSAL
from bot.messages import SendOutcome, SendStatus
from bot.outbox import DeliveryWorker, Limits, Outbox, RateLimiter, broadcast_text, run_workers
from knowledge.store import Store
from tests.conftest import THURSDAY, message

try:
    from tests.fake_telegram import FakeTelegram
except ImportError:  # pragma: no cover
    from fake_telegram import FakeTelegram

STAFF = "777"


@pytest.fixture
def settings(tmp_path):
    from bot.settings import Settings

    return (
        Settings()
        .replace("database", path=str(tmp_path / "schoolbot.db"))
        .replace("roles", province_admins=("test:1", "telegram:1"), board_staff=("test:777=tdsb", "telegram:777=tdsb"))
    )


class Scripted:
    """A Sender whose outcomes per chat follow a script; records every call."""

    platform = "test"

    def __init__(self, script: dict[str, list[SendOutcome]] | None = None, delay: float = 0.0):
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.calls: list[tuple[str, str, float]] = []
        self.delay = delay

    async def send_text(self, chat_id: str, text: str) -> SendOutcome:
        self.calls.append((chat_id, text, time.monotonic()))
        if self.delay:
            await asyncio.sleep(self.delay)
        queue = self.script.get(chat_id)
        if queue:
            return queue.pop(0)
        return SendOutcome(SendStatus.SENT)

    def received(self) -> Counter:
        return Counter(c for c, _, _ in self.calls)


def subscribe(store: Store, count: int, board: str = "tdsb", platform: str = "test", start: int = 0) -> list[str]:
    chats = [str(100000 + i) for i in range(start, start + count)]
    with store.lock:
        store.conn.executemany(
            "INSERT OR REPLACE INTO subscriptions (platform, chat_id, board, chat_kind, user_id, active, created, updated) "
            "VALUES (?, ?, ?, 'private', ?, 1, '2019-10-01', '2019-10-01')",
            [(platform, c, board, c) for c in chats],
        )
    return chats


def worker(store, sender, settings, **kw) -> DeliveryWorker:
    kw.setdefault("poll_interval", 0.01)
    kw.setdefault("base_backoff", 0.01)
    return DeliveryWorker(store, sender, settings, **kw)


# ------------------------------------------------------------------ outbox
async def test_outbox_is_written_before_anything_is_sent(store, settings):
    chats = subscribe(store, 10)
    subscribe(store, 3, board="all", start=100)
    subscribe(store, 2, board="pdsb", start=200)
    store.subscribe("console", "local", "tdsb", "private", "local")  # nowhere to deliver later: left out
    outbox = Outbox(store)
    assert outbox.recipients("tdsb") == {"test": 13}
    assert outbox.recipients("all") == {"test": 15}
    broadcast_id = outbox.create("tdsb", "Hello", "HEADER Hello", "test:777")
    rows = store.conn.execute("SELECT chat_id, state FROM deliveries WHERE broadcast_id = ?", (broadcast_id,)).fetchall()
    assert len(rows) == 13 and {s for _, s in rows} == {"pending"}
    assert set(chats) <= {c for c, _ in rows}
    progress = outbox.progress(broadcast_id)
    assert (progress.total, progress.done_count, progress.state) == (13, 0, "sending")


async def test_a_chat_subscribed_twice_gets_one_message(store, settings):
    store.subscribe("test", "42", "tdsb", "private", "42")
    store.subscribe("test", "42", "all", "private", "42")
    store.subscribe("test", "42", "pdsb", "private", "42")
    Outbox(store).create("all", "Hi", "Hi", "test:1")
    sender = Scripted()
    await worker(store, sender, settings).run(once=True)
    assert sender.received() == Counter({"42": 1})


async def test_idempotency_key_makes_one_broadcast(store):
    subscribe(store, 3)
    outbox = Outbox(store)
    first = outbox.create("tdsb", "Hi", "Hi", "test:1", key="pending:7")
    second = outbox.create("tdsb", "Hi", "Hi", "test:1", key="pending:7")
    assert first == second
    assert store.conn.execute("SELECT COUNT(*) FROM deliveries").fetchone()[0] == 3


def test_broadcast_text_has_a_header_and_the_body_verbatim():
    body = "Schools *open* <b>Monday</b> @everyone\n  second line  "
    text = broadcast_text("Toronto District School Board (TDSB)", THURSDAY, body)
    assert text.startswith("Official update for Toronto District School Board (TDSB), Oct 3, 2019, 9:00 a.m.:\n\n")
    assert body in text


# ---------------------------------------------------------- worker outcomes
async def test_retry_blocked_failed_and_counts(store, settings):
    chats = subscribe(store, 20)
    retry, blocked, failed, hopeless = chats[0], chats[1], chats[2], chats[3]
    script = {
        retry: [SendOutcome(SendStatus.RETRY, 0.05, "429"), SendOutcome(SendStatus.RETRY, 0.0, "network")],
        blocked: [SendOutcome(SendStatus.BLOCKED, detail="bot was blocked by the user")],
        failed: [SendOutcome(SendStatus.FAILED, detail="chat not found")],
        hopeless: [SendOutcome(SendStatus.RETRY, 0.0, "down")] * 10,
    }
    sender = Scripted(script)
    outbox = Outbox(store)
    broadcast_id = outbox.create("tdsb", "Hi", "Hi", "test:777", notify=("test", "staff-chat"))
    stats = await worker(store, sender, settings, max_attempts=4).run(once=True)
    received = sender.received()
    assert received[retry] == 3 and received[blocked] == 1 and received[failed] == 1 and received[hopeless] == 4
    assert all(received[c] == 1 for c in chats[4:])
    progress = outbox.progress(broadcast_id)
    assert (progress.delivered, progress.failed, progress.blocked, progress.state) == (17, 2, 1, "done")
    assert (stats.sent, stats.failed, stats.blocked) == (17, 2, 1)
    assert store.subscriptions_of("test", blocked) == []  # a blocked recipient is made inactive
    assert store.subscriptions_of("test", failed) == ["tdsb"]
    detail = store.conn.execute("SELECT detail FROM deliveries WHERE chat_id = ?", (hopeless,)).fetchone()[0]
    assert detail.startswith("gave up after 4 attempts")
    # The sender is told the counts at the end, once.
    assert [t for c, t, _ in sender.calls if c == "staff-chat"] == [
        f"Your broadcast #{broadcast_id} to tdsb is done: 17 delivered, 2 failed, 1 blocked (of 20 recipients)."
    ]


async def test_a_sender_that_raises_is_retried(store, settings):
    subscribe(store, 2)

    class Flaky(Scripted):
        async def send_text(self, chat_id, text):
            self.calls.append((chat_id, text, time.monotonic()))
            if len(self.calls) == 1:
                raise ConnectionResetError("boom")
            return SendOutcome(SendStatus.SENT)

    sender = Flaky()
    Outbox(store).create("tdsb", "Hi", "Hi", "test:777")
    await worker(store, sender, settings).run(once=True)
    assert sorted(sender.received().values()) == [1, 2]


async def test_concurrency_is_bounded(store, settings):
    subscribe(store, 60)
    in_flight, peak = 0, 0

    class Slow(Scripted):
        async def send_text(self, chat_id, text):
            nonlocal in_flight, peak
            in_flight += 1
            peak = max(peak, in_flight)
            await asyncio.sleep(0.005)
            in_flight -= 1
            return await super().send_text(chat_id, text)

    Outbox(store).create("tdsb", "Hi", "Hi", "test:777")
    sender = Slow()
    await worker(store, sender, settings, concurrency=5).run(once=True)
    assert peak == 5
    assert set(sender.received().values()) == {1}


async def test_only_one_worker_per_platform(store, settings):
    subscribe(store, 30)
    Outbox(store).create("tdsb", "Hi", "Hi", "test:777")
    first, second = Scripted(delay=0.01), Scripted()
    results = await asyncio.gather(worker(store, first, settings).run(once=True),
                                   worker(store, second, settings).run(once=True))
    assert results[1].busy_with is not None and results[1].busy_with["pid"] == os.getpid()
    assert second.calls == []
    assert set(first.received().values()) == {1} and len(first.received()) == 30


async def test_a_dead_workers_in_flight_rows_are_resent(store, settings):
    chats = subscribe(store, 10)
    outbox = Outbox(store)
    outbox.create("tdsb", "Hi", "Hi", "test:777")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])  # noqa: ASYNC220 - a pid that surely ended
    dead.wait()
    with store.lock:  # what a worker killed mid-send leaves behind
        store.conn.execute("INSERT INTO delivery_workers VALUES ('test', 'old', ?, ?, 'x', ?)",
                           (socket.gethostname(), dead.pid, time.time()))
        store.conn.execute("UPDATE deliveries SET state = 'sent', claim = 'old' WHERE chat_id IN (?, ?)", chats[:2])
        store.conn.execute("UPDATE broadcasts SET delivered = 2")
        store.conn.execute("UPDATE deliveries SET state = 'sending', claim = 'old', attempts = 1 WHERE chat_id IN (?, ?, ?)", chats[2:5])
    sender = Scripted()
    stats = await worker(store, sender, settings).run(once=True)
    assert stats.recovered == 3
    assert sorted(sender.received()) == sorted(chats[2:])
    progress = outbox.progress(1)
    assert (progress.delivered, progress.state) == (10, "done")


async def test_stop_gives_back_claimed_rows(store, settings):
    subscribe(store, 50)
    outbox = Outbox(store)
    outbox.create("tdsb", "Hi", "Hi", "test:777")
    sender = Scripted(delay=0.02)
    w = worker(store, sender, settings, concurrency=2)
    task = asyncio.create_task(w.run())
    while len(sender.calls) < 4:  # noqa: ASYNC110 - polling a test double is the simplest wait
        await asyncio.sleep(0.01)
    w.stop()
    await task
    states = dict(store.conn.execute("SELECT state, COUNT(*) FROM deliveries GROUP BY state").fetchall())
    assert "sending" not in states
    assert states["sent"] == len(sender.calls)
    await worker(store, sender, settings).run(once=True)
    assert set(sender.received().values()) == {1} and len(sender.received()) == 50


# ------------------------------------------------------------------ limits
def test_rate_limiter_per_chat_per_group_and_pause():
    now = [100.0]
    limiter = RateLimiter(Limits(30, 1.0, 20), clock=lambda: now[0])
    assert limiter.chat_wait("a", False) == 0
    limiter.note_send("a", False)
    assert limiter.chat_wait("a", False) == pytest.approx(1.0)
    assert limiter.chat_wait("b", False) == 0
    now[0] += 1.0
    assert limiter.chat_wait("a", False) == 0
    for _ in range(20):
        limiter.note_send("g", True)
        now[0] += 1.0
    assert limiter.chat_wait("g", True) == pytest.approx(40.0)  # 20 in the last minute: wait for the oldest
    now[0] += 40.0
    assert limiter.chat_wait("g", True) == 0
    limiter.pause(5)
    assert limiter.paused_until == pytest.approx(now[0] + 5)


async def test_overall_rate_spaces_sends(store, settings):
    subscribe(store, 11)
    Outbox(store).create("tdsb", "Hi", "Hi", "test:777")
    sender = Scripted()
    await worker(store, sender, settings, limits=Limits(per_second=50)).run(once=True)
    times = sorted(t for _, _, t in sender.calls)
    assert times[-1] - times[0] >= 10 / 50 * 0.95  # 11 sends at 50/s take at least 0.2 s


async def test_one_message_per_second_per_chat(store, settings):
    store.subscribe("test", "42", "tdsb", "private", "42")
    outbox = Outbox(store)
    outbox.create("tdsb", "First", "First", "test:777")
    outbox.create("tdsb", "Second", "Second", "test:777")
    sender = Scripted()
    await worker(store, sender, settings, limits=Limits(per_chat_interval=1.0)).run(once=True)
    assert [t for _, t, _ in sender.calls] == ["First", "Second"]
    assert sender.calls[1][2] - sender.calls[0][2] >= 0.95


async def test_retry_after_pauses_the_whole_worker(store, settings):
    chats = subscribe(store, 5)
    sender = Scripted({chats[0]: [SendOutcome(SendStatus.RETRY, 0.3, "429")]})
    Outbox(store).create("tdsb", "Hi", "Hi", "test:777")
    await worker(store, sender, settings, concurrency=1).run(once=True)
    first = sender.calls[0][2]
    assert all(t - first >= 0.29 for _, _, t in sender.calls[1:])


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


async def test_deliver_once_cli_drains_the_outbox(store, settings):
    from adapters.cli import main

    chats = subscribe(store, 25, platform="telegram")
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


async def test_run_workers_drains_each_platform(store, settings):
    subscribe(store, 5, platform="test")
    subscribe(store, 4, platform="other", start=50)

    class Other(Scripted):
        platform = "other"

    Outbox(store).create("tdsb", "Hi", "Hi", "test:777")
    a, b = Scripted(), Other()
    results = await run_workers(store, [a, b], settings, once=True, poll_interval=0.01)
    assert results["test"].sent == 5 and results["other"].sent == 4
    assert len(a.received()) == 5 and len(b.received()) == 4


def test_a_non_admin_through_bot_handle_queues_nothing(bot, store):
    subscribe(store, 3)
    replies = bot.handle(message("/broadcast tdsb hello", user="nobody"))
    assert [r.text for r in replies] == [REFUSAL]
    assert Outbox(store).recent() == []


async def test_deliver_with_a_rejected_token_says_so_in_one_line_without_the_token(settings, store):
    """python-telegram-bot quotes the token in InvalidToken; `deliver` must not pass it on."""
    from tests.fake_telegram import FakeTelegram

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


async def test_a_failed_lease_renewal_is_retried_and_a_lasting_one_stops_the_worker(store, settings, monkeypatch):
    """A worker that can no longer renew its lease must stop before another may take over."""
    import sqlite3

    from bot import outbox as outbox_module

    monkeypatch.setattr(outbox_module, "HEARTBEAT_SECONDS", 0.01)
    monkeypatch.setattr(outbox_module, "LEASE_STALE_SECONDS", 0.1)  # stop after 5 failed beats in a row
    subscribe(store, 3)
    Outbox(store).create("tdsb", "Hi", "Hi", "test:777")
    w = worker(store, Scripted(), settings, concurrency=1)
    renew = w.outbox.heartbeat
    failures = {"left": 1}

    def flaky(platform, token):  # the database is busy for one beat, then fine
        if failures["left"]:
            failures["left"] -= 1
            raise sqlite3.OperationalError("database is locked")
        return renew(platform, token)

    monkeypatch.setattr(w.outbox, "heartbeat", flaky)
    task = asyncio.create_task(w.run())
    await asyncio.sleep(0.2)
    assert not task.done()  # one failed beat: still delivering
    failures["left"] = 10**6  # now it never comes back
    await asyncio.wait_for(task, 5)  # the worker stops by itself


async def test_a_database_hiccup_after_a_send_is_retried_not_a_teardown(store, settings, monkeypatch):
    """Recording a send's outcome can meet a busy database; the others in flight must not be torn down."""
    import sqlite3

    chats = subscribe(store, 20)
    outbox = Outbox(store)
    broadcast = outbox.create("tdsb", "Hi", "Hi", "test:777")
    sender = Scripted(delay=0.01)
    w = worker(store, sender, settings, concurrency=4)
    finish = w.outbox.finish
    hiccups = {"left": 2}

    def busy_sometimes(*args, **kwargs):
        if hiccups["left"]:
            hiccups["left"] -= 1
            raise sqlite3.OperationalError("database is locked")
        return finish(*args, **kwargs)

    monkeypatch.setattr(w.outbox, "finish", busy_sometimes)
    stats = await asyncio.wait_for(w.run(once=True), 30)
    assert sorted(sender.received()) == sorted(chats)
    assert all(n == 1 for n in sender.received().values())  # nobody twice
    assert stats.sent == 20 and outbox.progress(broadcast).delivered == 20


async def test_a_lasting_database_failure_stops_the_worker_cleanly(store, settings, monkeypatch):
    import sqlite3

    from bot import outbox as outbox_module

    monkeypatch.setattr(outbox_module, "SETTLE_ATTEMPTS", 2)
    subscribe(store, 5)
    Outbox(store).create("tdsb", "Hi", "Hi", "test:777")
    w = worker(store, Scripted(), settings, concurrency=1)

    def always_busy(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(w.outbox, "finish", always_busy)
    await asyncio.wait_for(w.run(), 10)  # returns (stopped), does not raise
