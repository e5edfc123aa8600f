"""Running the bot on Discord: log in (retrying at start-up), hold the gateway, stop with one line.

Every way of failing to start is a :class:`DiscordStopped` with one line for the
operator (never the token, never a traceback): no token, a rejected token, the
Message Content intent switched off in the Developer Portal, or Discord out of
reach after the start-up retries. ``schoolbot serve`` and ``schoolbot deliver``
print it and exit with status 1, as for Telegram. Once connected, discord.py
reconnects by itself after network trouble.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import aiohttp
import discord

from adapters.discord_bot.client import DiscordAdapter, ReadyCallback
from adapters.discord_bot.sender import DiscordSender
from adapters.errors import PlatformStopped
from adapters.redaction import redact, redacting_logger
from bot.retry import Backoff, retry
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.core import Bot

log = redacting_logger("schoolbot.discord")

TOKEN_HELP = "set SCHOOLBOT_DISCORD_TOKEN or [discord] token in the settings file"
STARTUP_ATTEMPTS = 5  # login attempts before giving up: waits of 1, 2, 4, 8 s between them
FIRST_RETRY_WAIT = 1.0
MAX_BACKOFF = 30.0
_NETWORK = (aiohttp.ClientError, OSError, TimeoutError)


class DiscordStopped(PlatformStopped):
    """The Discord side cannot run: the message is one line for the operator."""


def api_host() -> str:
    """Where discord.py sends its requests ("discord.com" unless pointed elsewhere)."""
    return urlsplit(discord.http.Route.BASE).netloc


def rejected_token() -> DiscordStopped:
    return DiscordStopped(
        f"discord: Discord rejected the bot token; check it on the Bot page of the Developer Portal ({TOKEN_HELP})"
    )


def unreachable(exc: BaseException) -> DiscordStopped:
    reason = redact(f"{exc.__class__.__name__}: {exc}") if str(exc) else exc.__class__.__name__
    return DiscordStopped(f"discord: cannot reach Discord at {api_host()} ({reason}); "
                          "check the network connection and try again")


async def log_in(client: discord.Client, token: str, *, attempts: int | None = None,
                 first_wait: float | None = None) -> None:
    """Log in over HTTP, retrying network trouble and server errors with backoff; DiscordStopped at the end."""
    attempts = attempts or STARTUP_ATTEMPTS
    backoff = Backoff(base=FIRST_RETRY_WAIT if first_wait is None else first_wait, cap=MAX_BACKOFF, jitter=0.0)

    async def attempt() -> None:
        try:
            await client.login(token)
        except discord.LoginFailure:
            raise rejected_token() from None
        except discord.HTTPException as exc:
            if exc.status < 500:
                raise DiscordStopped(f"discord: Discord refused the login: {exc.status} {redact(exc.text)}"[:300]) from None
            await _reset_session(client)
            raise
        except _NETWORK:
            await _reset_session(client)
            raise

    def warn(failures: int, exc: BaseException, wait: float) -> None:
        log.warning("discord: cannot reach Discord at %s (%s); retrying in %.0fs", api_host(), exc.__class__.__name__, wait)

    try:
        await retry(attempt, attempts=attempts, backoff=backoff, retry_on=(*_NETWORK, discord.HTTPException),
                    on_retry=warn)
    except (*_NETWORK, discord.HTTPException) as exc:
        raise unreachable(exc) from None


async def _reset_session(client: discord.Client) -> None:
    """After a failed login: close discord.py's HTTP session so the next attempt opens a fresh one."""
    with contextlib.suppress(Exception):
        await client.http.close()
    client.http.connector = discord.utils.MISSING


async def run_discord(bot: Bot | None, settings: Settings, *, adapter: DiscordAdapter | None = None,
                      on_ready: ReadyCallback | None = None, startup_attempts: int | None = None,
                      first_wait: float | None = None) -> None:
    """Connect to Discord and answer until cancelled or closed (used by ``schoolbot serve``).

    ``on_ready`` is called with the :class:`DiscordSender` once, when first
    connected (for the broadcast worker); ``adapter`` lets the caller build it.
    """
    token = settings.discord.token.strip()
    if not token:
        raise DiscordStopped(f"discord: no bot token; {TOKEN_HELP}")
    adapter = adapter or DiscordAdapter(bot, settings)
    client = adapter.client
    if on_ready is not None:
        adapter.ready_callbacks.append(on_ready)
    try:
        async with client:
            await log_in(client, token, attempts=startup_attempts, first_wait=first_wait)
            await client.connect(reconnect=True)
    except discord.PrivilegedIntentsRequired:
        raise DiscordStopped(
            "discord: Discord refused the Message Content intent: switch it on in the Developer Portal "
            "(your application > Bot > Privileged Gateway Intents > Message Content Intent)"
        ) from None
    except discord.ConnectionClosed as exc:
        if exc.code == 4004:  # the gateway's "authentication failed"
            raise rejected_token() from None
        raise DiscordStopped(f"discord: the gateway closed the connection ({exc.code}: {redact(exc.reason)})") from None


@contextlib.asynccontextmanager
async def open_sender(settings: Settings, timeout: float = 60.0, *, startup_attempts: int | None = None,
                      first_wait: float | None = None) -> AsyncIterator[DiscordSender]:
    """A DiscordSender on a connected client, for delivering the outbox (DMs need a ready client).

    Raises :class:`DiscordStopped` with one line, as :func:`run_discord` does.
    """
    adapter = DiscordAdapter(None, settings, check_commands=False)
    ready = asyncio.Event()
    runner = asyncio.create_task(run_discord(None, settings, adapter=adapter, on_ready=lambda sender: ready.set(),
                                             startup_attempts=startup_attempts, first_wait=first_wait))
    waiter = asyncio.create_task(ready.wait())
    try:
        await asyncio.wait([runner, waiter], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if runner.done():
            runner.result()  # raises the one-line login error
            raise DiscordStopped("discord: the connection ended before it was ready")
        if not ready.is_set():
            raise DiscordStopped(f"discord: not connected to the gateway after {timeout:.0f}s; check the network")
        yield adapter.sender
    finally:
        waiter.cancel()
        runner.cancel()
        await asyncio.gather(runner, waiter, return_exceptions=True)
