"""Sending plain text to a Telegram chat, each Bot API error mapped to a :class:`SendOutcome`.

One sender serves both the broadcast worker (:class:`bot.messages.Sender`:
one attempt per call, the worker decides when to retry) and the replies to
users (which wait out a 429 in :mod:`adapters.telegram.updates`).

Rate limits. There is one overall limiter per platform, the outbox worker's,
which reads :attr:`TelegramSender.limits` (``[limits] telegram_per_second``
overall, one message a second per chat, 20 a minute per group). The sender
itself does not pace: replies to users are answered at once (they are bounded
by what users send, one reply per message), and when Telegram answers 429 the
reply waits ``retry_after`` and the worker pauses for it, so the two paths
share Telegram's own count rather than two client-side guesses of it.

Speed. A send is one ``sendMessage`` through the library's public
``Bot.do_api_request`` (its request layer, :class:`adapters.telegram.request.AiohttpRequest`,
and its error mapping), with Telegram's reply read as JSON and not turned into a
``telegram.Message``: nothing here reads it, and building one per recipient was a
tenth of a broadcast's CPU.
"""

from __future__ import annotations

import warnings
from datetime import timedelta

from telegram import Bot
from telegram.error import (
    BadRequest,
    ChatMigrated,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.warnings import PTBDeprecationWarning, PTBUserWarning

from adapters.redaction import redact, redacting_logger
from bot.messages import SendLimits, SendOutcome, SendStatus
from bot.text import plain, split_text

log = redacting_logger("schoolbot.telegram")

PLATFORM = "telegram"
MAX_CHARS = 4096  # telegram.constants.MessageLimit.MAX_TEXT_LENGTH
PER_CHAT_INTERVAL = 1.0  # Telegram: about one message a second to one chat
GROUP_PER_MINUTE = 20  # Telegram: at most 20 messages a minute to one group
NETWORK_RETRY_SECONDS = 5.0  # what the sender suggests to the broadcast worker after a network error
TOKEN_RETRY_SECONDS = 60.0  # a rejected token: wait for someone to fix it, never mark recipients failed
_NO_PREVIEW = {"is_disabled": True}
# do_api_request("sendMessage") suggests Bot.send_message, which builds a telegram.Message from every reply:
# the raw call is the one this module wants (see Speed above).
warnings.filterwarnings("ignore", message=r"Please use 'Bot\.sendMessage'", category=PTBUserWarning,
                        module=r"adapters\.telegram\.sender")


def telegram_limits(per_second: float) -> SendLimits:
    """Telegram's limits for one bot, with the overall rate from ``[limits] telegram_per_second``."""
    return SendLimits(per_second=per_second, per_chat_interval=PER_CHAT_INTERVAL,
                      group_per_minute=GROUP_PER_MINUTE, max_chars=MAX_CHARS)


class TelegramSender:
    """Plain-text sends through one python-telegram-bot ``Bot`` (no parse mode, no link previews)."""

    platform = PLATFORM

    def __init__(self, tg: Bot, limits: SendLimits | None = None):
        self.tg = tg
        self.limits = limits or telegram_limits(0.0)

    async def send_text(self, chat_id: str, text: str) -> SendOutcome:
        """The whole text, split at 4,096 characters; stops at the first chunk not sent."""
        text = plain(text)
        if not text:
            return SendOutcome(SendStatus.FAILED, detail="empty text")
        outcome = SendOutcome(SendStatus.SENT)
        for chunk in split_text(text, self.limits.max_chars):
            outcome = await self.send_chunk(chat_id, chunk)
            if outcome.status is not SendStatus.SENT:
                break
        return outcome

    async def send_chunk(self, chat_id: str, text: str, **extra) -> SendOutcome:
        """One sendMessage of at most 4,096 characters; `extra` adds Bot API parameters (reply_parameters, ...)."""
        data = {"chat_id": chat_id, "text": text, "link_preview_options": _NO_PREVIEW, **extra}
        try:
            await self.tg.do_api_request("sendMessage", api_kwargs=data)
        except Forbidden as exc:  # blocked by the user, kicked from the group, deactivated user
            return SendOutcome(SendStatus.BLOCKED, detail=redact(exc))
        except RetryAfter as exc:
            return SendOutcome(SendStatus.RETRY, retry_after=retry_seconds(exc), detail=f"flood control: {redact(exc)}")
        except ChatMigrated as exc:  # the group became a supergroup: deliver there
            if str(exc.new_chat_id) == str(chat_id):
                return SendOutcome(SendStatus.FAILED, detail="the chat reports it moved to itself")
            return await self.send_chunk(str(exc.new_chat_id), text, **extra)
        except BadRequest as exc:  # a subclass of NetworkError, so it must come first
            return SendOutcome(SendStatus.FAILED, detail=redact(exc))
        except (TimedOut, NetworkError) as exc:
            return SendOutcome(SendStatus.RETRY, retry_after=NETWORK_RETRY_SECONDS, detail=f"network: {redact(exc)}")
        # revoked or rotated (an initialised bot says EndPointNotFound: sendMessage exists, so the token is wrong);
        # no recipient's fault, so hold the outbox, don't fail it
        except (InvalidToken, EndPointNotFound):
            log.error("telegram: the Bot API rejects the token; deliveries wait until it is fixed")
            return SendOutcome(SendStatus.RETRY, retry_after=TOKEN_RETRY_SECONDS, detail="the bot token was rejected")
        except TelegramError as exc:
            return SendOutcome(SendStatus.FAILED, detail=redact(exc))
        return SendOutcome(SendStatus.SENT)


def retry_seconds(exc: RetryAfter) -> float:
    """A 429's retry_after in seconds (python-telegram-bot 22 gives int or timedelta)."""
    with warnings.catch_warnings():  # 22 warns that it will become a timedelta; both are read below
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)
