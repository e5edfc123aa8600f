"""The Discord adapter: a thin layer between discord.py (2.x) and the core's one entry point.

* Direct messages: every message goes to the core.
* Servers: a message is *addressed* to the bot when it mentions the bot (or the
  bot's own role) or replies to one of the bot's messages; the mention is
  stripped. Other chatter is passed on unaddressed, and the core stays silent.
* Slash commands ``/status [board] [date]``, ``/board <name>`` (autocomplete over
  board names), ``/subscribe [board]``, ``/unsubscribe``, ``/help`` and
  ``/whoami`` become the text commands the core already understands. Replies the
  core marks private (they concern only the asker) are sent ephemeral.
* Every send uses ``AllowedMentions.none()``: no text, whatever it contains, can
  ping ``@everyone``, a role or a user. Text is split at Discord's 2,000-character
  limit with :func:`bot.text.split_text`.
* All bots, the bot itself included, are ignored. A crash handling one message is
  logged and never stops the bot.
* :class:`DiscordSender` delivers broadcasts: to channels that server admins
  subscribed and to users who subscribed in DMs (paced, since fast DM fan-out
  looks like spam to Discord). Rate limits are otherwise left to discord.py.

Chat ids: ``dm:<user id>`` for direct messages, ``channel:<channel id>`` for
server channels and threads. They are what subscriptions store.

discord.py is imported only when a Discord client is built or a Discord command
runs, so ``schoolbot ask`` (which builds the CLI parser, and with it this
module's :func:`register`) never pays for it. The module is not called
``discord`` so that it can never shadow the package.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.messages import ChatKind, Incoming, Reply, SendOutcome, SendStatus
from bot.settings import Settings, SettingsError, load_settings
from bot.text import normalize, plain, split_text

if TYPE_CHECKING:  # only for annotations; never imported at run time from here
    import discord
    from discord import app_commands

    from bot.core import Bot
    from knowledge.model import Board

log = logging.getLogger("schoolbot.discord")

PLATFORM = "discord"
MAX_MESSAGE_CHARS = 2000  # Discord's limit for a message's content
MAX_CHOICES = 25  # Discord's limit for autocomplete choices
SERVER_ERROR_RETRY_SECONDS = 10.0
NETWORK_RETRY_SECONDS = 5.0
TOKEN_RETRY_SECONDS = 60.0  # a rejected token: wait for someone to fix it, never mark recipients failed
SORRY_TEXT = "Sorry, something went wrong on my side. Please try again in a moment, or use /help."
TOKEN_HELP = "set SCHOOLBOT_DISCORD_TOKEN or [discord] token in the settings file"

# The slash commands and the text the core receives for them.
COMMAND_NAMES = ("status", "board", "subscribe", "unsubscribe", "help", "whoami")


# ---------------------------------------------------------------- chat ids
def dm_chat_id(user_id: int) -> str:
    return f"dm:{user_id}"


def channel_chat_id(channel_id: int) -> str:
    return f"channel:{channel_id}"


def parse_chat_id(chat_id: str) -> tuple[str, int] | None:
    """("dm", user id) or ("channel", channel id); None when the id is not ours."""
    kind, sep, raw = chat_id.partition(":")
    if not sep or kind not in ("dm", "channel") or not raw.isdigit():
        return None
    return kind, int(raw)


def chunks(text: str) -> list[str]:
    """Plain text in pieces Discord accepts."""
    return split_text(plain(text), MAX_MESSAGE_CHARS)


def no_mentions() -> discord.AllowedMentions:
    import discord

    return discord.AllowedMentions.none()


def gateway_intents() -> discord.Intents:
    """Only what the bot needs.

    guilds: the server and channel cache (permissions, threads, slash commands in
    servers); guild_messages and dm_messages: the messages themselves;
    message_content (privileged): the text of DMs and of messages that mention
    or reply to the bot. No members or presences intent.
    """
    import discord

    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.dm_messages = True
    intents.message_content = True
    return intents


def board_choices(boards: dict[str, Board], current: str, *, include_all: bool = False,
                  preferred: str | None = None) -> list[tuple[str, str]]:
    """(label, board id) pairs for autocomplete: best matches of what was typed so far.

    `preferred` is the board the core itself would pick for the text (a city means
    its English public board, a misspelling its likely board); it comes first.
    """
    query = normalize(current or "")
    ranked: list[tuple[int, str, str, str]] = []
    if include_all and (not query or "all boards".startswith(query) or query == "all"):
        ranked.append((-2, "", "All boards", "all"))
    for board in boards.values():
        name = normalize(board.name)
        others = [normalize(a) for a in (*board.aliases, *board.municipalities)]
        if board.id == preferred and query:
            rank = -1
        elif not query or board.id == query:
            rank = 0
        elif board.id.startswith(query) or name.startswith(query):
            rank = 1
        elif any(key.startswith(query) for key in others) or f" {query}" in f" {name}":
            rank = 2
        elif query in name or any(query in key for key in others):
            rank = 3
        else:
            continue
        ranked.append((rank, name, f"{board.name} ({board.id})"[:100], board.id))
    ranked.sort()
    return [(label, value) for _, _, label, value in ranked[:MAX_CHOICES]]


def _is_group_admin(permissions: Any) -> bool:
    return bool(permissions.administrator or permissions.manage_guild)


# ------------------------------------------------------------------ adapter
class DiscordAdapter:
    """The Discord client with the bot's event handlers and slash commands.

    ``adapter.client`` is a plain :class:`discord.Client` (with ``adapter.tree``,
    its command tree); ``adapter.sender`` delivers broadcasts through it.
    """

    def __init__(self, bot: Bot | None, settings: Settings, *, client_options: dict | None = None):
        import discord
        from discord import app_commands

        self.core = bot
        self.settings = settings
        self.client = discord.Client(
            intents=gateway_intents(),
            allowed_mentions=discord.AllowedMentions.none(),  # the default for every send as well
            **(client_options or {}),
        )
        self.tree = app_commands.CommandTree(self.client)
        self.tree.on_error = self._on_command_error
        self._define_commands()
        self.client.on_message = self.on_message
        self.client.on_ready = self.on_ready
        self.client.setup_hook = self.setup_hook
        self.sender = DiscordSender(self.client, settings.discord.dm_pace_seconds)
        self.ready_callbacks: list[Callable[[DiscordSender], Awaitable[None] | None]] = []

    # ------------------------------------------------------------- lifecycle
    async def setup_hook(self) -> None:
        """Once per start, after login: warn when the slash commands were never synced."""
        try:
            registered = {command.name for command in await self.tree.fetch_commands()}
        except Exception as exc:  # only a hint; never a reason not to start
            log.info("could not list the registered slash commands: %s", exc)
            return
        missing = sorted(set(COMMAND_NAMES) - registered)
        if missing:
            log.warning(
                "slash commands not registered with Discord: /%s. Run `schoolbot discord sync` once "
                "(not on every start: Discord limits how often commands may be created).",
                ", /".join(missing),
            )

    async def on_ready(self) -> None:
        user = self.client.user
        log.info("connected to Discord as %s (id %s) in %d servers", user, user.id if user else "?", len(self.client.guilds))
        callbacks, self.ready_callbacks = self.ready_callbacks, []  # once, not on every reconnect
        for callback in callbacks:
            try:
                result = callback(self.sender)
                if asyncio.iscoroutine(result):
                    await result
            except Exception:
                log.exception("a Discord on_ready callback failed")

    # -------------------------------------------------------------- messages
    async def on_message(self, message: discord.Message) -> None:
        try:
            await self.handle_message(message)
        except Exception:
            log.exception("failed to handle Discord message %s in channel %s", message.id, message.channel.id)

    def to_incoming(self, message: discord.Message) -> Incoming | None:
        """The core's view of a Discord message; None for what the bot must ignore."""
        import discord

        author = message.author
        me = self.client.user
        if author.bot or message.webhook_id is not None or (me is not None and author.id == me.id):
            return None
        if message.type not in (discord.MessageType.default, discord.MessageType.reply):
            return None  # joins, pins, boosts and other system messages
        text = message.content or ""
        if message.guild is None:
            return Incoming(
                PLATFORM, dm_chat_id(author.id), str(author.id), text, message.created_at,
                ChatKind.PRIVATE, True, author.display_name,
            )
        addressed, text = self._addressed(message, text)
        admin = isinstance(author, discord.Member) and _is_group_admin(author.guild_permissions)
        return Incoming(
            PLATFORM, channel_chat_id(message.channel.id), str(author.id), text, message.created_at,
            ChatKind.GROUP, addressed, author.display_name, admin,
        )

    def _addressed(self, message: discord.Message, text: str) -> tuple[bool, str]:
        """Whether a server message is meant for the bot, and its text without the mention."""
        me = self.client.user
        if me is None:
            return False, text
        addressed = any(user.id == me.id for user in message.mentions)
        stripped = re.sub(rf"<@!?{me.id}>", " ", text)
        own_role = message.guild.self_role if message.guild is not None else None
        if own_role is not None and own_role in message.role_mentions:
            addressed = True
            stripped = stripped.replace(own_role.mention, " ")
        reference = message.reference
        if not addressed and reference is not None:
            replied_to = reference.resolved or reference.cached_message
            addressed = getattr(getattr(replied_to, "author", None), "id", None) == me.id
        return addressed, " ".join(stripped.split()) if addressed else text

    async def handle_message(self, message: discord.Message) -> None:
        incoming = self.to_incoming(message)
        if incoming is None or self.core is None:
            return
        replies = self.core.handle(incoming)
        first = True
        for reply in replies:
            for piece in chunks(reply.text):
                if message.guild is not None and first:
                    # Answer as a reply so the thread of conversation is clear; no ping for the asker.
                    reference = message.to_reference(fail_if_not_exists=False)
                else:
                    reference = None
                await message.channel.send(
                    piece, allowed_mentions=no_mentions(), reference=reference, suppress_embeds=True
                )
                first = False

    # ---------------------------------------------------------- slash commands
    def _define_commands(self) -> None:
        from discord import app_commands

        tree = self.tree
        contexts = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
        installs = app_commands.allowed_installs(guilds=True, users=False)

        async def boards_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return self._choices(current, include_all=False)

        async def subscribe_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return self._choices(current, include_all=True)

        @tree.command(name="status", description="Is school open? For your board (or another) and a day")
        @app_commands.describe(board="a school board: name, abbreviation or city (default: yours)",
                               date="a day, e.g. monday, tomorrow, Oct 7 (default: today)")
        @app_commands.autocomplete(board=boards_autocomplete)
        @contexts
        @installs
        async def status(interaction: discord.Interaction, board: str | None = None, date: str | None = None) -> None:
            await self.answer_interaction(interaction, _command_text("status", board, date))

        @tree.command(name="board", description="Remember your school board for your next questions")
        @app_commands.describe(name="the board's name, abbreviation or your city, e.g. TDSB, Peel, Mississauga")
        @app_commands.autocomplete(name=boards_autocomplete)
        @contexts
        @installs
        async def board(interaction: discord.Interaction, name: str) -> None:
            await self.answer_interaction(interaction, _command_text("board", name))

        @tree.command(name="subscribe", description="Get official updates for a board (server admins: for this channel)")
        @app_commands.describe(board="a board, or 'all' (default: the board you set with /board)")
        @app_commands.autocomplete(board=subscribe_autocomplete)
        @contexts
        @installs
        async def subscribe(interaction: discord.Interaction, board: str | None = None) -> None:
            await self.answer_interaction(interaction, _command_text("subscribe", board))

        @tree.command(name="unsubscribe", description="Stop the updates (server admins: for this channel)")
        @contexts
        @installs
        async def unsubscribe(interaction: discord.Interaction) -> None:
            await self.answer_interaction(interaction, "/unsubscribe")

        @tree.command(name="help", description="What the bot can answer, with examples")
        @contexts
        @installs
        async def help_(interaction: discord.Interaction) -> None:
            await self.answer_interaction(interaction, "/help")

        @tree.command(name="whoami", description="Your Discord user id (for an owner granting you a role)")
        @contexts
        @installs
        async def whoami(interaction: discord.Interaction) -> None:
            await self.answer_interaction(interaction, "/whoami")

    def _choices(self, current: str, *, include_all: bool) -> list:
        from discord import app_commands

        if self.core is None:
            return []
        finder = self.core.boards
        found = finder.lookup(current) if len(normalize(current or "")) >= 3 else None
        return [
            app_commands.Choice(name=label, value=value)
            for label, value in board_choices(finder.boards, current, include_all=include_all,
                                              preferred=found.id if found else None)
        ]

    def interaction_incoming(self, interaction: discord.Interaction, text: str) -> Incoming:
        import discord

        user = interaction.user
        if interaction.guild_id is None:
            return Incoming(PLATFORM, dm_chat_id(user.id), str(user.id), text, interaction.created_at,
                            ChatKind.PRIVATE, True, user.display_name)
        admin = _is_group_admin(interaction.permissions)
        if isinstance(user, discord.Member) and interaction.guild is not None:
            admin = admin or _is_group_admin(user.guild_permissions)
        channel_id = interaction.channel_id or 0
        return Incoming(PLATFORM, channel_chat_id(channel_id), str(user.id), text, interaction.created_at,
                        ChatKind.GROUP, True, user.display_name, admin)

    async def answer_interaction(self, interaction: discord.Interaction, text: str) -> None:
        incoming = self.interaction_incoming(interaction, text)
        replies = self.core.handle(incoming) if self.core is not None else []
        if not replies:
            replies = [Reply("Send /help to see what I can do.", incoming.chat_id, private=True)]
        for reply in replies:
            for piece in chunks(reply.text):
                await self._respond(interaction, piece, reply.private)

    @staticmethod
    async def _respond(interaction: discord.Interaction, text: str, ephemeral: bool) -> None:
        """The first piece answers the interaction; later ones are follow-ups."""
        if not interaction.response.is_done():
            await interaction.response.send_message(
                text, ephemeral=ephemeral, allowed_mentions=no_mentions(), suppress_embeds=True
            )
        else:
            await interaction.followup.send(
                text, ephemeral=ephemeral, allowed_mentions=no_mentions(), suppress_embeds=True
            )

    async def _on_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        name = interaction.command.name if interaction.command else "?"
        log.error("failed to handle /%s from Discord user %s", name, interaction.user.id,
                  exc_info=(type(error), error, error.__traceback__))
        try:
            await self._respond(interaction, SORRY_TEXT, True)
        except Exception:
            log.warning("could not tell Discord user %s about the failure", interaction.user.id)


