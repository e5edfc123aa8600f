"""The handlers of the commands every user has that run no intent: /whoami and /language (/langue).

They are named in their declarations in bot/commands.py; the staff tools replace /whoami with one that
also tells a staff member's rights (bot.admin.register).
"""

from __future__ import annotations

from typing import Protocol

from bot.messages import Incoming, Reply
from bot.replies import say


class Host(Protocol):
    """What a command's handler may ask of the bot that runs it (bot.core.Bot is one; the staff tools'
    handlers ask the same)."""

    @property
    def dry_run(self) -> bool:
        """Answer, but change nothing."""

    def language_of(self, msg: Incoming) -> str:
        """The language to answer the user in."""

    def set_language(self, msg: Incoming, lang: str) -> None:
        """Remember the user's language."""


LANGUAGE_NAMES = {"en": "en", "english": "en", "anglais": "en", "fr": "fr", "french": "fr", "francais": "fr",
                  "français": "fr"}


def whoami(bot: Host, msg: Incoming, argument: str) -> list[Reply]:
    """/whoami: the user's id on this platform, to be given a staff role."""
    text = say("whoami", bot.language_of(msg), platform=msg.platform, user_id=msg.user_id)
    return [Reply(text, msg.chat_id, private=True)]


def language(bot: Host, msg: Incoming, argument: str) -> list[Reply]:
    """/language (or /langue): says the user's language; /language fr|en changes it."""
    current = bot.language_of(msg)
    if not argument:
        return [Reply(say("language_current", current), msg.chat_id, private=True)]
    chosen = LANGUAGE_NAMES.get(argument.strip().lower().split()[0])
    if chosen is None:
        return [Reply(say("language_usage", current, given=argument[:40]), msg.chat_id, private=True)]
    if not bot.dry_run:
        bot.set_language(msg, chosen)
    return [Reply(say("language_set", chosen), msg.chat_id, private=True)]
