"""The `schoolbot` command line: the terminal is a platform too.

One module per group of commands, each with a `register(sub, common)`:
questions (chat, ask, eval), kb (load, show), staff (broadcast, deliveries,
deliver), roles (grant, revoke, roles, audit), platforms (serve, discord sync), database (init, backup),
web (web-link).
Building the parser imports
none of the platform libraries, asyncio or the admin/outbox modules: each
command imports what it needs when it runs, so `schoolbot ask` starts fast.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from adapters.cli import database, kb, platforms, questions, roles, staff, web
from adapters.cli.common import EXIT_DATABASE, EXIT_FAILED, EXIT_USAGE
from adapters.errors import UsageError
from adapters.redaction import redact_handlers
from bot.files import UnsafeTarget, WriteFailed
from bot.settings import SettingsError
from knowledge.reading import LoadError
from knowledge.records import DatabaseGone, DatabaseUnavailable

GROUPS = (questions, kb, platforms, staff, roles, database, web)  # each: register(sub, common) and the SUBCOMMANDS it adds


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or (given a known `command`) the parser with only that command's group: building
    all twenty subcommands costs a few milliseconds that `schoolbot ask` should not pay."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", help="settings file (default: $SCHOOLBOT_CONFIG, else ./schoolbot.toml if present)")
    common.add_argument("--db", help="database file (overrides [database] path); chat, ask, eval, serve, deliver, kb load "
                                     "and init create it, in a folder that exists; other commands need it to exist")

    parser = argparse.ArgumentParser(
        prog="schoolbot",
        description="Answers parents' questions during school job action, on Telegram, Discord and the console.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for group in GROUPS:
        if command is None or command in group.SUBCOMMANDS:
            group.register(sub, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    redact_handlers()  # tokens and secrets hidden in every line logged, the libraries' and tracebacks too
    argv = list(sys.argv[1:] if argv is None else argv)
    known = {name for group in GROUPS for name in group.SUBCOMMANDS}
    parser = build_parser(argv[0] if argv and argv[0] in known else None)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.func(args) or 0
    except (SettingsError, LoadError, UsageError, UnsafeTarget) as exc:
        print(f"schoolbot: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except WriteFailed as exc:
        print(f"schoolbot: {exc}", file=sys.stderr)
        return EXIT_FAILED
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
