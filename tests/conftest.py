"""Shared fixtures: a fresh database per test, the shipped knowledge, and a fixed clock."""

from __future__ import annotations

import gc
import shutil
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.app import build_bot, open_knowledge
from bot.core import Bot, build_matcher
from bot.messages import ChatKind, Incoming
from bot.settings import Settings
from knowledge.store import open_store

TORONTO = ZoneInfo("America/Toronto")
THURSDAY = datetime(2019, 10, 3, 9, 0, tzinfo=TORONTO)  # the default scenario clock


@pytest.fixture(autouse=True)
def _collector_as_it_was():
    """The commands run in this process (ask, chat, eval) settle its garbage collector for a process of
    their own (bot.app.settle_after_build): put it back, so what a test built can be collected."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.fixture(scope="session")
def template_db(tmp_path_factory) -> Path:
    """A database with the shipped knowledge loaded once; each test gets a copy."""
    path = tmp_path_factory.mktemp("template") / "schoolbot.db"
    store = open_knowledge(Settings().replace("database", path=str(path)))
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return path


@pytest.fixture(scope="session")
def shared_matcher(template_db):
    """Building the matcher is the slow part of start-up; it only reads, so tests share one."""
    store = open_store(template_db)
    try:
        return build_matcher(store, Settings())
    finally:
        store.close()


@pytest.fixture
def settings(tmp_path, template_db) -> Settings:
    path = tmp_path / "schoolbot.db"
    shutil.copyfile(template_db, path)
    return Settings().replace("database", path=str(path))


@pytest.fixture
def store(settings):
    store = open_knowledge(settings)
    yield store
    store.close()


@pytest.fixture
def bot(settings, store, shared_matcher) -> Bot:
    return build_bot(settings, store=store, clock=lambda: THURSDAY, matcher=shared_matcher)


def message(text: str, *, user: str = "u1", chat: str | None = None, platform: str = "test",
            at: datetime = THURSDAY, kind: ChatKind = ChatKind.PRIVATE, addressed: bool = True,
            group_admin: bool = False, name: str = "") -> Incoming:
    """An incoming message as an adapter would build it."""
    return Incoming(platform, chat or user, user, text, at, kind, addressed, name, group_admin)


CLOSE_QUESTION = "what about the zorblax helpers"  # two test cards answer it equally well: the bot offers a choice


def two_close_cards(store) -> None:
    """Two cards with the same phrasing (CLOSE_QUESTION), different answers and topics (of two close cards of one
    topic asked differently, the closer answers)."""
    from knowledge.model import Card

    when = THURSDAY - timedelta(hours=1)
    for card_id, topic, answer in (("ea-strike", "who_is_affected", "Yes: EAs are part of the job action."),
                                   ("ea-support", "withdrawn_services", "Special-education support continues; ask your school.")):
        store.put_card(Card(
            id=card_id, topic=topic, question=f"Question about {card_id.replace('-', ' ')}?",
            answer=answer, source="test.txt", published=when, phrasings=(CLOSE_QUESTION,),
        ))


@pytest.fixture
def say(bot):
    """say(text, **kw) -> the reply texts joined, through the one entry point."""

    def _say(text: str, **kwargs) -> str:
        return "\n".join(r.text for r in bot.handle(message(text, **kwargs)))

    return _say


def chat_with(bot: Bot, start: datetime):
    """chat(text, user=..., at=...) -> the reply texts joined; each call 20 seconds after the last (or at `at`)."""
    clock = {"at": start}

    def chat(text: str, *, user: str = "parent", at: datetime | None = None) -> str:
        clock["at"] = at or clock["at"] + timedelta(seconds=20)
        return "\n".join(r.text for r in bot.handle(message(text, user=user, at=clock["at"])))

    return chat
