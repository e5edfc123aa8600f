"""The outbox: a broadcast and its deliveries are written before anything is sent, once per chat."""

from __future__ import annotations

from collections import Counter

from bot.admin import REFUSAL
from bot.broadcast import Outbox, broadcast_text
from tests.broadcast.helpers import Scripted, subscribe, worker
from tests.conftest import THURSDAY, message


# ------------------------------------------------------------------ outbox
async def test_outbox_is_written_before_anything_is_sent(store, settings):
    chats = subscribe(store, 10)
    subscribe(store, 3, board="all", start=100)
    subscribe(store, 2, board="pdsb", start=200)
    store.subscribe("cli", "local", "tdsb", "private", "local")  # `schoolbot ask` cannot receive later: left out
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


def test_a_non_admin_through_bot_handle_queues_nothing(bot, store):
    subscribe(store, 3)
    replies = bot.handle(message("/broadcast tdsb hello", user="nobody"))
    assert [r.text for r in replies] == [REFUSAL]
    assert Outbox(store).recent() == []
