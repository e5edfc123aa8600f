"""A doorbell from whoever queues a broadcast to the delivery workers of the same process.

The owner (the Bot, for `schoolbot serve`) makes one :class:`Wakeup` and gives it
both to the :class:`~bot.broadcast.outbox.Outbox` that writes broadcasts and to the
workers that deliver them, so a new broadcast starts at once instead of at the next poll.
Ringing is safe from any thread.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # asyncio is imported by the workers that listen, never on the `ask` path
    import asyncio


class Wakeup:
    def __init__(self) -> None:
        self._listeners: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self._lock = threading.Lock()

    def ring(self) -> None:
        """Wake every listening worker (each wakes in its own event loop)."""
        with self._lock:
            listeners = list(self._listeners)
        for loop, event in listeners:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # that loop is closed
                pass

    @contextmanager
    def listening(self, event: asyncio.Event) -> Iterator[asyncio.Event]:
        """While inside, ``ring()`` sets `event` (call from a running event loop)."""
        import asyncio

        entry = (asyncio.get_running_loop(), event)
        with self._lock:
            self._listeners.add(entry)
        try:
            yield event
        finally:
            with self._lock:
                self._listeners.discard(entry)
