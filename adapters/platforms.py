"""The platform registry: every platform the bot runs on, declared once.

Each platform package exports one :class:`~adapters.platform.Platform`; `PLATFORMS` lists them.
`schoolbot serve` (its flags and its runners), `schoolbot deliver` (its --platform
choices and its senders), `broadcast --deliver` and the messages that name the
tokens loop over this registry; none of them names a platform. Adding a platform
is one package and one line in `PLATFORMS` (docs/architecture.md, "A platform").

Importing this module imports no platform library: a Platform's functions import
their package's modules when they are called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adapters.console import CONSOLE
from adapters.discord_bot.platform import DISCORD
from adapters.platform import Platform
from adapters.telegram.platform import TELEGRAM

if TYPE_CHECKING:  # pragma: no cover
    from bot.settings import Settings

PLATFORMS: tuple[Platform, ...] = (TELEGRAM, DISCORD, CONSOLE)


def served() -> list[Platform]:
    """The platforms `schoolbot serve` runs (a flag each)."""
    return [p for p in PLATFORMS if p.run is not None]


def deliverable() -> list[Platform]:
    """The platforms `schoolbot deliver` can open a Sender for."""
    return [p for p in PLATFORMS if p.open_sender is not None]


def configured(settings: Settings) -> list[Platform]:
    """The platforms that can connect with these settings, in registry order."""
    return [p for p in deliverable() if p.configured(settings)]


def named(name: str) -> Platform:
    return next(p for p in PLATFORMS if p.name == name)


def private_chat(platform: str, user_id: str) -> str:
    """A user's private chat with the bot on a platform, as a chat id ("dm:42" on Discord; else the user's id)."""
    found = next((p for p in PLATFORMS if p.name == platform), None)
    return found.private_chat(user_id) if found is not None and found.private_chat is not None else user_id


def later_notes() -> dict[str, str]:
    """Platform name -> where its users see a broadcast no worker delivers (the console: its next session)."""
    return {p.name: p.later for p in PLATFORMS if p.later}


def token_variables() -> list[str]:
    """SCHOOLBOT_TELEGRAM_TOKEN, ...: the environment variables of the platforms that need a token."""
    return [f"SCHOOLBOT_{p.section.upper()}_TOKEN" for p in PLATFORMS if p.section]


def token_keys() -> list[str]:
    """[telegram] token, ...: the settings keys of the platforms that need a token."""
    return [f"[{p.section}] token" for p in PLATFORMS if p.section]
