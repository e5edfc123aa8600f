"""From python-telegram-bot's ``Update`` to the core's :class:`~bot.messages.Incoming`, and nothing else.

No network and no decisions about answers: whether a group message is for the
bot (command, mention, reply to it) is read from the message; whether the
sender must be a group admin is the core's question
(:meth:`bot.core.Bot.needs_group_admin`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from telegram import Message, Update
from telegram.constants import ChatMemberStatus, ChatType

from bot.commands import parse
from bot.messages import ChatKind, Incoming

PLATFORM = "telegram"
# Messages with no text that a person sent on purpose: in a private chat they get a short hint.
USER_CONTENT = ("sticker", "photo", "voice", "video", "video_note", "animation", "audio", "document",
                "location", "contact", "dice", "poll", "venue")
GONE = (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT)


@dataclass(frozen=True)
class Identity:
    """Who the bot is on Telegram (from getMe): what "addressed to us" means."""

    bot_id: int
    username: str
    mention: re.Pattern | None = field(default=None, compare=False)

    @classmethod
    def of(cls, bot_id: int, username: str) -> Identity:
        mention = re.compile(rf"(?<![\w@])@{re.escape(username)}\b", re.I) if username else None
        return cls(bot_id, username or "", mention)


def to_incoming(message: Message, me: Identity) -> Incoming | None:
    """The Incoming for a message, or None when nobody should be answered (channels, bots, service messages)."""
    chat = message.chat
    if chat.type == ChatType.CHANNEL:
        return None
    user, sender_chat = message.from_user, message.sender_chat
    if user is None and sender_chat is None:
        return None
    if sender_chat is None and user.is_bot:
        return None  # another bot
    text = message.text if message.text is not None else (message.caption or "")
    if not text and not any(getattr(message, kind, None) for kind in USER_CONTENT):
        return None  # a service message (member joined, pinned message, ...)
    if chat.type == ChatType.PRIVATE:
        kind = ChatKind.PRIVATE
        addressed, text = True, strip_address(text, me)[1]
    else:
        kind = ChatKind.GROUP
        addressed, text = is_addressed(message, text, me)
    if sender_chat is not None:  # an anonymous group admin or a linked channel speaking
        user_id, name, language = str(sender_chat.id), sender_chat.title or "", ""
    else:
        # the language of the user's Telegram app ("fr", "en"): a first guess only
        user_id, name, language = str(user.id), user.full_name, user.language_code or ""
    return Incoming(PLATFORM, str(chat.id), user_id, text, message.date, kind, addressed, name, language=language,
                    buttons=True)


def strip_address(text: str, me: Identity) -> tuple[bool, str]:
    """(mentioned us?, text without '@us' in commands and mentions)."""
    mentioned = False
    command = parse(text)
    if command is not None and command.addressee and command.addressee.lower() == me.username.lower():
        text = command.unaddressed(text)
    if me.mention is not None:
        text, count = me.mention.subn(" ", text)
        if count:
            mentioned = True
            text = re.sub(r"[ \t]+", " ", text)
            text = re.sub(r" ([,.!?;:])", r"\1", text).strip().lstrip(",:;- ").strip()
    return mentioned, text


def is_addressed(message: Message, text: str, me: Identity) -> tuple[bool, str]:
    """In a group: is the message for us (command, mention, reply to us)? And its text without '@us'."""
    command = parse(text)
    if command is not None and command.addressee and command.addressee.lower() != me.username.lower():
        return False, text  # /command@another_bot
    mentioned, text = strip_address(text, me)
    replied = message.reply_to_message
    to_us = bool(replied and replied.from_user and replied.from_user.id == me.bot_id)
    return command is not None or mentioned or to_us, text


def chat_left(update: Update) -> str | None:
    """The chat the bot was removed from or blocked in, if that is what this update says."""
    change = update.my_chat_member
    if change is not None and change.new_chat_member.status in GONE:
        return str(change.chat.id)
    return None


def chat_migrated(update: Update) -> tuple[str, str] | None:
    """(old id, new id) when this update says a group became a supergroup."""
    message = update.message
    if message is not None and message.migrate_to_chat_id:
        return str(message.chat.id), str(message.migrate_to_chat_id)
    return None


def chat_key(update: Update) -> object:
    """What orders updates: one chat's updates are handled in order, different chats in parallel."""
    chat = update.effective_chat
    return chat.id if chat is not None else ("update", update.update_id)


def update_kind(update: Update) -> str:
    for name in ("edited_message", "channel_post", "edited_channel_post", "callback_query", "inline_query"):
        if getattr(update, name, None) is not None:
            return name
    return "other"
