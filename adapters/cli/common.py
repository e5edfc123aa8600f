"""What every `schoolbot` sub-command shares: settings from the arguments, the clock, the store."""

from __future__ import annotations

import argparse
import os
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from adapters.errors import UsageError
from bot.settings import DatabaseSettings, Settings, load_settings

if TYPE_CHECKING:  # pragma: no cover
    from knowledge.store import Store

# Exit statuses: 0 done; 1 the command ran and failed (a platform stopped, eval below its bar,
# nothing sent); 2 wrong arguments, settings or data files; 3 the database cannot be used now
# (locked, read-only, not a database, another `schoolbot serve` runs on it); 130 interrupted.
EXIT_FAILED, EXIT_USAGE, EXIT_DATABASE = 1, 2, 3


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings file named by --config (or the default), with --db applied; its database's folder exists."""
    from bot.app import check_database_folder

    settings = load_settings(args.config)
    if getattr(args, "db", None):
        settings = settings.replace("database", path=args.db)
    check_database_folder(settings.database.path)  # a mistyped --db is one line, not a new folder
    return settings


def open_from(args: argparse.Namespace, *, create: bool = False) -> tuple[Settings, Store]:
    """Settings and the opened knowledge store, which must exist unless `create` (or it is the default
    ``schoolbot.db`` in the working directory); a new one is filled with the shipped knowledge."""
    from bot.app import open_knowledge

    settings = settings_from(args)
    if not create:
        check_database_exists(settings.database.path)
    return settings, open_knowledge(settings)


def check_database_exists(path: str) -> None:
    """UsageError (one line) when a command that works on the bot's data is pointed at no database.

    Commands that start the bot (chat, ask, eval, serve, deliver) or load a pack, and `schoolbot init`, make a
    new database; the others (grant, roles, audit, broadcast, deliveries, kb list/use/...) would only
    make an empty one under a mistyped name and act on it, so they say so instead. The default database
    (``schoolbot.db`` in the working directory) is still made on first use by any command.
    """
    if path == ":memory:" or path.startswith("file:") or path == DatabaseSettings.path or os.path.lexists(path):
        return
    raise UsageError(f"there is no database at {path}: correct --db, [database] path or SCHOOLBOT_DATABASE_PATH; "
                     f"to start a new one there, run `schoolbot init --db {path}`")


def parse_time(value: str, zone: tzinfo) -> datetime:
    """An ISO 8601 time from the command line; without a zone, `zone` (the bot's: Bot.tz)."""
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        raise UsageError(f"--now: {value!r} is not an ISO 8601 time, e.g. 2019-10-03T09:00:00-04:00") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return moment

