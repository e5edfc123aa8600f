"""The delivery worker when the database is busy for a moment, or stays unusable."""

from __future__ import annotations

import asyncio

from bot.broadcast import Outbox
from tests.broadcast.helpers import Scripted, subscribe, worker


async def test_a_failed_lease_renewal_is_retried_and_a_lasting_one_stops_the_worker(store, settings, monkeypatch):
    """A worker that can no longer renew its lease must stop before another may take over."""
    import sqlite3

    subscribe(store, 3)
    Outbox(store).create("tdsb", "Hi", "Hi", "test:777")
    # beats every 0.01 s; the lease is stale after 0.1 s: stop after 5 failed beats in a row
    w = worker(store, Scripted(), settings, concurrency=1, heartbeat_seconds=0.01, lease_stale_seconds=0.1)
    renew = w.lease.renew
    failures = {"left": 1}

    def flaky():  # the database is busy for one beat, then fine
        if failures["left"]:
            failures["left"] -= 1
            raise sqlite3.OperationalError("database is locked")
        return renew()

    monkeypatch.setattr(w.lease, "renew", flaky)
    task = asyncio.create_task(w.run())
    await asyncio.sleep(0.2)
    assert not task.done()  # one failed beat: still delivering
    failures["left"] = 10**6  # now it never comes back
    stats = await asyncio.wait_for(task, 5)  # the worker stops by itself
    assert "lease could not be renewed" in stats.stopped


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




async def test_a_lasting_database_failure_stops_the_worker_cleanly(store, settings):
    """Another connection holds the write lock for longer than the worker waits: the worker stops by itself,
    the sends in flight finish, unsent rows stay pending, and a later worker resends only what was unrecorded."""
    import sqlite3

    chats = subscribe(store, 40)
    outbox = Outbox(store)
    broadcast = outbox.create("tdsb", "Hi", "Hi", "test:777")
    store.conn.execute("PRAGMA busy_timeout = 20")  # wait 20 ms for a lock, not 10 s
    other = sqlite3.connect(store.path, isolation_level=None)

    class LockingSender(Scripted):
        """After 10 sends another writer takes the database and keeps it; counts sends that complete."""

        completed = 0

        async def send_text(self, chat_id, text):
            if len(self.calls) == 10:
                other.execute("BEGIN IMMEDIATE")
            outcome = await super().send_text(chat_id, text)
            self.completed += 1
            return outcome

    sender = LockingSender(delay=0.02)
    w = worker(store, sender, settings, concurrency=4)
    task = asyncio.create_task(w.run())  # not once: only the failure can stop it
    while not w.stopping:  # waiting for the worker to give up
        assert not task.done()
        await asyncio.sleep(0.01)
    other.execute("ROLLBACK")  # the database comes back only after the worker gave up
    stats = await asyncio.wait_for(task, 10)  # it returns: no exception

    assert stats.stopped.startswith("database unusable")
    assert sender.completed == len(sender.calls)  # every send in flight finished, none was cut off
    called = set(sender.received())
    states = dict(store.conn.execute(
        "SELECT chat_id, state FROM deliveries WHERE broadcast_id = ?", (broadcast,)).fetchall())
    sent = {c for c, s in states.items() if s == "sent"}
    unrecorded = {c for c, s in states.items() if s == "sending"}  # sent, but the outcome could not be written
    pending = {c for c, s in states.items() if s == "pending"}
    assert sent | unrecorded | pending == set(chats)
    assert len(sent) == stats.sent == outbox.progress(broadcast).delivered >= 10
    assert sent | unrecorded == called and not pending & called  # pending rows were never sent
    assert 1 <= len(unrecorded) <= 4  # at most the concurrency
    assert len(pending) == 40 - len(called) > 0
    assert store.conn.execute("SELECT COUNT(*) FROM delivery_workers").fetchone()[0] == 0  # the lease is given back

    # The next worker recovers the unrecorded rows and sends everything left; only those arrive twice.
    store.conn.execute("PRAGMA busy_timeout = 10000")
    again = await worker(store, sender, settings).run(once=True)
    assert again.recovered == len(unrecorded)
    assert set(sender.received()) == set(chats)
    assert {c for c, n in sender.received().items() if n > 1} == unrecorded
    assert outbox.progress(broadcast).state == "done"
    other.close()


async def test_a_database_locked_at_start_stops_the_worker_with_a_reason_not_a_traceback(store, settings):
    import sqlite3

    subscribe(store, 3)
    Outbox(store).create("tdsb", "Hi", "Hi", "test:777")
    store.conn.execute("PRAGMA busy_timeout = 20")
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the database
    try:
        sender = Scripted()
        stats = await asyncio.wait_for(worker(store, sender, settings, settle_attempts=2).run(once=True), 10)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert stats.stopped.startswith("database unusable: could not take the outbox lease")
    assert sender.calls == [] and Outbox(store).unfinished("test") == 3  # nothing sent, nothing lost
