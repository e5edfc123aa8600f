"""The delivery worker: outcomes, concurrency, one worker per platform, crashes, limits, long text, wake-up."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time

import pytest

from bot.broadcast import Outbox
from bot.broadcast.limiter import RateLimiter
from bot.broadcast.worker import run_workers
from bot.messages import SendLimits as Limits
from bot.messages import SendOutcome, SendStatus
from tests.broadcast.helpers import Scripted, subscribe, worker


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


# ------------------------------------------------------- long text, wake-up
async def test_a_text_longer_than_the_platform_allows_goes_out_in_parts_and_a_retry_resumes(store, settings):
    from bot.messages import SendLimits

    chats = subscribe(store, 2)
    body = " ".join(f"Sentence number {k} about the schools." for k in range(12))  # about 450 characters
    Outbox(store).create("tdsb", body, body, "test:777")

    class Short(Scripted):
        limits = SendLimits(max_chars=100)

    sender = Short({chats[1]: [SendOutcome(SendStatus.SENT), SendOutcome(SendStatus.RETRY, 0.0, "network")]})
    stats = await worker(store, sender, settings, concurrency=1).run(once=True)
    first = [t for c, t, _ in sender.calls if c == chats[0]]
    assert len(first) >= 5 and all(len(t) <= 100 for t in first)
    assert " ".join(first) == body  # nothing lost or repeated at the cuts
    second = [t for c, t, _ in sender.calls if c == chats[1]]
    assert second[0] == first[0] and second[1] == first[1]  # part 2 failed ...
    assert second[2:] == first[1:]  # ... and the retry went on from part 2, without part 1 again
    assert (stats.sent, stats.retried) == (2, 1)


async def test_the_wakeup_starts_a_waiting_worker_at_once(store, settings):
    """The bot's Wakeup, given to the outbox that writes and the worker that waits, replaces the poll."""
    from bot.broadcast import Wakeup

    subscribe(store, 3)
    wakeup = Wakeup()
    sender = Scripted()
    w = worker(store, sender, settings, wakeup=wakeup, poll_interval=60)  # without the bell: a minute's wait
    task = asyncio.create_task(w.run())
    await asyncio.sleep(0.2)  # the worker is idle, waiting
    asked = time.monotonic()
    await asyncio.to_thread(Outbox(store, wakeup=wakeup).create, "tdsb", "Hi", "Hi", "test:777")  # from another thread
    while len(sender.calls) < 3 and time.monotonic() - asked < 10:  # noqa: ASYNC110 - polling a test double
        await asyncio.sleep(0.01)
    w.stop()
    await task
    assert len(sender.calls) == 3
    assert max(t for _, _, t in sender.calls) - asked < 5  # woken, not polled


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


def test_a_restarted_worker_takes_over_the_lease_its_stopped_predecessor_could_not_release(store):
    from bot.broadcast.lease import Lease

    Outbox(store)
    stuck = Lease(store, "test", "host:1:old")
    assert stuck.acquire() is None  # then the database failed and it could not be released
    assert Lease(store, "test", "host:1:other").acquire()["token"] == "host:1:old"  # a live worker of this process
    assert Lease(store, "test", "host:1:new", replaces="host:1:old").acquire() is None  # its successor
    assert [w["platform"] for w in Outbox(store).workers()] == ["test"]
    assert not stuck.renew()  # the old one has lost it
