"""`schoolbot serve` (arguments, checks, logging) and `schoolbot discord sync`.

The running itself is adapters/serve.py and the platform adapters, imported
only when these commands run.
"""

from __future__ import annotations

import argparse
import logging
import sys

from adapters.cli.common import EXIT_DATABASE, EXIT_FAILED, settings_from
from adapters.errors import PlatformStopped, UsageError

SUBCOMMANDS = ("serve", "discord")  # the subcommands register() adds


def register_serve(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    from adapters.platforms import served, token_variables

    platforms = served()
    p = sub.add_parser(
        "serve", parents=[common],
        help=f"run the bot on {' and/or '.join(p.title for p in platforms)} "
             "(tokens from settings or SCHOOLBOT_*_TOKEN)",
        description="Run the bot. With no platform flag, every platform whose token is configured runs. "
                    "Tokens are read from the settings file or the environment "
                    f"({', '.join(token_variables())}), never from the command line.",
    )
    for platform in platforms:
        p.add_argument(f"--{platform.name}", action="store_true", help=f"run on {platform.title}")
    for platform in platforms:
        if platform.add_arguments is not None:
            platform.add_arguments(p)
    p.add_argument("--web", metavar="[HOST:]PORT",
                   help="also run the staff web page there (host 127.0.0.1 unless given; docs/web.md); "
                        "with no platform token configured, only the page runs")
    p.add_argument("--quiet", action="store_true", help="log warnings and errors only")
    p.add_argument("--debug", action="store_true", help="log the bot's debug messages (libraries stay quiet)")
    p.add_argument("--check", action="store_true",
                   help="check settings, tokens, data files and the database as serve would, then exit (0: ready)")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from adapters.platforms import configured, served, token_keys, token_variables

    settings = settings_from(args)
    platforms = served()
    for platform in platforms:
        if platform.apply_arguments is not None:
            settings = platform.apply_arguments(args, settings)

    from adapters.cli.web import listen_address
    from bot.settings import WebSettings

    web = listen_address(args.web) if args.web else None
    if web is not None and settings.web.url == WebSettings.url:  # /web's links point at the page served here
        settings = settings.replace("web", url=f"http://{web[0]}:{web[1]}")
    wanted = [p for p in platforms if getattr(args, p.name)]
    if not wanted:
        wanted = [p for p in configured(settings) if p in platforms]
        if not wanted and web is None:
            raise UsageError(
                f"serve: no platform token is configured; set {' or '.join(token_variables())} "
                f"(or {' / '.join(token_keys())} in the settings file)"
            )
    for platform in wanted:
        if not platform.configured(settings):
            raise UsageError(
                f"serve --{platform.name}: no {platform.title} token; set SCHOOLBOT_{platform.section.upper()}_TOKEN "
                f"or [{platform.section}] token in the settings file (settings from: {settings.source})"
            )
    names = [p.name for p in wanted]

    import asyncio

    from adapters.instance import AlreadyRunning, only_instance
    from adapters.serve import serve
    from bot.app import build_bot, settle_after_build

    _configure_logging([name for p in platforms for name in p.loggers], quiet=args.quiet, debug=args.debug)
    try:
        with only_instance(settings.database.path):
            bot = build_bot(settings)
            if args.check:  # everything serve reads before it connects: a service manager's pre-start check
                bot.store.close()
                shown = [*names, *([f"the web page on {web[0]}:{web[1]}"] if web else [])]
                print(f"ready to serve {', '.join(shown)} on {settings.database.path}")
                return 0
            settle_after_build()
            try:
                asyncio.run(serve(bot, settings, names, web=web))
            finally:
                bot.store.close()
    except AlreadyRunning as exc:
        print(f"schoolbot: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    except PlatformStopped as exc:
        print(f"schoolbot: {exc}", file=sys.stderr)
        return EXIT_FAILED
    return 0


def _configure_logging(libraries: list[str], *, quiet: bool, debug: bool) -> None:
    level = logging.WARNING if quiet else logging.DEBUG if debug else logging.INFO
    logging.getLogger("schoolbot").setLevel(level)
    for name in libraries:  # the platform libraries' loggers whose debug lines show a token (Platform.loggers)
        logging.getLogger(name).setLevel(logging.INFO if not quiet else logging.WARNING)


def cmd_discord_sync(args: argparse.Namespace) -> int:
    from adapters.discord_bot.sync import cmd_discord_sync as sync

    return sync(args)


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    register_serve(sub, common)
    p = sub.add_parser("discord", help="Discord tools: register the slash commands")
    actions = p.add_subparsers(dest="discord_command", metavar="ACTION", required=True)
    s = actions.add_parser(
        "sync", parents=[common],
        help="register the slash commands with Discord; run once after install and after changing them",
    )
    s.add_argument("--guild", type=int, metavar="SERVER_ID",
                   help="register them in one server only (shows up at once; for testing)")
    s.set_defaults(func=cmd_discord_sync)
