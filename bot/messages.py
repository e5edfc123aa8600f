"""The plain message types that cross the line between adapters and the core.

Adapters turn a platform message into an :class:`Incoming`, pass it to
:meth:`bot.core.Bot.handle`, and deliver the :class:`Reply` objects it returns.
Nothing here knows about Telegram or Discord.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol


class ChatKind(enum.StrEnum):
    PRIVATE = "private"  # a one-to-one chat or DM with the bot
    GROUP = "group"  # a group, supergroup or server channel
    CHANNEL = "channel"  # a broadcast channel (the bot never answers there)


@dataclass(frozen=True, slots=True)
class Incoming:
    """One message from a user, as every platform is reduced to."""

    platform: str  # "telegram", "discord", "console", "cli", ...
    chat_id: str  # where replies go
    user_id: str  # the platform's stable user id: the only thing rights are granted to
    text: str
    time: datetime  # when it was sent (timezone-aware); answers use it as "now"
    chat_kind: ChatKind = ChatKind.PRIVATE
    addressed: bool = True  # in a group: the bot was mentioned, replied to or commanded
    user_name: str = ""  # for display only, never for authorisation
    group_admin: bool = False  # the platform says this user administers this group
    language: str = ""  # the platform's language for this user ("fr", "en-US"...): a first guess only
    buttons: bool = False  # the platform shows an offered choice as buttons (Telegram, Discord)


@dataclass(frozen=True, slots=True)
class Reply:
    """One plain-text reply. Adapters split it at their platform's limit."""

    text: str
    chat_id: str
    private: bool = False  # concerns only the asker (Discord sends it ephemeral)
    meta: dict = field(default_factory=dict, compare=False)  # intent, board, date, confidence


class SendStatus(enum.StrEnum):
    SENT = "sent"
    BLOCKED = "blocked"  # the recipient blocked the bot or closed DMs: stop sending to them
    RETRY = "retry"  # transient (rate limit, network): try again after `retry_after`
    FAILED = "failed"  # permanent for this message (bad chat id, message rejected)


@dataclass(frozen=True, slots=True)
class SendOutcome:
    status: SendStatus
    retry_after: float = 0.0
    detail: str = ""


@dataclass(frozen=True, slots=True)
class SendLimits:
    """How fast a platform lets one bot send; each platform's sender declares its own."""

    per_second: float = 0.0  # overall sends per second; 0 = no limit (the library paces itself)
    per_chat_interval: float = 0.0  # seconds between two messages to one chat
    group_per_minute: int = 0  # messages per minute to one group; 0 = no limit
    max_chars: int = 4096  # longest message the platform accepts; longer text is split


class Sender(Protocol):
    """What a platform adapter offers the broadcast worker: send plain text to a chat."""

    platform: str
    limits: SendLimits

    async def send_text(self, chat_id: str, text: str) -> SendOutcome: ...
