"""Starting and stopping on Discord: tokens, intents, no network, `schoolbot serve` and `deliver`.

Every failure to start is one line naming the platform and what to do, with
Telegram's exit codes: 2 for a missing token (a settings problem), 1 for a
rejected token or Discord out of reach after the start-up retries.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.discord_bot.runner import DiscordStopped, run_discord
from adapters.errors import PlatformStopped

REPO = Path(__file__).resolve().parents[3]


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on: Discord out of reach."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_missing_token_is_one_clear_error(bot, settings):
    with pytest.raises(DiscordStopped, match=r"^discord: no bot token; set SCHOOLBOT_DISCORD_TOKEN"):
        await run_discord(bot, settings)


async def test_rejected_token_is_one_clear_error(bot, discord_settings, fake, world):
    with pytest.raises(DiscordStopped, match=r"^discord: Discord rejected the bot token"):
        await run_discord(bot, discord_settings.replace("discord", token="wrong"))


async def test_message_content_intent_switched_off_is_one_clear_error(bot, discord_settings, fake, world):
    fake.message_content_enabled = False
    with pytest.raises(DiscordStopped, match="Message Content intent"):
        await asyncio.wait_for(run_discord(bot, discord_settings), 10)


async def test_no_network_retries_then_stops_with_one_line(bot, settings, monkeypatch, caplog):
    import discord

    port = closed_port()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    with caplog.at_level(logging.WARNING, logger="schoolbot.discord"), pytest.raises(DiscordStopped) as stopped:
        await asyncio.wait_for(run_discord(bot, settings.replace("discord", token="t"), startup_attempts=3,
                                           first_wait=0.01), 10)
    message = str(stopped.value)
    assert message.startswith(f"discord: cannot reach Discord at 127.0.0.1:{port}")
    assert "check the network" in message and "\n" not in message
    retries = [r.getMessage() for r in caplog.records if "retrying" in r.getMessage()]
    assert len(retries) == 2  # three attempts, two waits


def _schoolbot(args: list[str], tmp_path: Path, *, token: str | None, port: int | None = None) -> tuple[int, str, str]:
    """`schoolbot ARGS` in a fresh process, discord.py pointed at 127.0.0.1:PORT (closed: no network)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHOOLBOT_")}
    env.update(SCHOOLBOT_DATABASE_PATH=str(tmp_path / "bot.db"), PYTHONPATH=str(REPO))
    if token is not None:
        env["SCHOOLBOT_DISCORD_TOKEN"] = token
    code = (
        "import sys, discord.http, adapters.discord_bot.runner as runner\n"
        f"discord.http.Route.BASE = 'http://127.0.0.1:{port or closed_port()}/api/v10'\n"
        "runner.STARTUP_ATTEMPTS, runner.FIRST_RETRY_WAIT = 2, 0.01\n"
        "from adapters.cli import main\n"
        f"sys.exit(main({args!r}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("command", [["serve", "--discord", "--quiet"], ["deliver", "--platform", "discord", "--once"]])
def test_no_network_is_one_line_and_exit_1(tmp_path, command):
    code, out, err = _schoolbot(command, tmp_path, token="secret-token-value")
    lines = err.strip().splitlines()
    assert code == 1, err
    assert "Traceback" not in err and "secret-token-value" not in err + out
    assert lines[-1].startswith("schoolbot: discord: cannot reach Discord at 127.0.0.1:")
    assert lines[-1].endswith("check the network connection and try again")
    assert all("retrying" in line for line in lines[:-1]) and len(lines) <= 2  # one retry warning at most


@pytest.mark.parametrize("command", [["serve", "--discord"], ["deliver", "--platform", "discord", "--once"]])
def test_missing_token_is_one_line_and_exit_2(tmp_path, command):
    code, _, err = _schoolbot(command, tmp_path, token=None)
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "SCHOOLBOT_DISCORD_TOKEN" in err or "[discord] token" in err


@pytest.mark.parametrize("command", [["serve", "--discord", "--quiet"], ["deliver", "--platform", "discord", "--once"]])
async def test_rejected_token_is_one_line_and_exit_1(fake, tmp_path, command):
    port = int(fake.base_url.rsplit(":", 1)[1])
    code, out, err = await asyncio.to_thread(_schoolbot, command, tmp_path, token="wrong-secret", port=port)
    assert code == 1, err
    assert err.count("\n") == 1 and err.startswith("schoolbot: discord: Discord rejected the bot token")
    assert "wrong-secret" not in err + out


async def test_serve_runs_discord_and_its_sender_delivers_a_broadcast(bot, store, discord_settings, fake, world):
    from adapters import serve
    from bot.broadcast import Outbox

    _, parent, _, _ = world
    store.subscribe("discord", f"dm:{parent.id}", "tdsb", "private", str(parent.id))
    stop = asyncio.Event()
    task = asyncio.create_task(serve.serve(bot, discord_settings, ["discord"], stop=stop))
    await asyncio.wait_for(fake.ready.wait(), 10)
    await fake.send_dm(parent, "is school open monday in peel?")
    sent = await fake.wait_sent(1, timeout=10)
    assert sent[0].content.startswith("Peel DSB, Monday, October 7")

    Outbox(store).create("tdsb", "TDSB: schools are open Monday.", "TDSB: schools are open Monday.", "test:1")
    sent = await fake.wait_for(lambda s: any("schools are open Monday" in m.content for m in s), timeout=20)
    delivered = [m for m in sent if "schools are open Monday" in m.content]
    assert delivered[0].channel_id == fake.dm_channels[parent.id]  # through the DiscordSender, once connected
    stop.set()
    await asyncio.wait_for(task, 20)


async def test_serve_with_a_rejected_discord_token_stops_with_one_line(bot, discord_settings, fake, world):
    from adapters import serve

    with pytest.raises(PlatformStopped, match=r"^discord: Discord rejected the bot token"):
        await asyncio.wait_for(serve.serve(bot, discord_settings.replace("discord", token="wrong"), ["discord"]), 10)


async def test_losing_the_network_once_connected_is_one_log_line_per_attempt(adapter, fake, caplog):
    with caplog.at_level(logging.WARNING, logger="discord"):
        await fake.stop()  # Discord gone: the gateway drops and every reconnect is refused
        for _ in range(200):
            records = [r for r in caplog.records if "reconnecting in" in r.getMessage()]
            if records:
                break
            await asyncio.sleep(0.05)
    assert records, [r.getMessage() for r in caplog.records]
    for record in records:
        assert record.exc_info is None and record.levelno == logging.WARNING
        assert record.getMessage().startswith("discord: connection lost (") and "\n" not in record.getMessage()
    assert not any(r.exc_info for r in caplog.records if r.name.startswith("discord"))
