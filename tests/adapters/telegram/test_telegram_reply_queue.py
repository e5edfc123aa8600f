"""Every reply has its own delivery state (issue 23, items 4 and 5): per chat, retried with back-off, never
blocking another chat, never dropped without a record staff can see.

Through python-telegram-bot against the fake Bot API; the assertions are about order and counts, never time.
"""

from __future__ import annotations

import logging

from telegram_support import GROUP, PARENT, schoolbot

from tests.fakes.telegram import BOT_USERNAME

OTHERS = [1101 + i for i in range(10)]


async def test_a_chat_under_flood_control_waits_alone(fake, bot, tg_settings, running):
    """A group under Telegram's flood control: the parents who write after it are answered before it is."""
    fake.fail("sendMessage", 429, retry_after=60, chat_ids=[str(GROUP)])  # a minute of flood control
    async with running(bot, tg_settings, fake):
        first = fake.group(f"@{BOT_USERNAME} /status tdsb", user_id=2001)
        await fake.wait_for(lambda: fake.calls_to("sendMessage"), what="the group's reply tried")
        asked = [fake.private("is school open monday in peel?", user_id=user) for user in OTHERS]
        for user in OTHERS:  # the next getUpdates was not held back by the group's send
            await fake.wait_sent(1, user)
        assert fake.sent(GROUP) == []  # still waiting out its 429, in its own lane
        assert fake.confirmed(first["update_id"]) and all(fake.confirmed(u["update_id"]) for u in asked)
    # Stopped while it waited: its reply is kept in the queue, not dropped.
    assert bot.store.conn.execute("SELECT chat_id, state FROM replies").fetchall() == [(str(GROUP), "pending")]
    async with running(bot, tg_settings, fake):  # the next start sends it, once
        await fake.wait_sent(1, GROUP)
        await fake.wait_confirmed(fake.private("/help", user_id=PARENT))
        await fake.wait_sent(1, PARENT)
    assert len(fake.sent(GROUP)) == 1 and "Toronto District School Board" in fake.sent_texts(GROUP)[0]
    assert bot.store.conn.execute("SELECT count(*) FROM replies").fetchone()[0] == 0


async def test_a_burst_of_server_errors_delays_a_reply_but_never_drops_it(fake, bot, tg_settings, running, caplog):
    """Five 500s in a row (the old limit of tries, after which the reply was dropped): sent at the sixth try, once."""
    fake.fail("sendMessage", 500, times=5, chat_ids=[str(PARENT)])
    with caplog.at_level(logging.INFO, logger="schoolbot.telegram"):
        async with running(bot, tg_settings, fake):
            fake.private("what does work-to-rule mean?", user_id=PARENT)
            await fake.wait_sent(1, PARENT, timeout=60)
    tries = [p for p in fake.calls_to("sendMessage") if p["chat_id"] == str(PARENT)]
    assert len(tries) == 6 and len(fake.sent(PARENT)) == 1
    assert caplog.text.count("trying again") == 5 and "not delivered" not in caplog.text
    assert bot.store.conn.execute("SELECT count(*) FROM replies").fetchone()[0] == 0


async def test_a_reply_the_api_refuses_is_kept_for_staff_and_the_chat_goes_on(fake, bot, tg_settings, running,
                                                                              serve_env, caplog):
    """A 400 will not change by trying again: the reply is kept as failed, one warning says so, staff see it in
    `schoolbot deliveries`, and the chat's next reply is sent."""
    fake.fail("sendMessage", 400, description="Bad Request: message is too long", chat_ids=[str(PARENT)])
    with caplog.at_level(logging.WARNING, logger="schoolbot.telegram"):
        async with running(bot, tg_settings, fake):
            fake.private("/help", user_id=PARENT)
            await fake.wait_for(lambda: "kept as failed" in caplog.text, what="the failure logged")
            fake.private("/whoami", user_id=PARENT)
            await fake.wait_sent(1, PARENT)
    assert "You are telegram user" in fake.sent_texts(PARENT)[0]
    bot.store.close()
    serve_env["SCHOOLBOT_DATABASE_PATH"] = tg_settings.database.path
    code, out, err = await schoolbot("deliveries", env=serve_env)
    assert code == 0, err
    assert "replies to users, telegram: 1 failed" in out
    assert f"failed   telegram:{PARENT} after 1 attempt(s)" in out and "Message is too long" in out


async def test_a_blocked_chat_stops_its_replies_and_its_subscriptions(fake, bot, tg_settings, running):
    bot.store.subscribe("telegram", str(PARENT), "tdsb", "private", str(PARENT))
    fake.fail("sendMessage", 403, chat_ids=[str(PARENT)], times=5)
    async with running(bot, tg_settings, fake):
        fake.private("/help", user_id=PARENT)
        await fake.wait_for(lambda: not bot.store.subscriptions_of("telegram", str(PARENT)), what="subscriptions stop")
    assert fake.sent(PARENT) == []
    assert bot.store.conn.execute("SELECT state FROM replies").fetchall() == [("blocked",)]


async def test_a_database_that_refuses_writes_still_answers_every_parent(fake, bot, tg_settings, running, caplog):
    """Issue 23, item 7, through Telegram: the journal and the reply queue cannot be written, the replies are sent
    from memory, and the log says once that the database refuses writes."""
    parents = [1201, 1202, 1203]
    with caplog.at_level(logging.WARNING):
        async with running(bot, tg_settings, fake):
            bot.store.conn.execute("PRAGMA query_only = ON")  # how SQLite refuses writes on a read-only disk
            for user in parents:
                fake.private("is school open monday in peel?", user_id=user)
            for user in parents:
                await fake.wait_sent(1, user)
            bot.store.conn.execute("PRAGMA query_only = OFF")
    texts = [fake.sent_texts(user)[0] for user in parents]
    assert all(text.startswith("Peel DSB, Monday") for text in texts), texts
    assert len([r for r in caplog.records if "refuses writes" in r.getMessage()]) == 1
    assert not any(r.exc_info for r in caplog.records)


async def test_a_reply_given_up_after_its_tries_is_kept_as_failed(fake, store, tg_settings, caplog):
    """The lanes' limit (12 tries and 10 minutes in serve) set low: the reply is kept as failed, said once."""
    from adapters.telegram import open_sender
    from bot.reply_lanes import ReplyLanes
    from bot.reply_queue import Outgoing, ReplyQueue
    from bot.retry import Backoff

    fake.fail("sendMessage", 500, times=10)
    async with open_sender(tg_settings) as sender:
        lanes = ReplyLanes(ReplyQueue(store, "telegram", "1"), lambda item: sender.send_chunk(item.chat_id, item.text),
                           backoff=Backoff(base=0.01, cap=0.01, jitter=0), give_up_attempts=3, give_up_seconds=0)
        with caplog.at_level(logging.WARNING, logger="schoolbot.replies"):
            lanes.queue_and_send([Outgoing(str(PARENT), "first"), Outgoing(str(PARENT), "second")])
            await fake.wait_for(lambda: lanes.waiting() == 0, what="both settled")
            await lanes.close(0)
    assert store.conn.execute("SELECT text, state, attempts FROM replies").fetchall() == [("first", "failed", 3),
                                                                                         ("second", "failed", 3)]
    assert caplog.text.count("kept as failed") == 2 and "after 3 tries" in caplog.text
    assert fake.sent(PARENT) == []
