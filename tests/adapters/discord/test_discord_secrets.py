"""No token in the logs: an interaction's URL carries its token, and a redirect loop makes aiohttp quote the URL."""

from __future__ import annotations

import asyncio
import logging


async def test_a_redirect_loop_answering_a_slash_command_logs_no_interaction_token(adapter, fake, world, caplog):
    _, parent, _, _ = world
    fake.redirect_interactions = 10 * 2  # the answer loops, and so does the apology after it
    with caplog.at_level(logging.INFO, logger="schoolbot"):
        interaction = await fake.interact(parent, "status", {"board": "tdsb"})
        token = next(t for t, i in fake._tokens.items() if i == interaction)
        for _ in range(500):
            if "could not tell Discord user" in caplog.text:
                break
            await asyncio.sleep(0.01)
    logged = caplog.text
    assert "failed to handle /status" in logged and "TooManyRedirects" in logged  # said, with its traceback ...
    assert token not in logged and f"/interactions/{interaction}/<redacted>/callback" in logged  # ... token hidden
    assert fake.token not in logged
