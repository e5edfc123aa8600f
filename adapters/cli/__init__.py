"""The `schoolbot` command line: the terminal is a platform too.

One module per group of commands, each with a `register(sub, common)`:
questions (chat, ask, eval), kb (load, show), staff (broadcast, deliveries,
deliver), roles (grant, revoke, roles, audit), platforms (serve, discord sync). Building the parser imports
none of the platform libraries, asyncio or the admin/outbox modules: each
command imports what it needs when it runs, so `schoolbot ask` starts fast.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from adapters.cli import kb, platforms, questions, roles, staff
from adapters.cli.common import EXIT_DATABASE, EXIT_USAGE
from adapters.errors import UsageError
from bot.app import DatabaseUnavailable
from bot.settings import SettingsError
from knowledge.loading import LoadError
from knowledge.records import DatabaseGone

REGISTRARS = (questions.register, kb.register, platforms.register, staff.register, roles.register)


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", help="settings file (default: $SCHOOLBOT_CONFIG, else ./schoolbot.toml if present)")
    common.add_argument("--db", help="database file (overrides [database] path; created on first use)")

    parser = argparse.ArgumentParser(
        prog="schoolbot",
        description="Answers parents' questions during school job action, on Telegram, Discord and the console.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in REGISTRARS:
        register(sub, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.func(args) or 0
    except (SettingsError, LoadError, UsageError) as exc:
        print(f"schoolbot: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except DatabaseUnavailable as exc:
        print(f"schoolbot: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    except DatabaseGone as gone:  # deleted or replaced while running: one line, like the errors at start
        print(gone.code, file=sys.stderr)
        return EXIT_DATABASE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
