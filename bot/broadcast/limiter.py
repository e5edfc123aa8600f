"""Pacing one platform's sends under the limits its sender declares (:class:`bot.messages.SendLimits`)."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

from bot.messages import SendLimits


class RateLimiter:
    """Spaces sends evenly at `per_second`, keeps per-chat and per-group gaps, and pauses on 429."""

    def __init__(self, limits: SendLimits, clock: Callable[[], float] = time.monotonic):
        self.limits = limits
        self.interval = 1.0 / limits.per_second if limits.per_second > 0 else 0.0
        self.clock = clock
        self.next_slot = 0.0
        self.paused_until = 0.0
        self.last_chat: dict[str, float] = {}
        self.group_sends: dict[str, deque] = {}
        self._pruned = 0.0

    def pause(self, seconds: float) -> None:
        self.paused_until = max(self.paused_until, self.clock() + seconds)

    async def slot(self) -> None:
        """Wait for this send's turn under the overall rate and any pause."""
        while True:
            now = self.clock()
            at = max(now, self.paused_until)
            if self.interval:
                at = max(at, self.next_slot)
                self.next_slot = at + self.interval
            if at > now:
                await asyncio.sleep(at - now)
            if self.clock() >= self.paused_until:
                return

    def chat_wait(self, chat_id: str, group: bool) -> float:
        """Seconds until this chat may get another message (0 = now)."""
        now = self.clock()
        wait = 0.0
        if self.limits.per_chat_interval:
            last = self.last_chat.get(chat_id)
            if last is not None:
                wait = max(wait, last + self.limits.per_chat_interval - now)
        if group and self.limits.group_per_minute:
            sends = self.group_sends.get(chat_id)
            if sends:
                while sends and sends[0] <= now - 60:
                    sends.popleft()
                if len(sends) >= self.limits.group_per_minute:
                    wait = max(wait, sends[0] + 60 - now)
        return max(0.0, wait)

    def note_send(self, chat_id: str, group: bool, delay: float = 0.0) -> None:
        """Reserve this chat's turn (now, or after `delay` seconds)."""
        now = self.clock() + delay
        if self.limits.per_chat_interval:
            self.last_chat[chat_id] = now
        if group and self.limits.group_per_minute:
            self.group_sends.setdefault(chat_id, deque()).append(now)
        if now - self._pruned > 10:
            self._prune(now)

    def _prune(self, now: float) -> None:
        self._pruned = now
        horizon = now - max(self.limits.per_chat_interval, 1.0)
        self.last_chat = {c: t for c, t in self.last_chat.items() if t > horizon}
        self.group_sends = {c: d for c, d in self.group_sends.items() if d and d[-1] > now - 60}
