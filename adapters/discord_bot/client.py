"""The Discord client: gateway events to the core and back.

:class:`DiscordAdapter` builds a plain :class:`discord.Client` that asks only for
the intents it needs, hands each message to the core (:mod:`.convert` turns it
into an ``Incoming``), answers with :mod:`.sender`, and carries the slash
commands (:class:`~.slash.SlashCommands`) on its command tree. A crash handling
one message is logged and never stops the bot.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from adapters.discord_bot.choices import choice_buttons, choice_view
from adapters.discord_bot.convert import message_to_incoming
from adapters.discord_bot.sender import DiscordSender, reply_to_message
from adapters.discord_bot.slash import RegistryTranslator, SlashCommands
from adapters.redaction import redact, redacting_logger, remember_secrets
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.core import Bot

log = redacting_logger("schoolbot.discord")

ReadyCallback = Callable[[DiscordSender], Awaitable[None] | None]


def gateway_intents() -> discord.Intents:
    """Only what the bot needs.

    guilds: the server and channel cache (permissions, threads, slash commands in
    servers); guild_messages and dm_messages: the messages themselves;
    message_content (privileged): the text of DMs and of messages that mention
    or reply to the bot. No members or presences intent.
    """
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.dm_messages = True
    intents.message_content = True
    return intents


class OneLineReconnects(logging.Filter):
    """discord.py logs every reconnect attempt with a full traceback; the operator needs one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith("Attempting a reconnect"):
            exc = record.exc_info[1]
            reason = redact(f"{type(exc).__name__}: {exc}") if str(exc) else type(exc).__name__
            record.msg, record.args = "discord: connection lost (%s); reconnecting in %.0fs", (reason, *record.args)
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_reconnects() -> None:
    """Install :class:`OneLineReconnects` on discord.py's client logger, once."""
    library = logging.getLogger("discord.client")
    if not any(isinstance(f, OneLineReconnects) for f in library.filters):
        library.addFilter(OneLineReconnects())


class DiscordAdapter:
    """The Discord client with the bot's event handlers and slash commands.

    ``adapter.client`` is a plain :class:`discord.Client` (``adapter.tree`` its
    command tree); ``adapter.sender`` delivers broadcasts through it.
    """

    def __init__(self, bot: Bot | None, settings: Settings, *, client_options: dict | None = None,
                 check_commands: bool = True):
        self.core = bot
        self.settings = settings
        remember_secrets(settings)  # from now on, no log line or error text shows the token
        # The bot has no voice: discord.py's warnings about voice libraries would only alarm the operator.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        quiet_reconnects()
        self.client = discord.Client(
            intents=gateway_intents(),
            allowed_mentions=discord.AllowedMentions.none(),  # the default for every send as well
            **(client_options or {}),
        )
        self.tree = app_commands.CommandTree(self.client)
        self.slash = SlashCommands(bot)
        self.slash.install(self.tree)
        self.check_commands = check_commands
        self.client.on_message = self.on_message
        self.client.on_ready = self.on_ready
        self.client.setup_hook = self.setup_hook
        self.buttons = choice_buttons(bot) if bot is not None else None
        if self.buttons is not None:
            self.client.add_dynamic_items(self.buttons)  # presses are read from the button's custom id
        self.sender = DiscordSender(self.client, settings.discord.dm_pace_seconds)
        self.ready_callbacks: list[ReadyCallback] = []

    async def setup_hook(self) -> None:
        """Once per start, after login: the translator, and a warning when the commands were never synced."""
        await self.tree.set_translator(RegistryTranslator())
        if not self.check_commands:
            return
        try:
            registered = {command.name for command in await self.tree.fetch_commands()}
        except Exception as exc:  # only a hint; never a reason not to start
            log.info("could not list the registered slash commands: %s", redact(exc))
            return
        missing = sorted(set(self.slash.names) - registered)
        if missing:
            log.warning(
                "slash commands not registered with Discord: /%s. Run `schoolbot discord sync` once "
                "(not on every start: Discord limits how often commands may be created).",
                ", /".join(missing),
            )

    async def on_ready(self) -> None:
        user = self.client.user
        log.info("connected to Discord as %s (id %s) in %d servers", user, user.id if user else "?",
                 len(self.client.guilds))
        callbacks, self.ready_callbacks = self.ready_callbacks, []  # once, not on every reconnect
        for callback in callbacks:
            try:
                result = callback(self.sender)
                if asyncio.iscoroutine(result):
                    await result
            except Exception:
                log.exception("a Discord on_ready callback failed")

    async def on_message(self, message: discord.Message) -> None:
        try:
            await self.handle_message(message)
        except Exception:
            log.exception("failed to handle Discord message %s in channel %s", message.id, message.channel.id)

    async def handle_message(self, message: discord.Message) -> None:
        incoming = message_to_incoming(message, self.client.user)
        if incoming is None or self.core is None:
            return
        await reply_to_message(message, self.core.handle(incoming),
                               views=lambda reply: choice_view(reply, message.author.id, self.buttons))
