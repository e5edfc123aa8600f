"""What one platform declares for the registry (adapters/platforms.py): a `Platform`.

A platform package exports one, built from plain functions that import the
package's modules (and its library) only when called, so that reading the
registry, as building the command line does, imports no platform library.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import argparse

    from bot.core import Bot
    from bot.messages import Sender, SendLimits
    from bot.settings import Settings

Runner = Callable[["Bot", "Settings", asyncio.Event, Callable[["Sender"], None]], Awaitable[None]]


@dataclass(frozen=True)
class Platform:
    """One platform, as serve, deliver and the command line see it."""

    name: str  # Incoming.platform, the outbox's platform column, `serve --NAME`, `deliver --platform NAME`
    title: str  # how the help and the messages name it: "Telegram"
    chat_ids: str  # what a chat id looks like on it (the outbox's chat_id column, `schoolbot deliveries`)
    limits: Callable[[Settings], SendLimits]  # how fast and how long it lets one bot send; its Sender carries them
    section: str = ""  # the settings section holding its `token` ("telegram"); "" when it needs none
    # serve: answer on it until `stop` is set, handing `on_ready` its Sender once connected (the broadcast worker's)
    run: Runner | None = None
    graceful: bool = False  # `run` returns by itself once `stop` is set; otherwise serve cancels it
    open_sender: Callable[[Settings], AbstractAsyncContextManager[Sender]] | None = None  # deliver: a connected Sender
    later: str = ""  # a platform whose own sessions deliver its broadcasts (the console): where its users see them
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None  # its own `serve` options
    apply_arguments: Callable[[argparse.Namespace, Settings], Settings] | None = None  # those options into the settings
    loggers: tuple[str, ...] = ()  # its library's loggers: kept from debug level (their debug lines show tokens)
    # a user's private chat with the bot, as a chat id (the web page's reports go there); None: the user's id
    private_chat: Callable[[str], str] | None = None

    def token(self, settings: Settings) -> str:
        """Its token from the settings ("" when it needs none or none is set)."""
        return getattr(settings, self.section).token.strip() if self.section else ""

    def configured(self, settings: Settings) -> bool:
        """Whether it can connect with these settings: its token is set, or it needs none."""
        return not self.section or bool(self.token(settings))
