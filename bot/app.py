"""Building a ready Bot from settings: open the database, load the default knowledge if needed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.core import Bot, Memory
from bot.matcher import IntentMatcher
from bot.settings import Settings
from knowledge.loader import ensure_default_knowledge
from knowledge.store import Store, open_store


def open_knowledge(settings: Settings) -> Store:
    """The configured database, created and filled with the default knowledge on first use."""
    store = open_store(settings.database.path)
    ensure_default_knowledge(store, settings.knowledge.boards, settings.knowledge.default)
    return store


def build_bot(
    settings: Settings,
    *,
    store: Store | None = None,
    memory: Memory | None = None,
    dry_run: bool = False,
    clock: Callable[[], datetime] | None = None,
    matcher: IntentMatcher | None = None,
) -> Bot:
    store = store if store is not None else open_knowledge(settings)
    bot = Bot(store, settings, memory=memory, dry_run=dry_run, clock=clock, matcher=matcher)
    for register in _extensions():
        register(bot)
    return bot


def _extensions() -> list[Callable[[Bot], None]]:
    """Command sets that plug into the core's command table (admin tools)."""
    from bot import admin

    return [admin.register]
