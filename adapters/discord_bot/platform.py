"""Discord in the platform registry (adapters/platforms.py): its name, limits, runner and sender.

Importing this module imports no part of discord.py: the runner and the sender
import the package's modules when they are called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adapters.platform import Platform

if TYPE_CHECKING:  # pragma: no cover
    import asyncio
    from collections.abc import Callable

    from bot.core import Bot
    from bot.messages import Sender, SendLimits
    from bot.settings import Settings

PLATFORM = "discord"  # adapters/discord_bot/convert.py's platform, which imports the library


def limits(settings: Settings | None = None) -> SendLimits:
    """Discord's limits as its sender declares them (discord.py paces its own requests; the sender paces DMs)."""
    from adapters.discord_bot.sender import DiscordSender

    return DiscordSender.limits


def run(bot: Bot, settings: Settings, stop: asyncio.Event, on_ready: Callable[[Sender], None]):
    from adapters.discord_bot.runner import run_discord

    return run_discord(bot, settings, on_ready=on_ready)


def open_sender(settings: Settings):
    from adapters.discord_bot.runner import open_sender as opened

    return opened(settings)


def private_chat(user_id: str) -> str:
    from adapters.discord_bot.convert import dm_chat_id

    return dm_chat_id(int(user_id))


DISCORD = Platform(
    name=PLATFORM, title="Discord", section="discord",
    chat_ids="dm:USER_ID for a direct message, channel:CHANNEL_ID for a server's channel",
    limits=limits, run=run, open_sender=open_sender, private_chat=private_chat,
)
