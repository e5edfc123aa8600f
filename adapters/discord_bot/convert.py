"""Discord messages and interactions as the core's :class:`~bot.messages.Incoming`.

Chat ids: ``dm:<user id>`` for direct messages, ``channel:<channel id>`` for
server channels and threads; they are what subscriptions store.

* Direct messages are always addressed to the bot.
* In a server a message is addressed when it mentions the bot (or the bot's own
  role) or replies to one of its messages; the mention is stripped.
* Bots (the bot itself included), webhooks and system messages (joins, pins,
  boosts) are not messages for the core: :func:`message_to_incoming` gives None.
* Whether the author may manage the server (Administrator or Manage Server) is a
  platform fact, passed on as ``Incoming.group_admin``; the core decides what needs it.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.messages import ChatKind, Incoming

PLATFORM = "discord"


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


def manages_server(permissions: Any) -> bool:
    """Administrator or Manage Server: the platform's own notion of a server admin."""
    return bool(permissions.administrator or permissions.manage_guild)


def message_to_incoming(message: discord.Message, me: discord.abc.User | None) -> Incoming | None:
    """The core's view of a Discord message; None for what is not a person writing."""
    author = message.author
    if author.bot or message.webhook_id is not None or (me is not None and author.id == me.id):
        return None
    if message.type not in (discord.MessageType.default, discord.MessageType.reply):
        return None
    text = message.content or ""
    if message.guild is None:
        return Incoming(PLATFORM, dm_chat_id(author.id), str(author.id), text, message.created_at,
                        ChatKind.PRIVATE, True, author.display_name, buttons=True)
    addressed, text = _addressed(message, text, me)
    admin = isinstance(author, discord.Member) and manages_server(author.guild_permissions)
    return Incoming(PLATFORM, channel_chat_id(message.channel.id), str(author.id), text, message.created_at,
                    ChatKind.GROUP, addressed, author.display_name, admin, buttons=True)


def _addressed(message: discord.Message, text: str, me: discord.abc.User | None) -> tuple[bool, str]:
    """Whether a server message is meant for the bot, and its text without the mention."""
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


def interaction_to_incoming(interaction: discord.Interaction, text: str) -> Incoming:
    """A slash command as the text command the core understands, always addressed to the bot.

    Its language is the locale of the user's Discord client ("fr", "en-US"): a first
    guess only. (discord.py gives no author locale for plain messages.)
    """
    user = interaction.user
    language = interaction.locale.value if interaction.locale else ""
    if interaction.guild_id is None:
        return Incoming(PLATFORM, dm_chat_id(user.id), str(user.id), text, interaction.created_at,
                        ChatKind.PRIVATE, True, user.display_name, language=language, buttons=True)
    admin = manages_server(interaction.permissions)
    if isinstance(user, discord.Member) and interaction.guild is not None:
        admin = admin or manages_server(user.guild_permissions)
    return Incoming(PLATFORM, channel_chat_id(interaction.channel_id or 0), str(user.id), text,
                    interaction.created_at, ChatKind.GROUP, True, user.display_name, admin, language=language,
                    buttons=True)


def command_text(name: str, *arguments: str | None) -> str:
    """The text command for the core: "/status tdsb monday". Options become single-line plain text."""
    parts = [f"/{name}"] + [" ".join(arg.split()) for arg in arguments if arg and arg.strip()]
    return " ".join(parts)
