"""Connecting to the Bot API: the client, getMe with retries, and one-line errors for the operator.

Every way of starting Telegram (``schoolbot serve``, ``schoolbot deliver``)
goes through :func:`connect`, so the operator reads the same line, never the
token, and gets the same exit status:

- no token: :data:`NO_TOKEN` (``serve`` and ``deliver`` check it first and exit 2);
- token rejected (401/404 on getMe): one line, exit 1;
- Bot API unreachable after ``attempts`` tries with back-off: one line, exit 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

# Opt in now to python-telegram-bot v23's time periods as timedelta (handled either way);
# without it every 429 logs a deprecation warning from inside the library.
os.environ.setdefault("PTB_TIMEDELTA", "true")

from telegram import Bot as TelegramBot
from telegram.error import InvalidToken, TelegramError

from adapters.errors import PlatformStopped
from adapters.redaction import redact, redacting_logger, remember_secrets
from adapters.telegram.request import AiohttpRequest
from adapters.telegram.sender import TelegramSender, telegram_limits
from bot.retry import Backoff, retry
from bot.settings import Settings

log = redacting_logger("schoolbot.telegram")

STARTUP_ATTEMPTS = 5  # getMe tries before giving up: waits of 1, 2, 4, 8 s between them
STARTUP_BACKOFF = Backoff(base=1.0, cap=30.0, jitter=0.0)  # one bot, one server: nothing to spread out
NO_TOKEN = "telegram: no bot token; set SCHOOLBOT_TELEGRAM_TOKEN or [telegram] token in the settings file"
SEND_POOL = 64  # connections for sends: more than the outbox's concurrency plus replies in flight


class TelegramStopped(PlatformStopped):
    """The Telegram side cannot run: the message is one line for the operator."""


def telegram_client(settings: Settings) -> TelegramBot:
    """A python-telegram-bot ``Bot`` on aiohttp for the configured token and API server (not yet connected)."""
    t = settings.telegram
    if not t.token.strip():
        raise TelegramStopped(NO_TOKEN)
    remember_secrets(settings)  # from now on, no log line or error text shows the token or the webhook secret
    kwargs = {"base_url": t.base_url} if t.base_url else {}
    return TelegramBot(
        t.token.strip(),
        request=AiohttpRequest(pool_size=SEND_POOL),
        get_updates_request=AiohttpRequest(pool_size=1),
        **kwargs,
    )


def api_host(settings: Settings) -> str:
    return urlsplit(settings.telegram.base_url).netloc if settings.telegram.base_url else "api.telegram.org"


async def connect(tg: TelegramBot, settings: Settings, *, attempts: int = STARTUP_ATTEMPTS,
                  stop: asyncio.Event | None = None) -> bool:
    """getMe, retrying network errors with back-off. False when `stop` was set while waiting.

    Raises :class:`TelegramStopped` with one line when the token is rejected
    or the Bot API cannot be reached after `attempts` tries.
    """
    where = api_host(settings)

    async def get_me() -> None:
        try:
            await tg.initialize()
        except InvalidToken:  # its message quotes the token: not repeated here
            raise TelegramStopped(
                f"telegram: the Bot API at {where} rejected the token; "
                "check SCHOOLBOT_TELEGRAM_TOKEN or [telegram] token (BotFather's /token shows it)"
            ) from None

    def warn(failures: int, exc: BaseException, wait: float) -> None:
        log.warning("telegram: cannot reach the Bot API at %s (%s); retrying in %.0fs", where, redact(exc), wait)

    try:
        await retry(get_me, attempts=attempts, backoff=STARTUP_BACKOFF, retry_on=TelegramError, on_retry=warn, stop=stop)
    except TelegramError as exc:
        if stop is not None and stop.is_set():
            return False
        raise TelegramStopped(
            f"telegram: cannot reach the Bot API at {where} after {attempts} tries ({redact(exc)}); "
            "check the network (or [telegram] base_url) and start again"
        ) from None
    return True


@contextlib.asynccontextmanager
async def open_sender(settings: Settings, *, attempts: int = STARTUP_ATTEMPTS) -> AsyncIterator[TelegramSender]:
    """A connected TelegramSender on its own client, for delivering the outbox without receiving updates."""
    tg = telegram_client(settings)  # raises TelegramStopped(NO_TOKEN) without a token
    try:
        await connect(tg, settings, attempts=attempts)
        yield TelegramSender(tg, telegram_limits(settings.limits.telegram_per_second))
    finally:
        await tg.shutdown()
