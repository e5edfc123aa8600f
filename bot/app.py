"""Building a ready Bot from settings: open the database, load the default knowledge if needed."""

from __future__ import annotations

import gc
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from bot import prepared
from bot.commands import Command, Registry
from bot.core import Bot, Memory, build_matcher, matcher_key
from bot.dates.vocabulary import vocabulary
from bot.matcher import IntentMatcher
from bot.replies import wording
from bot.settings import DatabaseSettings, Settings, SettingsError, origin_of
from knowledge import database_file
from knowledge.loader import ensure_default_knowledge
from knowledge.records import DatabaseUnavailable
from knowledge.store import Store, open_store
from knowledge.store_errors import STORE_ERRORS, describe_store_error

# How long a start waits for another program's write lock before saying so. Others hold it
# for milliseconds; a lock held this long is a stuck program or an open transaction.
LOCK_WAIT_SECONDS = 3.0


def open_knowledge(settings: Settings) -> Store:
    """The configured database, created and filled with the default knowledge on first use.

    Raises DatabaseUnavailable with one line naming the file when it cannot be used.
    """
    path = settings.database.path
    try:
        check_writable(path)
        store = open_store(path)
        ensure_default_knowledge(store, settings.knowledge.region, settings.knowledge.default)
    except STORE_ERRORS as exc:
        raise DatabaseUnavailable(describe_database_error(path, exc)) from None
    return store


def check_writable(path: str, wait: float = LOCK_WAIT_SECONDS) -> None:
    """Take the write lock for a moment, waiting at most `wait` seconds for another writer."""
    if path == ":memory:":
        return
    check_database_folder(path)
    database_file.check_writable(path, wait)


def check_database_folder(path: str) -> None:
    """SettingsError (one line) when the database's folder does not exist: a mistyped --db makes no folders.

    Only the default path (``schoolbot.db`` in the working directory) gets its folder made if need be.
    """
    if path == ":memory:" or path.startswith("file:"):
        return
    folder = Path(path).parent
    if folder.is_dir():
        return
    if folder.exists():
        raise SettingsError(f"{folder} is a file, not a folder, so the database {path} cannot be there: "
                            "correct --db, [database] path or SCHOOLBOT_DATABASE_PATH")
    if path != DatabaseSettings.path:
        raise SettingsError(f"the folder {folder} does not exist, so the database {path} cannot be there: create "
                            f"it (mkdir -p {folder}) or correct --db, [database] path or SCHOOLBOT_DATABASE_PATH")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseUnavailable(f"cannot create the folder {folder} for the database {path}: {exc.strerror}; "
                                  "point --db or [database] path at a writable place") from None


def describe_database_error(path: str, exc: BaseException) -> str:
    """One line for an operator: which file, what is wrong, what to do."""
    return describe_store_error(path, exc, LOCK_WAIT_SECONDS)


def prepared_matcher(store: Store, settings: Settings) -> IntentMatcher:
    """The intent matcher, from the cache beside the database when its inputs have not changed.

    The key covers the intents file, the boards in the store, the matcher
    settings and the source of bot/ and knowledge/: any change rebuilds it.
    """
    key = matcher_key(store, settings)
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
    # Start-up makes hundreds of thousands of objects (the prepared matcher and cards), none of them
    # garbage: the cyclic collector would scan them over and over, about 18 ms of a 160 ms `ask`.
    collecting = gc.isenabled()
    gc.disable()
    try:
        # read now, so that a wording file with a key taken out, or a broken dates file, stops the start, not a
        # parent's answer
        wording()
        vocabulary()
        store = store if store is not None else open_knowledge(settings)
        matcher = matcher if matcher is not None else prepared_matcher(store, settings)
        bot = Bot(store, settings, memory=memory, dry_run=dry_run, clock=clock, matcher=matcher)
    finally:
        if collecting:
            gc.enable()
    check_role_boards(settings, bot)
    if dry_run:  # `ask` and `eval`: most never see a command, so the staff tools load on the first one
        bot.commands = _CommandsLoadedOnUse(bot, bot.commands)
    else:
        _register_extensions(bot)
    return bot


def check_role_boards(settings: Settings, bot: Bot) -> None:
    """SettingsError (one line) when `[roles] board_staff` names a board the database does not have: a
    mistyped id would otherwise give that person no rights, silently."""
    from bot.settings import parse_board_staff

    for entry in settings.roles.board_staff:
        for name in parse_board_staff(entry)[2]:
            if bot.store.knowledge().board(name) is not None:
                continue
            meant = bot.boards.lookup(name)
            hint = (f"did you mean {meant.id!r} ({meant.name})?" if meant is not None
                    else "`schoolbot kb show` lists the boards and their ids")
            raise SettingsError(f"{origin_of(settings)}[roles] board_staff {entry!r}: there is no board with the id "
                                f"{name!r}: {hint}")


def settle_after_build(*, long_lived: bool = True) -> None:
    """Settle the garbage collector once the bot is built: every command that answers calls it.

    What start-up built (the prepared matcher and cards, the knowledge: hundreds of thousands of objects)
    is kept until staff change the knowledge or the process ends, so ``gc.freeze()`` spares it from the
    later full collections, and from the one at exit (a one-question `ask` took 0.139 s with the freeze,
    0.163 s without, median of 15). A long-lived process collects once first, so no garbage made while
    building is frozen with it; `ask` (`long_lived=False`) exits before that would matter. Answering makes
    many short-lived containers; collecting the youngest generation every 50,000 new ones instead of
    every 700 keeps them from being scanned again and again: bench/core.py's first pass went from 4,455
    to 4,595 answers/s (five runs each) with the same peak memory. Cycles are still collected.
    """
    if long_lived:
        gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def _register_extensions(bot: Bot) -> None:
    """Command sets that plug into the core's command table (admin tools)."""
    from bot import admin

    admin.register(bot)


class _CommandsLoadedOnUse(Registry):
    """A command registry that registers the extensions when a command is first looked up.

    The admin tools import the broadcast outbox (asyncio, sockets); a dry-run
    bot answering questions never needs them.
    """

    def __init__(self, bot: Bot, commands: Registry):
        super().__init__(commands)
        self._bot: Bot | None = bot

    def get(self, name: str) -> Command | None:
        if self._bot is not None:
            bot, self._bot = self._bot, None
            _register_extensions(bot)
        return super().get(name)
