"""Sending: the sender's outcomes, replies waiting out 429s, Telegram's limits, and the aiohttp client's lifecycle."""

from __future__ import annotations

import asyncio
import gc
import warnings

import pytest
from telegram.error import TimedOut
from telegram_support import PARENT, answered

from adapters.telegram import MAX_CHARS, TelegramSender, connect, open_sender, telegram_client, telegram_limits
from adapters.telegram.request import AiohttpRequest
from bot.messages import SendLimits, SendStatus


async def test_429_is_waited_out_then_sent(fake, bot, tg_settings, running):
    fake.fail("sendMessage", 429, retry_after=1)
    async with running(bot, tg_settings, fake):
        update = fake.private("what does work-to-rule mean?", user_id=PARENT)
        texts = await answered(fake, update, PARENT)
    tries = [c for c in fake.calls if c.method == "sendMessage"]
    assert len(tries) == 2 and tries[0].params["text"] == tries[1].params["text"] == texts[0]
    assert tries[1].at - tries[0].at >= 1.0  # retry_after honoured


async def test_the_sender_declares_telegrams_limits_and_paces_nothing_itself(fake, tg_settings):
    """One overall limiter per platform: the outbox worker's, from sender.limits; the client has none."""
    async with open_sender(tg_settings.replace("limits", telegram_per_second=25)) as sender:
        assert sender.limits == SendLimits(per_second=25, per_chat_interval=1.0, group_per_minute=20, max_chars=4096)
        assert not hasattr(sender.tg, "rate_limiter")  # a plain Bot: no AIORateLimiter behind the outbox's
        outcomes = await asyncio.gather(*(sender.send_text(str(500 + i), "Hello") for i in range(20)))
    assert {o.status for o in outcomes} == {SendStatus.SENT}
    assert sorted(fake.sent_texts()) == ["Hello"] * 20
    assert telegram_limits(0).per_second == 0  # [limits] telegram_per_second = 0: no overall limit (benchmarks)


async def test_sender_maps_errors_to_outcomes(fake, store, tg_settings):
    store.subscribe("telegram", "777", "pdsb", "private", "777")
    async with open_sender(tg_settings) as sender:
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

        assert (await sender.send_text("777", "  \x00 ")).status is SendStatus.FAILED  # nothing to send
    assert all("parse_mode" not in p for p in fake.sent())


async def test_long_text_is_split_at_4096_and_sent_plain(fake, tg_settings):
    long = ("A sentence that goes on. " * 300).strip()
    async with open_sender(tg_settings) as sender:
        assert (await sender.send_text("778", long + " <b>*bold*</b>")).status is SendStatus.SENT
    texts = fake.sent_texts("778")
    assert len(texts) == 2 and all(len(t) <= MAX_CHARS for t in texts)
    assert texts[-1].endswith("<b>*bold*</b>")  # verbatim: no markup is parsed
    assert all("parse_mode" not in p for p in fake.sent("778"))


async def test_a_send_to_an_upgraded_group_goes_to_the_supergroup(fake, tg_settings):
    old, new = "-4001", "-1004001"
    fake.fail("sendMessage", 400, chat_ids=[old], migrate_to=int(new))
    async with open_sender(tg_settings) as sender:
        outcome = await sender.send_text(old, "Official update")
    assert outcome.status is SendStatus.SENT
    assert fake.sent_texts(new) == ["Official update"]


async def test_network_errors_are_retry_outcomes_and_nothing_is_left_open(fake, tg_settings):
    """The aiohttp client: a dead server is a RETRY, and shutting down leaves no unclosed session."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tg = telegram_client(tg_settings)
        assert await connect(tg, tg_settings)
        sender = TelegramSender(tg)
        await fake.stop()  # the Bot API goes away
        outcome = await sender.send_text("1", "hello")
        await tg.shutdown()
        del tg, sender
        gc.collect()
    assert outcome.status is SendStatus.RETRY and outcome.detail.startswith("network:")
    assert not [w for w in caught if "Unclosed" in str(w.message)]


async def test_the_request_class_times_out_as_the_library_expects(fake, tg_settings):
    """A slow Bot API: TimedOut (which the sender maps to RETRY) after the read timeout."""
    slow = asyncio.Event()

    async def stall(params):
        await slow.wait()
        return True

    fake._api_sendChatAction = stall
    request = AiohttpRequest(read_timeout=0.3)
    await request.initialize()
    try:
        with pytest.raises(TimedOut):
            await request.post(f"{fake.base_url}{fake.token}/sendChatAction")
    finally:
        slow.set()
        await request.shutdown()
    assert request._session is None
