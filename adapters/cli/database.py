"""`schoolbot init`: a new database with the shipped knowledge; `schoolbot backup FILE`: a consistent copy of the
live database, safe while the bot runs (docs/deploy.md)."""

from __future__ import annotations

import argparse

from adapters.cli.common import open_from, settings_from

SUBCOMMANDS = ("init", "backup")  # the subcommands register() adds


def cmd_init(args: argparse.Namespace) -> int:
    import os

    existed = os.path.lexists(settings_from(args).database.path)
    settings, store = open_from(args, create=True)
    try:
        boards, active = len(store.knowledge().boards), store.active_pack_ids()
    finally:
        store.close()
    print(f"{settings.database.path}: {'already there' if existed else 'created'}, with {boards} boards and "
          f"the active pack(s) {', '.join(active) or 'none'}. Next: `schoolbot grant` yourself a role "
          "(docs/admin.md), `schoolbot chat` to try it, `schoolbot serve` to go live")
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    from bot.backup import backup_database

    settings = settings_from(args)
    size = backup_database(settings.database.path, args.file, replace=args.force)
    print(f"{args.file}: a backup of {settings.database.path} ({size / 1024:,.0f} kB, checked); "
          f"restore it by stopping the bot and copying it over {settings.database.path}")
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("init", parents=[common],
                       help="create the database with the shipped boards and pack (nothing changes if it exists)")
    p.set_defaults(func=cmd_init)
    p = sub.add_parser("backup", parents=[common],
                       help="copy the database, with what is in its write-ahead log, to FILE (safe while serve runs)")
    p.add_argument("file", metavar="FILE", help="the backup to write (never the database itself)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists (an older backup)")
    p.set_defaults(func=cmd_backup)
