"""Telegram in the platform registry (adapters/platforms.py): its name, limits, runner, sender and options.

Importing this module imports no part of python-telegram-bot: the runner and the
sender import the package's modules when they are called.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from adapters.errors import UsageError
from adapters.platform import Platform

if TYPE_CHECKING:  # pragma: no cover
    import asyncio
    from collections.abc import Callable

    from bot.core import Bot
    from bot.messages import Sender, SendLimits
    from bot.settings import Settings

PLATFORM = "telegram"  # adapters/telegram/sender.py's platform, which imports the library


def limits(settings: Settings) -> SendLimits:
    """Telegram's limits for one bot (sender.telegram_limits), at ``[limits] telegram_per_second``."""
    from adapters.telegram.sender import telegram_limits

    return telegram_limits(settings.limits.telegram_per_second)


def run(bot: Bot, settings: Settings, stop: asyncio.Event, on_ready: Callable[[Sender], None]):
    from adapters.telegram.run import run_telegram

    return run_telegram(bot, settings, stop=stop, on_ready=on_ready)


def open_sender(settings: Settings):
    from adapters.telegram.startup import open_sender as opened

    return opened(settings)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """`serve`'s webhook options (they override the [telegram] settings)."""
    p.add_argument("--webhook-url", metavar="URL",
                   help="Telegram: receive updates at this public HTTPS URL instead of long polling "
                        "(overrides [telegram] webhook_url)")
    p.add_argument("--webhook-listen", metavar="ADDRESS",
                   help="Telegram webhook: local address to listen on (default [telegram] webhook_listen, 127.0.0.1)")
    p.add_argument("--webhook-port", type=int, metavar="PORT",
                   help="Telegram webhook: local port to listen on (default [telegram] webhook_port, 8443)")
    p.add_argument("--polling", action="store_true", help="Telegram: long polling even if a webhook_url is configured")


def apply_arguments(args: argparse.Namespace, settings: Settings) -> Settings:
    changes = {}
    if args.webhook_url is not None:
        changes["webhook_url"] = args.webhook_url
    if args.polling:
        changes["webhook_url"] = ""
    if args.webhook_listen:
        changes["webhook_listen"] = args.webhook_listen
    if args.webhook_port is not None:
        changes["webhook_port"] = args.webhook_port
    if changes:
        settings = settings.replace("telegram", **changes)
    url = settings.telegram.webhook_url
    if url and not url.startswith("https://") and not settings.telegram.base_url:
        raise UsageError(f"--webhook-url: {url!r} must be an https:// URL (Telegram only calls HTTPS webhooks)")
    return settings


TELEGRAM = Platform(
    name=PLATFORM, title="Telegram", section="telegram",
    chat_ids="the chat's number: a user's id in a private chat, a negative number for a group",
    limits=limits, run=run, graceful=True, open_sender=open_sender,
    add_arguments=add_arguments, apply_arguments=apply_arguments,
    loggers=("telegram",),  # python-telegram-bot's debug lines show the Bot API URL, with the token
)