def _command_text(name: str, *arguments: str | None) -> str:
    """The text command for the core: "/status tdsb monday". Options are single-line plain text."""
    parts = [f"/{name}"] + [" ".join(arg.split()) for arg in arguments if arg and arg.strip()]
    return " ".join(parts)


# ---------------------------------------------------------------- broadcasts
class DiscordSender:
    """Sends broadcast text to a ``dm:`` or ``channel:`` chat id (implements bot.messages.Sender).

    DMs are sent one at a time, at least ``dm_pace_seconds`` apart. A recipient
    that can no longer be reached (DMs closed or bot blocked, channel deleted, bot
    removed from the server or its permission to post taken away) gets BLOCKED and
    its subscriptions made inactive; a server admin subscribes again with
    /subscribe. Server errors and network trouble give RETRY; anything else FAILED.
    When a long text needs several messages and a later one fails, a retry sends
    only the rest.
    """

    platform = PLATFORM

    def __init__(self, client: discord.Client, dm_pace_seconds: float = 1.0):
        self.client = client
        self.dm_pace_seconds = max(0.0, float(dm_pace_seconds))
        self._dm_lock = asyncio.Lock()
        self._next_dm_at = 0.0
        self._progress: dict[tuple[str, int], int] = {}  # (chat id, hash of text) -> pieces already sent

    async def send_text(self, chat_id: str, text: str) -> SendOutcome:
        import aiohttp
        import discord

        target = parse_chat_id(chat_id)
        if target is None:
            return SendOutcome(SendStatus.FAILED, detail=f"not a Discord chat id: {chat_id!r}")
        if not self.client.is_ready():
            return SendOutcome(SendStatus.RETRY, NETWORK_RETRY_SECONDS, "not connected to Discord yet")
        kind, snowflake = target
        try:
            if kind == "dm":
                async with self._dm_lock:
                    loop = asyncio.get_running_loop()
                    wait = self._next_dm_at - loop.time()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    try:
                        channel = await self._dm_channel(snowflake)
                        await self._send_pieces(channel, chat_id, text)
                    finally:
                        self._next_dm_at = loop.time() + self.dm_pace_seconds
            else:
                await self._send_pieces(self.client.get_partial_messageable(snowflake), chat_id, text)
        except (discord.Forbidden, discord.NotFound) as exc:
            return self._blocked(chat_id, exc)
        except discord.RateLimited as exc:  # only when a wait is longer than the client's limit
            return SendOutcome(SendStatus.RETRY, exc.retry_after, "rate limited")
        except discord.HTTPException as exc:
            if exc.status == 401:  # the token was revoked or rotated: hold the outbox, don't fail it
                log.error("discord: the bot token is rejected; deliveries wait until it is fixed")
                return SendOutcome(SendStatus.RETRY, TOKEN_RETRY_SECONDS, "the bot token was rejected")
            if exc.status >= 500 or exc.status == 429:
                return SendOutcome(SendStatus.RETRY, SERVER_ERROR_RETRY_SECONDS, f"Discord error {exc.status}")
            return SendOutcome(SendStatus.FAILED, detail=f"Discord refused the message: {exc.status} {exc.text}"[:300])
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            return SendOutcome(SendStatus.RETRY, NETWORK_RETRY_SECONDS, f"network: {exc.__class__.__name__}")
        return SendOutcome(SendStatus.SENT)

    async def _dm_channel(self, user_id: int) -> discord.abc.Messageable:
        import discord

        user = self.client.get_user(user_id)
        if user is not None and user.dm_channel is not None:
            return user.dm_channel
        return await self.client.create_dm(discord.Object(id=user_id))

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

    @staticmethod
    def _blocked(chat_id: str, exc: Exception) -> SendOutcome:
        return SendOutcome(SendStatus.BLOCKED, detail=f"{chat_id}: {exc}"[:300])


