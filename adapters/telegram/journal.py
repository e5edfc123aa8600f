"""The update journal: which Telegram updates arrived and which were handled (table ``telegram_updates``).

Long polling needs only the "handled" half: an update is confirmed to
Telegram (by the next offset) after it was handled, and one handled before a
crash but served again is skipped. A webhook is answered with HTTP 200, after
which Telegram forgets the update, so the webhook journals it first
(:meth:`UpdateJournal.receive`, with its JSON) and answers 200 only then; an
update journalled but not yet handled when the process dies is handled at the
next start (:meth:`UpdateJournal.unhandled`).

A set of ids rather than a single "last id": Telegram picks update ids at
random again after a week without updates. The newest ``keep`` handled ids
are kept, far more than the 100 a getUpdates batch can serve again.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from knowledge.store import Store


class UpdateJournal:
    """One bot's update ids in the store's database (``store.telegram_updates``)."""

    def __init__(self, store: Store, bot_key: str, keep: int = 10_000):
        self.store = store
        self.rows = store.telegram_updates
        self.bot_key = bot_key
        self.keep = keep
        self._marks = 0

    def seen(self, update_id: int) -> bool:
        """Was this update handled already?"""
        return self.rows.handled(self.bot_key, update_id)

    def receive(self, update_id: int, payload: dict) -> bool:
        """Journal an update before acknowledging it. False when it was handled already."""
        # ASCII JSON: even a lone surrogate is storable
        return self.rows.receive(self.bot_key, update_id, json.dumps(payload), _now())

    def mark(self, update_id: int) -> None:
        """Record the update as handled (its journalled JSON is no longer needed); every 500 marks, only the
        newest `keep` handled ids are kept."""
        prune = (self._marks + 1) % 500 == 0
        self.rows.mark(self.bot_key, update_id, _now(), self.keep if prune else None)
        self._marks += 1

    def unhandled(self) -> list[dict]:
        """The journalled updates not handled yet, oldest first (their JSON, as Telegram sent it)."""
        return [json.loads(payload) for payload in self.rows.unhandled(self.bot_key)]


def _now() -> str:
    return datetime.now(UTC).isoformat()
