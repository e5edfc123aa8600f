"""Which language to answer a user in, and the commands about it (/language, /langue, /whoami).

An explicit choice ("parlez-vous français?", /language fr) wins, then the
message's own language when it says clearly (one word is enough for a user we
know no language of yet), then the language remembered in the user's context,
then the platform's (Telegram's language_code, Discord's locale), then the region's first language.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from bot import conversation, language
from bot.commands import FRENCH_NAMES
from bot.conversation import Context
from bot.messages import Incoming, Reply
from bot.replies import say
from bot.text import normalize

if TYPE_CHECKING:
    from bot.core import Bot

_NAMES_A_LANGUAGE = re.compile(r"fran[cç]|french|engl|angl", re.IGNORECASE)
LANGUAGE_NAMES = {"en": "en", "english": "en", "anglais": "en", "fr": "fr", "french": "fr", "francais": "fr",
                  "français": "fr"}


def choose(text: str, context: Context, platform_language: str, default: str = "en") -> tuple[str, bool]:
    """The reply's language, and whether the message only asked for one.

    A clear message language is remembered in `context` for the next turns. `default`: the region's first
    language, for a message that does not say ("Laval?", /start) from a user of no known language.
    """
    asked = language_request(text)
    if asked is not None:
        return asked, True
    remembered = context.language if context.language in language.LANGUAGES else None
    words = text.lstrip().partition(" ")[2] if text.lstrip().startswith("/") else text  # "/help" is no English
    # A French command name (/aide, /conseil cepeo) is as clear as a French sentence.
    said = "fr" if _command_name(text) in FRENCH_NAMES else _detect(words, 2 if remembered else 1)
    if said is not None:
        context.language = said
        return said, False
    return remembered or language.from_locale(platform_language) or default, False


_COMMAND_NAME = re.compile(r"\s*/([a-z_]+)")


def _command_name(text: str) -> str | None:
    """'desabonner' for '/désabonner@schoolbot'; None when the message is no command."""
    head = text[:40]
    if "/" not in head and head.isascii():  # normalising ASCII text makes no "/": no command, nothing to normalise
        return None
    found = _COMMAND_NAME.match(normalize(text, 40))
    return found.group(1) if found else None


@lru_cache(maxsize=16384)  # pure, and asked of every message
def language_request(text: str) -> str | None:
    """'fr' / 'en' when the whole message asks for a language (only messages naming one are read)."""
    if len(text) > 80 or _NAMES_A_LANGUAGE.search(text) is None:
        return None
    return conversation.language_request(normalize(text, 200))


@lru_cache(maxsize=16384)
def _detect(text: str, min_votes: int) -> str | None:
    return language.detect(text, min_votes)


def whoami_command(bot: Bot, msg: Incoming, argument: str) -> list[Reply]:
    text = say("whoami", bot.language_of(msg), platform=msg.platform, user_id=msg.user_id)
    return [Reply(text, msg.chat_id, private=True)]


def language_command(bot: Bot, msg: Incoming, argument: str) -> list[Reply]:
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


# The commands every user has (the staff tools add theirs to Bot.commands).
COMMANDS = {"whoami": whoami_command, "language": language_command, "langue": language_command}
