"""Long polling: getUpdates until stopped, each update confirmed to Telegram only after it was handled."""

from __future__ import annotations

import asyncio

from telegram import Bot as TelegramBot
from telegram.error import Conflict, InvalidToken, RetryAfter, TelegramError

from adapters.redaction import redact, redacting_logger
from adapters.telegram.sender import retry_seconds
from adapters.telegram.startup import TelegramStopped
from adapters.telegram.updates import UpdateHandler
from bot.retry import Backoff, pause

log = redacting_logger("schoolbot.telegram")

# Only what the bot acts on; other kinds of update are not even fetched (and ignored if they come).
ALLOWED_UPDATES = ["message", "my_chat_member", "callback_query"]
POLL_BACKOFF = Backoff(base=1.0, cap=30.0, jitter=0.0)  # after failed getUpdates in a row: 1, 2, 4 ... 30 s


async def poll(tg: TelegramBot, handler: UpdateHandler, stop: asyncio.Event, *, timeout: int = 30) -> None:
    """Long polling until `stop` is set.

    409 Conflict (another process polls the same token) stops with one line
    instead of fighting over updates; network and server errors back off.
    """
    await until(tg.delete_webhook(drop_pending_updates=False), stop)
    offset: int | None = None  # None: start at the earliest update Telegram has not seen confirmed
    failures = 0
    log.info("telegram: polling as @%s", handler.me.username)
    while not stop.is_set():
        try:
            updates = await until(tg.get_updates(offset=offset, timeout=timeout, allowed_updates=ALLOWED_UPDATES), stop)
        except Conflict as exc:
            raise TelegramStopped(
                "telegram: another process is already receiving this bot's updates "
                f"(409 Conflict: {redact(exc.message)}). Stop it first; this one is stopping instead of fighting over updates."
            ) from None
        except InvalidToken:  # its message quotes the token: not repeated here
            raise TelegramStopped("telegram: the Bot API rejected the token; check SCHOOLBOT_TELEGRAM_TOKEN") from None
        except RetryAfter as exc:
            wait = retry_seconds(exc)
            log.warning("telegram: getUpdates rate limited; waiting %.0fs", wait)
        except TelegramError as exc:  # NetworkError, TimedOut, server errors
            failures += 1
            wait = POLL_BACKOFF.delay(failures)
            log.warning("telegram: getUpdates failed (%s); retrying in %.0fs", redact(exc), wait)
        else:
            failures = 0
            if updates:
                await handler.handle_batch(updates)
                offset = updates[-1].update_id + 1
            continue
        await pause(wait, stop)
    if offset is not None:  # confirm what was handled, so Telegram does not serve it again
        try:
            await tg.get_updates(offset=offset, timeout=0, allowed_updates=ALLOWED_UPDATES)
        except TelegramError as exc:
            log.info("telegram: could not confirm the last updates on the way out (%s); "
                     "they will be skipped when served again", redact(exc))


async def until(coro, stop: asyncio.Event):
    """Await `coro` unless `stop` is set first (then cancel it and return None)."""
    task = asyncio.ensure_future(coro)
    stopper = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait((task, stopper), return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopper.cancel()
        if not task.done():
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
    if task.cancelled():
        return None
    return task.result()
