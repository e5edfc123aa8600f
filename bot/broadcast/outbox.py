"""The outbox: a broadcast and one delivery row per recipient, written before anything is sent.

:meth:`Outbox.create` writes them in one transaction, each delivery with its recipient's
language (a private chat's user's remembered language, else the one the chat subscribed in;
English when neither says), so the text each recipient gets is settled before any send. Delivery workers then
``claim`` due rows (``sending``, committed before the send), and ``finish`` or
``reschedule`` each one right after its send; ``recover`` puts the rows a killed
worker left ``sending`` back to ``pending``. The rows are the store's (``store.outbox``,
:mod:`knowledge.outbox_rows`); this class adds what the bot decides: who cannot be reached
later, the sender's report in their language, and ringing this process's workers.
"""

from __future__ import annotations

import time
from datetime import datetime

from bot.broadcast.lease import lease_holders
from bot.broadcast.wakeup import Wakeup
from knowledge.outbox_rows import FINAL_STATES, Finished, Job, Progress
from knowledge.store import Store, utcnow

__all__ = ["FINAL_STATES", "UNDELIVERABLE", "Job", "Outbox", "Progress"]

# Subscribers here cannot receive a message later (`schoolbot ask` answers once and exits).
UNDELIVERABLE = frozenset({"cli"})


def _report(done: Finished) -> str:
    """The report a broadcast's author gets when every recipient's message is settled, in their language."""
    from bot.replies import say

    return say("broadcast_report", done.language, id=done.id, board=done.board, delivered=done.delivered,
               failed=done.failed, blocked=done.blocked, total=done.total)


class Outbox:
    """Broadcasts and their deliveries, in the store's outbox tables (same connection and lock as the store).

    `wakeup`, when given, is rung after each new broadcast so this process's workers start at once.
    """

    def __init__(self, store: Store, wakeup: Wakeup | None = None):
        self.store = store
        self.rows = store.outbox
        self.wakeup = wakeup
        self._texts: dict[tuple[int, str], str] = {}

    def transaction(self):
        """A write transaction that does not mark the knowledge changed (deliveries are not knowledge)."""
        return self.rows.transaction()

    # ------------------------------------------------------------ creating
    def recipients(self, board: str) -> dict[str, int]:
        """Recipients of a broadcast to `board` now, per platform (each chat once)."""
        return self.audience(board)[0]

    def audience(self, board: str) -> tuple[dict[str, int], dict[str, int]]:
        """Recipients of a broadcast to `board` now (each chat once): per platform, and per language."""
        return self.rows.audience(board, UNDELIVERABLE)

    def create(
        self,
        board: str,
        body: str,
        text: str,
        author: str,
        *,
        notify: tuple[str, str] | None = None,
        key: str | None = None,
        at: datetime | None = None,
        text_fr: str | None = None,
        language: str = "en",
    ) -> int:
        """Write a broadcast and its deliveries in one transaction (joining the caller's); returns its id.

        `text` is what English-language recipients get, `text_fr` what French-language ones get
        (None: `text` too); `language` is the author's, in which their report (to `notify`, a
        platform and chat that can be reached later) is written. `key` makes it idempotent (the
        same key returns the first broadcast). Its audit row is the caller's
        (:func:`bot.admin.broadcasting.queue` writes it with the store's audit writer).
        """
        if notify is not None and notify[0] in UNDELIVERABLE:
            notify = None
        broadcast_id = self.rows.create(board, body, text, author, at or utcnow(), notify=notify, key=key,
                                        text_fr=text_fr, language=language, skip=UNDELIVERABLE)
        if self.wakeup is not None:
            self.wakeup.ring()
        return broadcast_id

    # ------------------------------------------------------------- reading
    def progress(self, broadcast_id: int) -> Progress | None:
        return self.rows.progress(broadcast_id)

    def recent(self, limit: int = 10) -> list[Progress]:
        return self.rows.recent(limit)

    def by_platform(self, broadcast_id: int) -> dict[str, dict[str, int]]:
        """platform -> state -> count, for one broadcast's recipient messages."""
        return self.rows.by_platform(broadcast_id)

    def troubled(self, broadcast_id: int, limit: int = 20) -> list[tuple[str, str, str, int, str | None]]:
        """(platform, chat, state, attempts, detail) of one broadcast's rows given up on or being retried."""
        return self.rows.troubled(broadcast_id, limit)

    def text_of(self, broadcast_id: int, language: str = "en") -> str:
        """What a recipient reading `language` gets of a broadcast (its one text when it has no French)."""
        key = (broadcast_id, language)
        text = self._texts.get(key)
        if text is None:
            text = self.rows.text_of(broadcast_id, language)
            if len(self._texts) > 256:
                self._texts.clear()
            self._texts[key] = text
        return text

    def unfinished(self, platform: str) -> int:
        return self.rows.unfinished(platform)

    def next_due(self, platform: str) -> float | None:
        return self.rows.next_due(platform)

    def pending_platforms(self, broadcast_id: int | None = None) -> list[str]:
        """Platforms with rows still to send (of one broadcast, or of any)."""
        return self.rows.pending_platforms(broadcast_id)

    def workers(self) -> list[dict]:
        """Every platform's current delivery worker (see :mod:`bot.broadcast.lease`)."""
        return lease_holders(self.store)

    # ------------------------------------------------------------ delivering
    def claim(self, platform: str, token: str, limit: int, now: float | None = None) -> list[Job]:
        """Mark up to `limit` due rows of this platform as being sent by `token`."""
        return self.rows.claim(platform, token, limit, time.time() if now is None else now)

    def finish(self, job: Job, token: str, state: str, detail: str = "") -> bool:
        """Record a final outcome. Returns False if the row was no longer ours."""
        assert state in FINAL_STATES
        return self.rows.finish(job, token, state, detail, utcnow().isoformat(), _report)

    def reschedule(self, job: Job, token: str, next_at: float, detail: str = "", count_attempt: bool = True) -> bool:
        return self.rows.reschedule(job, token, next_at, detail, count_attempt)

    def release(self, jobs: list[Job], token: str) -> None:
        """Give back rows claimed but never sent (a worker stopping)."""
        self.rows.release(jobs, token)

    def recover(self, platform: str) -> int:
        """Rows left 'sending' by a worker that is gone go back to 'pending' (they may have been sent)."""
        return self.rows.recover(platform)
