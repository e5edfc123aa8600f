"""`schoolbot serve`: run the bot on Telegram and/or Discord in one process.

With no platform flag it runs every platform whose token is configured. A
missing or rejected token, or another instance already polling, is one
clear error line and a non-zero exit.

This module must stay light: it is imported to build the command line, so it
never imports python-telegram-bot or discord.py at import time (``schoolbot
ask`` starts cold on every call). The platform adapters are imported only
when ``serve`` runs.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from adapters.errors import PlatformStopped

if TYPE_CHECKING:  # pragma: no cover
    from bot.core import Bot
    from bot.messages import Sender
    from bot.settings import Settings

log = logging.getLogger("schoolbot.serve")

PLATFORMS = ("telegram", "discord")
SHUTDOWN_GRACE_SECONDS = 15.0




# ------------------------------------------------------------------- CLI
def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
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
    p.set_defaults(func=cmd_serve)


def configured_platforms(settings: Settings) -> list[str]:
    return [name for name in PLATFORMS if getattr(settings, name).token.strip()]


def cmd_serve(args: argparse.Namespace) -> int:
    from bot.cli import UsageError, _settings

    settings = _settings(args)
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

    _configure_logging(quiet=args.quiet, debug=args.debug)
    from bot.app import build_bot

    bot = build_bot(settings)
    try:
        asyncio.run(serve(bot, settings, wanted))
    except PlatformStopped as exc:
        print(f"schoolbot: {exc}", file=sys.stderr)
        return 1
    finally:
        bot.store.close()
    return 0


def _configure_logging(*, quiet: bool, debug: bool) -> None:
    level = logging.WARNING if quiet else logging.DEBUG if debug else logging.INFO
    logging.getLogger("schoolbot").setLevel(level)
    # httpx logs every request URL at INFO, and a Bot API URL contains the token: never let it through.
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.WARNING)
    # python-telegram-bot's debug logs show the Bot API URL (with the token) too.
    logging.getLogger("telegram").setLevel(logging.INFO if not quiet else logging.WARNING)
    # The rate limiter logs each 429 as an error with a traceback; the adapter waits it out and logs it itself.
    logging.getLogger("telegram.ext.AIORateLimiter").setLevel(logging.CRITICAL)


# ---------------------------------------------------------------- running
async def serve(bot: Bot, settings: Settings, platforms: list[str], *, stop: asyncio.Event | None = None) -> None:
    """Run the chosen platforms until a signal or `stop`; a platform failing stops them all."""
    stop = stop if stop is not None else asyncio.Event()
    _install_signal_handlers(stop)
    senders: dict[str, Sender] = {}

    def ready(sender: Sender) -> None:
        senders[sender.platform] = sender

    runners: dict[str, Awaitable[None]] = {}
    stoppable: set[str] = set()
    if "telegram" in platforms:
        from adapters.telegram import run_telegram

        runners["telegram"] = run_telegram(bot, settings, stop=stop, on_ready=ready)
        stoppable.add("telegram")
    if "discord" in platforms:
        runners["discord"] = run_discord_slot(bot, settings, ready)
    for name, worker in delivery_workers(bot, settings, senders, stop).items():
        runners[name] = worker
        stoppable.add(name)

    tasks = {asyncio.create_task(coro, name=f"serve:{name}"): name for name, coro in runners.items()}
    stopper = asyncio.create_task(stop.wait(), name="serve:stop")
    _done, _ = await asyncio.wait([*tasks, stopper], return_when=asyncio.FIRST_COMPLETED)
    stop.set()  # one platform ended or failed, or a signal came: stop everything
    for task, name in tasks.items():
        if name not in stoppable and not task.done():
            task.cancel()
    pending = [t for t in tasks if not t.done()]
    if pending:
        _, still = await asyncio.wait(pending, timeout=SHUTDOWN_GRACE_SECONDS)
        for task in still:
            log.warning("%s did not stop within %.0fs; cancelling it", tasks[task], SHUTDOWN_GRACE_SECONDS)
            task.cancel()
        if still:
            await asyncio.wait(still)
    stopper.cancel()

    first_error: BaseException | None = None
    for task, name in tasks.items():
        if task.cancelled():
            continue
        exc = task.exception()
        if exc is None:
            continue
        if not isinstance(exc, PlatformStopped):
            log.error("%s stopped with an error", name, exc_info=exc)
            exc = PlatformStopped(f"{name}: stopped with an error: {exc!r}")
        first_error = first_error or exc
    if first_error is not None:
        raise first_error


async def run_discord_slot(bot: Bot, settings: Settings, on_ready: Callable[[Sender], None]) -> None:
    from adapters.discord_bot import run_discord  # imported only when Discord runs
    from bot.settings import SettingsError

    try:
        await run_discord(bot, settings, on_ready=on_ready)
    except SettingsError as exc:
        raise PlatformStopped(f"discord: {exc}") from None


def delivery_workers(bot: Bot, settings: Settings, senders: dict[str, Sender],
                     stop: asyncio.Event) -> dict[str, Awaitable[None]]:
    """The broadcast workers that run alongside the platforms, by name.

    `senders` fills in as platforms connect ({"telegram": TelegramSender, ...});
    `stop` is set on shutdown.
    """
    from bot.broadcast.supervise import run_delivery

    return {"delivery": run_delivery(bot.store, settings, senders, stop, wakeup=bot.wakeup)}


def _install_signal_handlers(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError, ValueError):  # Windows, or not the main thread
            pass

