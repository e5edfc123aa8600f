"""Which language to answer a user in (the /language command's handler is in bot/user_commands.py).

An explicit choice ("parlez-vous français?", /language fr) wins, then the
message's own language when it says clearly (one word is enough for a user we
know no language of yet), then the language remembered in the user's context,
then the platform's (Telegram's language_code, Discord's locale), then the region's first language.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bot import conversation, language
from bot.commands import in_french, parse
from bot.conversation import Context
from bot.text import normalize

_NAMES_A_LANGUAGE = re.compile(r"fran[cç]|french|engl|angl", re.IGNORECASE)


def choose(text: str, context: Context, platform_language: str, default: str = "en") -> tuple[str, bool]:
    """The reply's language, and whether the message only asked for one.

    A clear message language is remembered in `context` for the next turns. `default`: the region's first
    language, for a message that does not say ("Laval?", /start) from a user of no known language.
    """
    asked = language_request(text)
    if asked is not None:
        return asked, True
    remembered = context.language if context.language in language.LANGUAGES else None
    command = parse(text)
    words = command.argument if command is not None else text  # "/help" is no English
    # A French command name (/aide, /conseil cepeo) is as clear as a French sentence.
    said = "fr" if in_french(text) else _detect(words, 2 if remembered else 1)
    if said is not None:
        context.language = said
        return said, False
    return remembered or language.from_locale(platform_language) or default, False


@lru_cache(maxsize=16384)  # pure, and asked of every message
def language_request(text: str) -> str | None:
    """'fr' / 'en' when the whole message asks for a language (only messages naming one are read)."""
    if len(text) > 80 or _NAMES_A_LANGUAGE.search(text) is None:
        return None
    return conversation.language_request(normalize(text, 200))


@lru_cache(maxsize=16384)
def _detect(text: str, min_votes: int) -> str | None:
    return language.detect(text, min_votes)
