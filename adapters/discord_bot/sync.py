"""`schoolbot discord sync`: register the slash commands with Discord, once after install or a change.

The command line (adapters/cli/platforms.py) declares the arguments and calls
:func:`cmd_discord_sync`; discord.py is imported only when it runs.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.settings import Settings, SettingsError, load_settings

TOKEN_HELP = "set SCHOOLBOT_DISCORD_TOKEN or [discord] token in the settings file"


async def sync_commands(settings: Settings, guild_id: int | None = None) -> list[str]:
    """Register the slash commands (with their translations) with Discord; the names synced.

    HTTP only: no gateway connection. Raises DiscordStopped with one line when the
    token is rejected or Discord cannot be reached.
    """
    import discord

    from adapters.discord_bot.client import DiscordAdapter
    from adapters.discord_bot.runner import log_in

    token = settings.discord.token.strip()
    if not token:
        raise SettingsError(f"no Discord bot token: {TOKEN_HELP}")
    adapter = DiscordAdapter(None, settings, check_commands=False)  # the check would only warn about this
    async with adapter.client:
        await log_in(adapter.client, token)
        guild = discord.Object(id=guild_id) if guild_id else None
        if guild is not None:
            adapter.tree.copy_global_to(guild=guild)
        synced = await adapter.tree.sync(guild=guild)
    return [command.name for command in synced]


def cmd_discord_sync(args: argparse.Namespace) -> int:
    from adapters.errors import PlatformStopped

    settings = load_settings(args.config)
    try:
        names = asyncio.run(sync_commands(settings, args.guild))
    except PlatformStopped as exc:
        print(f"schoolbot: {exc}", file=sys.stderr)
        return 1
    except SettingsError:
        raise
    except Exception as exc:  # Discord errors after login: one line, not a traceback
        import discord

        from adapters.redaction import redact

        what = f"{exc.status} {exc.text}" if isinstance(exc, discord.HTTPException) else f"{exc.__class__.__name__}: {exc}"
        print(f"schoolbot: could not sync the Discord slash commands: {redact(what)}", file=sys.stderr)
        return 1
    where = f"server {args.guild}" if args.guild else "all servers (may take a few minutes to appear)"
    print(f"synced {len(names)} slash commands for {where}: /" + ", /".join(names))
    return 0

