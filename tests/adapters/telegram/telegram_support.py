"""Helpers shared by the Telegram adapter's tests (fixtures are in conftest.py)."""

from __future__ import annotations

import asyncio
import socket
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
GROUP = -1001234567890
PARENT = 1001


async def answered(fake, update, chat, count=1):
    """Wait for the update to be handled, return the texts sent to the chat."""
    await fake.wait_confirmed(update)
    return await fake.wait_sent(count, chat)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def schoolbot(*args: str, env: dict[str, str], timeout: float = 60) -> tuple[int, str, str]:
    """Run `python -m bot ARGS` in the repository; (exit status, stdout, stderr)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "adapters.cli", *args, cwd=str(REPO), env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    return proc.returncode, out.decode(), err.decode()
