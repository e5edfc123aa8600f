"""One retry helper: exponential back-off with a cap and jitter, for async calls.

``await retry(call, attempts=5, backoff=Backoff(base=1, cap=30), retry_on=(OSError,))``
calls ``call()`` until it returns, waiting ``backoff.delay(n)`` after the n-th failure;
the last failure is raised. ``Backoff.delay`` alone gives the wait before a later try
(the broadcast worker reschedules deliveries with it; Telegram's polling loop waits by it),
and ``pause`` is the one wait that a stop event cuts short.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Backoff:
    """Waits of base, 2*base, 4*base ... never above cap; jitter spreads each by +-jitter/2 of itself."""

    base: float = 1.0
    cap: float = 300.0
    jitter: float = 0.5  # 0.5: a wait of 4 s becomes 3..5 s

    def delay(self, failures: int) -> float:
        """The wait after the `failures`-th failure in a row (1 for the first)."""
        wait = min(self.cap, self.base * 2 ** max(0, failures - 1))
        if self.jitter:
            wait *= 1 - self.jitter / 2 + random.random() * self.jitter
        return wait


async def retry(
    call: Callable[[], T | Awaitable[T]],
    *,
    attempts: int,
    backoff: Backoff = Backoff(),
    retry_on: type[BaseException] | tuple[type[BaseException], ...] = Exception,
    on_retry: Callable[[int, BaseException, float], None] | None = None,
    stop: asyncio.Event | None = None,
    failed: BaseException | None = None,
) -> T:
    """Call `call` (a function or coroutine function) up to `attempts` times.

    Only exceptions in `retry_on` are retried; others pass through at once.
    `on_retry(failures, exc, wait)` is told before each wait (to log it). When
    `stop` is set during a wait, the last failure is raised without more tries.
    `failed` is a first failure the caller already met trying once itself (that
    try counts): the back-off starts with it.
    """
    if attempts < 1:
        raise ValueError("attempts must be at least 1")
    failures = 0
    exc: BaseException | None = failed
    while True:
        if exc is not None:
            failures += 1
            if failures >= attempts:
                raise exc
            wait = backoff.delay(failures)
            if on_retry is not None:
                on_retry(failures, exc, wait)
            if await pause(wait, stop):
                raise exc
        try:
            result = call()
            if asyncio.iscoroutine(result) or isinstance(result, asyncio.Future):
                result = await result
            return result
        except retry_on as caught:
            exc = caught


async def pause(seconds: float, stop: asyncio.Event | None = None) -> bool:
    """Sleep `seconds`, or less if `stop` is set meanwhile. True when stopped."""
    if stop is None:
        await asyncio.sleep(seconds)
        return False
    try:
        await asyncio.wait_for(stop.wait(), timeout=seconds)
    except TimeoutError:
        pass
    return stop.is_set()
