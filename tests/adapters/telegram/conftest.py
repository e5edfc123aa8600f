"""Fixtures for the Telegram adapter's tests: the fake Bot API on 127.0.0.1 and the adapter running against it.

Nothing of ours is mocked: the real core (the root conftest's bot and store,
the shipped knowledge) answers, python-telegram-bot talks HTTP to
tests/fakes/telegram, and the assertions read the recorded Bot API calls.
Messages are dated Thursday 2019-10-03 09:00 in Toronto (the fake's clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys

import pytest
from telegram_support import REPO

from adapters.telegram import run_telegram

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.fakes.telegram import FakeTelegram


@pytest.fixture
async def fake():
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
def tg_settings(settings, fake):
    return settings.replace("telegram", token=fake.token, base_url=fake.base_url)


@pytest.fixture
def running():
    """running(bot, settings, fake, crash=False): the adapter runs while the block runs.

    It stops gracefully at the end, or abruptly (like kill -9: nothing is
    confirmed on the way out) with crash=True.
    """

    @contextlib.asynccontextmanager
    async def run(bot, settings, fake, *, crash: bool = False, poll_timeout: int = 5):
        stop = asyncio.Event()
        ready = asyncio.Event()
        task = asyncio.create_task(run_telegram(bot, settings, stop=stop, on_ready=lambda s: ready.set(),
                                                poll_timeout=poll_timeout))
        waiter = asyncio.ensure_future(ready.wait())
        await asyncio.wait([task, waiter], return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        if task.done():
            task.result()  # raises what stopped it
        try:
            yield {"task": task, "stop": stop}
        finally:
            if crash:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            else:
                stop.set()
                await asyncio.wait_for(task, 10)

    return run


@pytest.fixture
def serve_env(tmp_path, fake):
    """Environment for a `schoolbot` subprocess: its own database, the fake's URL, no token yet."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHOOLBOT_")}
    env.update({
        "SCHOOLBOT_DATABASE_PATH": str(tmp_path / "serve.db"),
        "SCHOOLBOT_TELEGRAM_BASE_URL": fake.base_url,
        "PYTHONPATH": str(REPO),
    })
    return env
