"""`run_telegram`: the Telegram adapter put together (client, journal, update handler, polling or webhook)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

from telegram import Bot as TelegramBot
from telegram import BotCommand
from telegram.error import TelegramError

from adapters.redaction import redact, redacting_logger
from adapters.telegram.convert import Identity
from adapters.telegram.journal import UpdateJournal
from adapters.telegram.polling import poll
from adapters.telegram.sender import TelegramSender, telegram_limits
from adapters.telegram.startup import STARTUP_ATTEMPTS, connect, telegram_client
from adapters.telegram.updates import UpdateHandler
from adapters.telegram.webhook import serve_webhook
from bot.commands import menu
from bot.core import Bot
from bot.messages import Sender
from bot.settings import Settings

log = redacting_logger("schoolbot.telegram")

MENU_LANGUAGES = ("fr",)
REPLY_DRAIN_SECONDS = 5.0  # on a graceful stop, how long replies ready to go may still be sent  # besides the default (English) menu, shown to users whose Telegram is in French


async def run_telegram(
    bot: Bot,
    settings: Settings,
    *,
    stop: asyncio.Event | None = None,
    on_ready: Callable[[Sender], None] | None = None,
    poll_timeout: int = 30,
    startup_attempts: int = STARTUP_ATTEMPTS,
) -> None:
    """Run the bot on Telegram until `stop` is set: long polling, or a webhook if [telegram] webhook_url is set.

    Raises :class:`~adapters.telegram.startup.TelegramStopped` (one-line message)
    when the token is missing or rejected, the API cannot be reached at start,
    or another instance polls. `on_ready` receives the sender once connected
    (for the broadcast worker).
    """
    stop = stop if stop is not None else asyncio.Event()
    tg = telegram_client(settings)
    try:
        if not await connect(tg, settings, attempts=startup_attempts, stop=stop):
            return
        me = Identity.of(tg.id, tg.username or "")
        sender = TelegramSender(tg, telegram_limits(settings.limits.telegram_per_second))
        handler = UpdateHandler(bot, tg, sender, UpdateJournal(bot.store, str(tg.id)), me,
                                window=settings.limits.delivery_concurrency)
        await register_commands(tg)
        if on_ready is not None:
            on_ready(sender)
        handler.lanes.resume()  # replies queued before a stop or a kill go first
        t = settings.telegram
        try:
            if t.webhook_url:
                secret = t.webhook_secret or secrets.token_urlsafe(32)  # set anew with every setWebhook
                await serve_webhook(tg, handler, stop, url=t.webhook_url, listen=t.webhook_listen,
                                    port=t.webhook_port, secret=secret)
            else:
                await poll(tg, handler, stop, timeout=poll_timeout)
        finally:  # replies ready to go are sent for a few seconds; the rest stay queued for the next start
            await handler.lanes.close(REPLY_DRAIN_SECONDS if stop.is_set() else 0)
    finally:
        try:
            await tg.shutdown()
        except Exception:  # pragma: no cover - best effort on the way out
            log.debug("telegram: shutdown failed", exc_info=True)


async def register_commands(tg: TelegramBot) -> None:
    """The command menu from the one registry (bot.commands), in English and each other language."""
    try:
        await tg.set_my_commands([BotCommand(name, text) for name, text in menu("en")])
        for language in MENU_LANGUAGES:
            await tg.set_my_commands([BotCommand(name, text) for name, text in menu(language)], language_code=language)
    except TelegramError as exc:  # the menu is a convenience; answering works without it
        log.warning("telegram: could not register the command menu: %s", redact(exc))
