"""Building a ready Bot from settings: open the database, load the default knowledge if needed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from bot import prepared
from bot.core import Bot, Memory, build_matcher
from bot.matcher import IntentMatcher
from bot.settings import Settings
from knowledge.loader import ensure_default_knowledge
from knowledge.store import Store, open_store


def open_knowledge(settings: Settings) -> Store:
    """The configured database, created and filled with the default knowledge on first use."""
    store = open_store(settings.database.path)
    ensure_default_knowledge(store, settings.knowledge.boards, settings.knowledge.default)
    return store


def prepared_matcher(store: Store, settings: Settings) -> IntentMatcher:
    """The intent matcher, from the cache beside the database when its inputs have not changed.

    The key covers the intents file, the boards in the store, the matcher
    settings and the source of bot/ and knowledge/: any change rebuilds it.
    """
    boards = sorted(store.knowledge().boards.values(), key=lambda board: board.id)
    key = prepared.digest(
        b"matcher", prepared.code_digest("bot", "knowledge"),
        Path(settings.knowledge.intents).read_bytes(), repr(boards), repr(settings.matcher),
    )
    directory = prepared.cache_dir_for(settings.database.path)
    return prepared.load_or_build(key, lambda: build_matcher(store, settings), directory, name="matcher")


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
    matcher = matcher if matcher is not None else prepared_matcher(store, settings)
    bot = Bot(store, settings, memory=memory, dry_run=dry_run, clock=clock, matcher=matcher)
    if dry_run:  # `ask` and `eval`: most never see a command, so the staff tools load on the first one
        bot.commands = _CommandsLoadedOnUse(bot, bot.commands)
    else:
        _register_extensions(bot)
    return bot


def _register_extensions(bot: Bot) -> None:
    """Command sets that plug into the core's command table (admin tools)."""
    from bot import admin

    admin.register(bot)


class _CommandsLoadedOnUse(dict):
    """A command table that registers the extensions when a command is first looked up.

    The admin tools import the broadcast outbox (asyncio, sockets); a dry-run
    bot answering questions never needs them.
    """

    def __init__(self, bot: Bot, commands: dict):
        super().__init__(commands)
        self._bot: Bot | None = bot

    def get(self, name, default=None):
        if self._bot is not None:
            bot, self._bot = self._bot, None
            _register_extensions(bot)
        return super().get(name, default)
