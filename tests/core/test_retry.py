"""bot.retry: one back-off rule and one retry loop for the whole bot."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.retry import Backoff, retry


def test_backoff_doubles_up_to_the_cap_and_jitter_stays_in_its_band():
    exact = Backoff(base=1.0, cap=10.0, jitter=0.0)
    assert [exact.delay(n) for n in range(1, 7)] == [1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    jittered = Backoff(base=4.0, cap=100.0, jitter=0.5)
    assert all(3.0 <= jittered.delay(1) <= 5.0 for _ in range(200))


async def test_retry_retries_only_what_it_is_told_and_raises_the_last_failure():
    calls, told = [], []

    def busy_twice():
        calls.append(1)
        if len(calls) < 3:
            raise sqlite3.OperationalError("database is locked")
        return "ok"

    fast = Backoff(base=0.001, cap=0.001, jitter=0.0)
    assert await retry(busy_twice, attempts=3, backoff=fast, retry_on=sqlite3.Error,
                       on_retry=lambda n, exc, wait: told.append(n)) == "ok"
    assert told == [1, 2]

    async def always_down():
        raise ConnectionError("down")

    with pytest.raises(ConnectionError):
        await retry(always_down, attempts=2, backoff=fast, retry_on=ConnectionError)

    def wrong_kind():
        calls.append(1)
        raise ValueError("not transient")

    calls.clear()
    with pytest.raises(ValueError):
        await retry(wrong_kind, attempts=5, backoff=fast, retry_on=sqlite3.Error)
    assert len(calls) == 1  # not retried


async def test_a_stop_during_the_wait_ends_retrying_at_once():
    stop = asyncio.Event()

    def down():
        stop.set()
        raise ConnectionError("down")

    with pytest.raises(ConnectionError):
        await asyncio.wait_for(retry(down, attempts=5, backoff=Backoff(base=60, jitter=0), stop=stop), 2)


async def test_a_failure_the_caller_met_first_counts_as_the_first_try():
    calls, told = [], []

    def down():
        calls.append(1)
        raise ConnectionError("still down")

    with pytest.raises(ConnectionError):
        await retry(down, attempts=3, backoff=Backoff(base=0.001, jitter=0), retry_on=ConnectionError,
                    on_retry=lambda n, exc, wait: told.append(n), failed=ConnectionError("down"))
    assert len(calls) == 2 and told == [1, 2]  # three tries in all, the caller's included
