"""Shared fixtures: a fresh database per test, the shipped knowledge, and a fixed clock."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.app import build_bot, open_knowledge
from bot.core import Bot
from bot.messages import ChatKind, Incoming
from bot.settings import Settings

TORONTO = ZoneInfo("America/Toronto")
THURSDAY = datetime(2019, 10, 3, 9, 0, tzinfo=TORONTO)  # the default scenario clock


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings().replace("database", path=str(tmp_path / "schoolbot.db"))


@pytest.fixture
def store(settings):
    store = open_knowledge(settings)
    yield store
    store.close()


@pytest.fixture
def bot(settings, store) -> Bot:
    return build_bot(settings, store=store, clock=lambda: THURSDAY)


def message(text: str, *, user: str = "u1", chat: str | None = None, platform: str = "test",
            at: datetime = THURSDAY, kind: ChatKind = ChatKind.PRIVATE, addressed: bool = True,
            group_admin: bool = False, name: str = "") -> Incoming:
    """An incoming message as an adapter would build it."""
    return Incoming(platform, chat or user, user, text, at, kind, addressed, name, group_admin)


@pytest.fixture
def say(bot):
    """say(text, **kw) -> the reply texts joined, through the one entry point."""

    def _say(text: str, **kwargs) -> str:
        return "\n".join(r.text for r in bot.handle(message(text, **kwargs)))

    return _say