# ---------------------------------------------------------------- running it
def _token(settings: Settings) -> str:
    token = settings.discord.token.strip()
    if not token:
        raise SettingsError(f"no Discord bot token: {TOKEN_HELP}")
    return token


async def run_discord(bot: Bot, settings: Settings, *, adapter: DiscordAdapter | None = None,
                      on_ready: Callable[[DiscordSender], Awaitable[None] | None] | None = None) -> None:
    """Connect to Discord and answer until cancelled (used by ``schoolbot serve``).

    A missing or rejected token, or a Message Content intent not switched on in the
    Developer Portal, raises :class:`SettingsError` with one clear line. ``on_ready``
    is called with the :class:`DiscordSender` once, when first connected (for the
    broadcast worker); ``adapter`` lets the caller build the adapter itself.
    """
    import discord

    token = _token(settings)
    adapter = adapter or DiscordAdapter(bot, settings)
    client = adapter.client
    if on_ready is not None:
        adapter.ready_callbacks.append(on_ready)
    try:
        async with client:
            await client.start(token)
    except discord.LoginFailure:
        raise SettingsError(f"Discord rejected the bot token: check it on the Bot page of the Developer Portal ({TOKEN_HELP})") from None
    except discord.PrivilegedIntentsRequired:
        raise SettingsError(
            "Discord refused the Message Content intent: switch it on in the Developer Portal "
            "(your application > Bot > Privileged Gateway Intents > Message Content Intent)"
        ) from None
    except discord.ConnectionClosed as exc:
        if exc.code == 4004:  # the gateway's "authentication failed"
            raise SettingsError(f"Discord rejected the bot token ({TOKEN_HELP})") from None
        raise


