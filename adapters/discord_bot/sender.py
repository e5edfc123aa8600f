"""Everything the bot sends on Discord: replies to messages and slash commands, and broadcasts.

Every send uses ``AllowedMentions.none()``: no text, whatever it contains, can
ping ``@everyone``, a role or a user. Text is plain and split at Discord's
2,000-character limit (:func:`bot.text.split_text`); link previews are suppressed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import aiohttp
import discord

from adapters.discord_bot.convert import PLATFORM, parse_chat_id
from adapters.redaction import redact, redacting_logger
from bot.messages import Reply, SendLimits, SendOutcome, SendStatus
from bot.text import plain, split_text

log = redacting_logger("schoolbot.discord")

MAX_MESSAGE_CHARS = 2000  # Discord's limit for a message's content
SERVER_ERROR_RETRY_SECONDS = 10.0
NETWORK_RETRY_SECONDS = 5.0
TOKEN_RETRY_SECONDS = 60.0  # a rejected token: wait for someone to fix it, never mark recipients failed


def chunks(text: str) -> list[str]:
    """Plain text in pieces Discord accepts."""
    return split_text(plain(text), MAX_MESSAGE_CHARS)


def no_mentions() -> discord.AllowedMentions:
    return discord.AllowedMentions.none()


async def reply_to_message(message: discord.Message, replies: list[Reply],
                           views: Callable[[Reply], discord.ui.View | None] | None = None) -> None:
    """Answer a message in its channel; in a server the first piece replies to it (without a ping).

    `views` gives the buttons to put under a reply's last piece (a choice), if any.
    """
    first = True
    for reply in replies:
        pieces = chunks(reply.text)
        view = views(reply) if views is not None else None
        for index, piece in enumerate(pieces):
            reference = message.to_reference(fail_if_not_exists=False) if message.guild is not None and first else None
            extra = {"view": view} if view is not None and index == len(pieces) - 1 else {}
            await message.channel.send(piece, allowed_mentions=no_mentions(), reference=reference, suppress_embeds=True,
                                       **extra)
            first = False


async def respond(interaction: discord.Interaction, text: str, *, ephemeral: bool) -> None:
    """The first piece answers the interaction; later ones are follow-ups."""
    for piece in chunks(text):
        if not interaction.response.is_done():
            await interaction.response.send_message(piece, ephemeral=ephemeral, allowed_mentions=no_mentions(),
                                                    suppress_embeds=True)
        else:
            await interaction.followup.send(piece, ephemeral=ephemeral, allowed_mentions=no_mentions(),
                                            suppress_embeds=True)


class DiscordSender:
    """Sends broadcast text to a ``dm:`` or ``channel:`` chat id (implements bot.messages.Sender).

    DMs go one at a time, at least ``dm_pace_seconds`` apart (fast DM fan-out
    looks like spam to Discord); other rate limits are discord.py's own. A
    recipient that can no longer be reached (DMs closed, channel deleted, bot
    removed or its permission to post taken away) gives BLOCKED; server errors and
    network trouble RETRY; anything else FAILED. When a long text needs several
    messages and a later one fails, a retry sends only the rest.
    """

    platform = PLATFORM
    # discord.py paces its own requests and waits out 429s; the DM pace is kept here.
    limits = SendLimits(per_second=0.0, per_chat_interval=0.0, max_chars=MAX_MESSAGE_CHARS)

    def __init__(self, client: discord.Client, dm_pace_seconds: float = 1.0):
        self.client = client
        self.dm_pace_seconds = max(0.0, float(dm_pace_seconds))
        self._dm_lock = asyncio.Lock()
        self._next_dm_at = 0.0
        self._progress: dict[tuple[str, int], int] = {}  # (chat id, hash of text) -> pieces already sent

    async def send_text(self, chat_id: str, text: str) -> SendOutcome:
        target = parse_chat_id(chat_id)
        if target is None:
            return SendOutcome(SendStatus.FAILED, detail=f"not a Discord chat id: {chat_id!r}")
        if not self.client.is_ready():
            return SendOutcome(SendStatus.RETRY, NETWORK_RETRY_SECONDS, "not connected to Discord yet")
        kind, snowflake = target
        try:
            if kind == "dm":
                await self._send_dm(snowflake, chat_id, text)
            else:
                await self._send_pieces(self.client.get_partial_messageable(snowflake), chat_id, text)
        except (discord.Forbidden, discord.NotFound) as exc:
            return SendOutcome(SendStatus.BLOCKED, detail=f"{chat_id}: {redact(exc)}"[:300])
        except discord.RateLimited as exc:  # only when a wait is longer than the client's limit
            return SendOutcome(SendStatus.RETRY, exc.retry_after, "rate limited")
        except discord.HTTPException as exc:
            return _http_outcome(exc)
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            return SendOutcome(SendStatus.RETRY, NETWORK_RETRY_SECONDS, f"network: {exc.__class__.__name__}")
        return SendOutcome(SendStatus.SENT)

    async def _send_dm(self, user_id: int, chat_id: str, text: str) -> None:
        async with self._dm_lock:
            loop = asyncio.get_running_loop()
            wait = self._next_dm_at - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                user = self.client.get_user(user_id)
                channel = user.dm_channel if user is not None else None
                if channel is None:
                    channel = await self.client.create_dm(discord.Object(id=user_id))
                await self._send_pieces(channel, chat_id, text)
            finally:
                self._next_dm_at = loop.time() + self.dm_pace_seconds

    async def _send_pieces(self, channel: discord.abc.Messageable, chat_id: str, text: str) -> None:
        pieces = chunks(text)
        key = (chat_id, hash(text))
        done = self._progress.pop(key, 0)
        for index in range(done, len(pieces)):
            try:
                await channel.send(pieces[index], allowed_mentions=no_mentions(), suppress_embeds=True)
            except Exception:
                if index > 0:
                    if len(self._progress) > 10_000:  # only failed halves of long texts wait here
                        self._progress.clear()
                    self._progress[key] = index
                raise


def _http_outcome(exc: discord.HTTPException) -> SendOutcome:
    if exc.status == 401:  # the token was revoked or rotated: hold the outbox, don't fail it
        log.error("discord: the bot token is rejected; deliveries wait until it is fixed")
        return SendOutcome(SendStatus.RETRY, TOKEN_RETRY_SECONDS, "the bot token was rejected")
    if exc.status >= 500 or exc.status == 429:
        return SendOutcome(SendStatus.RETRY, SERVER_ERROR_RETRY_SECONDS, f"Discord error {exc.status}")
    return SendOutcome(SendStatus.FAILED, detail=f"Discord refused the message: {exc.status} {redact(exc.text)}"[:300])
