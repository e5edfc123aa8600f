"""`schoolbot serve` (arguments, checks, logging) and `schoolbot discord sync`.

The running itself is adapters/serve.py and the platform adapters, imported
only when these commands run.
"""

from __future__ import annotations

import argparse
import logging
import sys

from adapters.cli.common import EXIT_DATABASE, EXIT_FAILED, PLATFORMS, configured_platforms, settings_from
from adapters.errors import PlatformStopped, UsageError

SUBCOMMANDS = ("serve", "discord")  # the subcommands register() adds


def register_serve(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "serve", parents=[common],
        help="run the bot on Telegram and/or Discord (tokens from settings or SCHOOLBOT_*_TOKEN)",
        description="Run the bot. With no platform flag, every platform whose token is configured runs. "
                    "Tokens are read from the settings file or the environment "
                    "(SCHOOLBOT_TELEGRAM_TOKEN, SCHOOLBOT_DISCORD_TOKEN), never from the command line.",
    )
    p.add_argument("--telegram", action="store_true", help="run on Telegram")
    p.add_argument("--discord", action="store_true", help="run on Discord")
    p.add_argument("--webhook-url", metavar="URL",
                   help="Telegram: receive updates at this public HTTPS URL instead of long polling "
                        "(overrides [telegram] webhook_url)")
    p.add_argument("--webhook-listen", metavar="ADDRESS",
                   help="Telegram webhook: local address to listen on (default [telegram] webhook_listen, 127.0.0.1)")
    p.add_argument("--webhook-port", type=int, metavar="PORT",
                   help="Telegram webhook: local port to listen on (default [telegram] webhook_port, 8443)")
    p.add_argument("--polling", action="store_true", help="Telegram: long polling even if a webhook_url is configured")
    p.add_argument("--quiet", action="store_true", help="log warnings and errors only")
    p.add_argument("--debug", action="store_true", help="log the bot's debug messages (libraries stay quiet)")
    p.add_argument("--check", action="store_true",
                   help="check settings, tokens, data files and the database as serve would, then exit (0: ready)")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    telegram_changes = {}
    if args.webhook_url is not None:
        telegram_changes["webhook_url"] = args.webhook_url
    if args.polling:
        telegram_changes["webhook_url"] = ""
    if args.webhook_listen:
        telegram_changes["webhook_listen"] = args.webhook_listen
    if args.webhook_port is not None:
        telegram_changes["webhook_port"] = args.webhook_port
    if telegram_changes:
        settings = settings.replace("telegram", **telegram_changes)
    url = settings.telegram.webhook_url
    if url and not url.startswith("https://") and not settings.telegram.base_url:
        raise UsageError(f"--webhook-url: {url!r} must be an https:// URL (Telegram only calls HTTPS webhooks)")

    wanted = [name for name in PLATFORMS if getattr(args, name)]
    if not wanted:
        wanted = configured_platforms(settings)
        if not wanted:
            raise UsageError(
                "serve: no platform token is configured; set SCHOOLBOT_TELEGRAM_TOKEN or "
                "SCHOOLBOT_DISCORD_TOKEN (or [telegram] token / [discord] token in the settings file)"
            )
    for name in wanted:
        if not getattr(settings, name).token.strip():
            raise UsageError(
                f"serve --{name}: no {name.capitalize()} token; set SCHOOLBOT_{name.upper()}_TOKEN "
                f"or [{name}] token in the settings file (settings from: {settings.source})"
            )

    import asyncio

    from adapters.instance import AlreadyRunning, only_instance
    from adapters.serve import serve
    from bot.app import build_bot, settle_after_build

    _configure_logging(quiet=args.quiet, debug=args.debug)
    try:
        with only_instance(settings.database.path):
            bot = build_bot(settings)
            if args.check:  # everything serve reads before it connects: a service manager's pre-start check
                bot.store.close()
                print(f"ready to serve {', '.join(wanted)} on {settings.database.path}")
                return 0
            settle_after_build()
            try:
                asyncio.run(serve(bot, settings, wanted))
            finally:
                bot.store.close()
    except AlreadyRunning as exc:
        print(f"schoolbot: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    except PlatformStopped as exc:
        print(f"schoolbot: {exc}", file=sys.stderr)
        return EXIT_FAILED
    return 0


def _configure_logging(*, quiet: bool, debug: bool) -> None:
    level = logging.WARNING if quiet else logging.DEBUG if debug else logging.INFO
    logging.getLogger("schoolbot").setLevel(level)
    # python-telegram-bot's debug logs show the Bot API URL (with the token) too.
    logging.getLogger("telegram").setLevel(logging.INFO if not quiet else logging.WARNING)


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