@contextlib.asynccontextmanager
async def open_sender(settings: Settings, timeout: float = 60.0) -> AsyncIterator[DiscordSender]:
    """A DiscordSender on a connected client, for delivering the outbox (DMs need a ready client).

    Login problems raise :class:`SettingsError` with one line, as in ``run_discord``.
    """
    adapter = DiscordAdapter(None, settings)
    ready = asyncio.Event()
    runner = asyncio.create_task(run_discord(None, settings, adapter=adapter, on_ready=lambda sender: ready.set()))
    waiter = asyncio.create_task(ready.wait())
    try:
        await asyncio.wait([runner, waiter], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if runner.done():
            runner.result()  # raises the one-line login error
        if not ready.is_set():
            raise SettingsError(f"discord: not connected after {timeout:.0f}s")
        yield adapter.sender
    finally:
        waiter.cancel()
        runner.cancel()
        await asyncio.gather(runner, waiter, return_exceptions=True)


async def sync_commands(settings: Settings, guild_id: int | None = None) -> list[str]:
    """Register the slash commands with Discord once; the names synced."""
    import discord

    token = _token(settings)
    adapter = DiscordAdapter(None, settings)

    async def no_check() -> None:  # the start-up check would only warn about what we are fixing
        return None

    adapter.client.setup_hook = no_check
    try:
        async with adapter.client:
            await adapter.client.login(token)  # HTTP only: no gateway connection needed
            guild = discord.Object(id=guild_id) if guild_id else None
            if guild is not None:
                adapter.tree.copy_global_to(guild=guild)
            synced = await adapter.tree.sync(guild=guild)
    except discord.LoginFailure:
        raise SettingsError(f"Discord rejected the bot token: check it on the Bot page of the Developer Portal ({TOKEN_HELP})") from None
    return [command.name for command in synced]


def cmd_discord_sync(args: argparse.Namespace) -> int:
    settings = load_settings(args.config)
    try:
        names = asyncio.run(sync_commands(settings, args.guild))
    except SettingsError:
        raise
    except Exception as exc:  # network trouble, Discord errors: one line, not a traceback
        import discord

        what = f"{exc.status} {exc.text}" if isinstance(exc, discord.HTTPException) else f"{exc.__class__.__name__}: {exc}"
        print(f"schoolbot: could not sync the Discord slash commands: {what}", file=sys.stderr)
        return 1
    where = f"server {args.guild}" if args.guild else "all servers (may take a few minutes to appear)"
    print(f"synced {len(names)} slash commands for {where}: /" + ", /".join(names))
    return 0
