"""The one back-off rule of the Telegram adapter: start-up, getUpdates and replies all wait by it.

(The outbox has its own retry schedule in the database; this is for loops that wait in memory.)
"""

from __future__ import annotations

import asyncio

MAX_BACKOFF = 30.0


def backoff(attempt: int, *, base: float = 1.0, cap: float = MAX_BACKOFF) -> float:
    """Seconds to wait before try number `attempt + 1` (0-based): base, 2*base, 4*base, ... at most `cap`."""
    return min(cap, base * 2.0 ** max(0, attempt))


async def pause(seconds: float, stop: asyncio.Event | None = None) -> bool:
    """Sleep `seconds`, or less if `stop` is set meanwhile. Returns True when stopped."""
    if stop is None:
        await asyncio.sleep(seconds)
        return False
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass
    return stop.is_set()
