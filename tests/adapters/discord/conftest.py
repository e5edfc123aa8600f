"""Shared fixtures for the Discord adapter tests: discord.py itself against tests/fakes/discord/ on 127.0.0.1.

discord.py's real Client logs in over HTTP, connects its gateway websocket and
receives MESSAGE_CREATE and INTERACTION_CREATE events from the fake; what it
sends back is recorded there as the JSON Discord would receive.
"""

from __future__ import annotations

import asyncio
from datetime import date, datetime

import pytest

from adapters.discord_bot.client import DiscordAdapter
from adapters.discord_bot.runner import run_discord
from knowledge.model import Status
from tests.conftest import TORONTO
from tests.fakes.discord import NO_PINGS, FakeDiscord


@pytest.fixture
async def fake(monkeypatch):
    server = FakeDiscord()
    await server.start()
    server.install(monkeypatch)
    yield server
    await server.stop()


@pytest.fixture
def world(fake):
    """A server "Peel Parents" with #general and #announcements; a parent, a moderator, another bot."""
    guild = fake.add_guild("Peel Parents", channels=("general", "announcements"))
    parent = fake.add_user("amira")
    moderator = fake.add_user("jordan")
    other_bot = fake.add_user("newsbot", bot=True)
    fake.add_member(guild, parent)
    fake.add_member(guild, moderator, "Moderators")
    fake.add_member(guild, other_bot)
    return guild, parent, moderator, other_bot


@pytest.fixture
def discord_settings(settings, fake):
    return settings.replace("discord", token=fake.token, dm_pace_seconds=0.0)


@pytest.fixture
async def adapter(bot, discord_settings, fake, world):
    """The bot connected to the fake Discord through run_discord, as `schoolbot serve` runs it."""
    # discord.py waits guild_ready_timeout (2 s) after the last GUILD_CREATE before READY; shorten it.
    adapter = DiscordAdapter(bot, discord_settings, client_options={"guild_ready_timeout": 0.05})
    task = asyncio.create_task(run_discord(bot, discord_settings, adapter=adapter))
    await asyncio.wait_for(fake.ready.wait(), 10)
    await asyncio.wait_for(adapter.client.wait_until_ready(), 10)
    yield adapter
    await adapter.client.close()
    await asyncio.wait_for(task, 10)
    # Whatever a test did: nothing the bot sent could ping anyone.
    for sent in fake.sent:
        if sent.kind != "autocomplete":
            assert sent.allowed_mentions == NO_PINGS, sent


@pytest.fixture
def long_summary() -> str:
    """An official status summary of about 3,000 characters: longer than one Discord message."""
    return " ".join(
        f"Update {n}: schools stay open on Monday, but custodians, early childhood educators and office staff "
        f"are off the job, so classrooms will not be cleaned and some programs are cancelled."
        for n in range(1, 19)
    )


@pytest.fixture
def put_status(store):
    """Publish a status for `board` on Monday, October 7, 2019 with this summary."""
    def put(board: str, summary: str) -> None:
        store.put_status(Status(
            id=f"test-{board}-long", board=board, start=date(2019, 10, 7), until=date(2019, 10, 7),
            status="open_reduced_services", summary=summary, source="2019-10-02-full-strike-notice-talks-friday.txt",
            published=datetime(2019, 10, 3, 8, 0, tzinfo=TORONTO), author="discord:staff",
        ))

    return put
