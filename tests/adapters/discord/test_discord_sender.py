"""DiscordSender: broadcasts to channels and DMs, through discord.py against the fake Discord."""

from __future__ import annotations

import asyncio
import itertools

from adapters.discord_bot.client import DiscordAdapter
from adapters.discord_bot.sender import DiscordSender
from bot.messages import SendOutcome, SendStatus
from tests.fakes.discord import NO_PINGS, Failure


async def test_sender_delivers_to_a_subscribed_channel_and_a_dm(adapter, fake, world):
    guild, parent, _, _ = world
    sender = adapter.sender
    text = "TDSB update (Oct 3, 17:00): schools are open Monday. @everyone"
    assert await sender.send_text(f"channel:{guild.channel_id('announcements')}", text) == SendOutcome(SendStatus.SENT)
    assert (await sender.send_text(f"dm:{parent.id}", text)).status == SendStatus.SENT
    assert [s.channel_id for s in fake.sent] == [guild.channel_id("announcements"), fake.dm_channels[parent.id]]
    assert all(s.content == text and s.allowed_mentions == NO_PINGS for s in fake.sent)


async def _broadcast_through(sender, store, settings, board: str) -> None:
    """A broadcast delivered by the real worker through the adapter's sender."""
    from bot.broadcast import Outbox
    from bot.broadcast.worker import DeliveryWorker

    Outbox(store).create(board, "update", "update", "test:1")
    await DeliveryWorker(store, sender, settings, poll_interval=0.01, base_backoff=0.01).run(once=True)


async def test_closed_dms_make_the_subscription_inactive(adapter, fake, world, store, settings):
    _, parent, _, _ = world
    chat = f"dm:{parent.id}"
    store.subscribe("discord", chat, "tdsb", "private", str(parent.id))
    fake.closed_dms.add(parent.id)
    assert (await adapter.sender.send_text(chat, "update")).status == SendStatus.BLOCKED  # the sender reports
    assert store.subscriptions_of("discord", chat) == ["tdsb"]  # ...and decides nothing
    await _broadcast_through(adapter.sender, store, settings, "tdsb")
    assert store.subscriptions_of("discord", chat) == []


async def test_a_channel_it_may_no_longer_post_in_is_made_inactive(adapter, fake, world, store, settings):
    guild, _, _, _ = world
    chat = f"channel:{guild.channel_id('announcements')}"
    store.subscribe("discord", chat, "all", "group", "1")
    fake.failures[guild.channel_id("announcements")] = Failure(403, 50001, "Missing Access")
    await _broadcast_through(adapter.sender, store, settings, "all")
    assert store.subscriptions_of("discord", chat) == []


async def test_sender_retries_server_errors_and_fails_bad_ids(adapter, fake, world):
    guild, _, _, _ = world
    channel = guild.channel_id("general")
    fake.failures[channel] = Failure(503, 0, "Service Unavailable")
    outcome = await adapter.sender.send_text(f"channel:{channel}", "update")
    assert outcome.status == SendStatus.RETRY and outcome.retry_after > 0
    assert (await adapter.sender.send_text(f"channel:{channel}", "update")).status == SendStatus.SENT
    assert (await adapter.sender.send_text("telegram:123", "update")).status == SendStatus.FAILED
    fake.failures[channel] = Failure(400, 50035, "Invalid Form Body")
    assert (await adapter.sender.send_text(f"channel:{channel}", "update")).status == SendStatus.FAILED


async def test_sender_splits_long_text_and_resumes_after_a_failure(adapter, fake, world, long_summary):
    guild, _, _, _ = world
    channel = guild.channel_id("general")
    text = long_summary
    assert (await adapter.sender.send_text(f"channel:{channel}", text)).status == SendStatus.SENT
    assert len(fake.sent) == 2
    # Second piece fails: the retry sends only that piece.
    original = fake._channel_send
    calls = {"n": 0}

    async def second_fails(channel_id, body):
        calls["n"] += 1
        if calls["n"] == 2:
            return fake._error(503, 0, "Service Unavailable")
        return await original(channel_id, body)

    fake._channel_send = second_fails
    assert (await adapter.sender.send_text(f"channel:{channel}", text + " More.")).status == SendStatus.RETRY
    assert (await adapter.sender.send_text(f"channel:{channel}", text + " More.")).status == SendStatus.SENT
    assert len(fake.sent) == 4 and fake.sent[3].content.endswith("More.")


async def test_sender_paces_dms(adapter, fake, world):
    _, parent, moderator, _ = world
    adapter.sender.dm_pace_seconds = 0.3
    users = [parent, moderator, fake.owner]
    outcomes = await asyncio.gather(*(adapter.sender.send_text(f"dm:{u.id}", "update") for u in users))
    assert all(o.status == SendStatus.SENT for o in outcomes)
    times = sorted(s.at for s in fake.sent)
    assert all(b - a >= 0.28 for a, b in itertools.pairwise(times)), times


async def test_sender_before_connecting_says_retry(bot, discord_settings):
    adapter = DiscordAdapter(bot, discord_settings)
    outcome = await adapter.sender.send_text("channel:1", "update")
    assert outcome.status == SendStatus.RETRY
    assert isinstance(adapter.sender, DiscordSender) and adapter.sender.platform == "discord"


def test_sender_declares_discords_limits(bot, discord_settings):
    """The outbox reads these instead of assuming Telegram's: discord.py paces itself; 2,000 characters a message."""
    limits = DiscordAdapter(bot, discord_settings).sender.limits
    assert limits.per_second == 0 and limits.max_chars == 2000
