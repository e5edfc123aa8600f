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

RECEIVED, HANDLED = "received", "handled"

class UpdateJournal:
    """One bot's update ids in the store's database."""

    def __init__(self, store: Store, bot_key: str, keep: int = 10_000):
        self.store = store
        self.bot_key = bot_key
        self.keep = keep
        self._marks = 0  # the telegram_updates table is made and migrated by knowledge/schema.py

    def seen(self, update_id: int) -> bool:
        """Was this update handled already?"""
        row = self.store.conn.execute(
            "SELECT 1 FROM telegram_updates WHERE bot = ? AND update_id = ? AND state = 'handled'",
            (self.bot_key, update_id),
        ).fetchone()
        return row is not None

    def receive(self, update_id: int, payload: dict) -> bool:
        """Journal an update before acknowledging it. False when it was handled already."""
        with self.store.transaction(knowledge=False) as conn:
            conn.execute(
                "INSERT OR IGNORE INTO telegram_updates (bot, update_id, handled, state, payload) VALUES (?, ?, ?, ?, ?)",
                (self.bot_key, update_id, _now(), RECEIVED, json.dumps(payload)),  # ASCII: even a lone surrogate is storable
            )
            state = conn.execute("SELECT state FROM telegram_updates WHERE bot = ? AND update_id = ?",
                                 (self.bot_key, update_id)).fetchone()[0]
        return state != HANDLED

    def mark(self, update_id: int) -> None:
        """Record the update as handled (its journalled JSON is no longer needed)."""
        with self.store.transaction(knowledge=False) as conn:
            conn.execute(
                "INSERT INTO telegram_updates (bot, update_id, handled, state) VALUES (?, ?, ?, 'handled') "
                "ON CONFLICT (bot, update_id) DO UPDATE SET state = 'handled', payload = NULL, handled = excluded.handled",
                (self.bot_key, update_id, _now()),
            )
            self._marks += 1
            if self._marks % 500 == 0:
                conn.execute(
                    "DELETE FROM telegram_updates WHERE bot = ? AND state = 'handled' AND rowid NOT IN "
                    "(SELECT rowid FROM telegram_updates WHERE bot = ? ORDER BY rowid DESC LIMIT ?)",
                    (self.bot_key, self.bot_key, self.keep),
                )

    def unhandled(self) -> list[dict]:
        """The journalled updates not handled yet, oldest first (their JSON, as Telegram sent it)."""
        rows = self.store.conn.execute(
            "SELECT payload FROM telegram_updates WHERE bot = ? AND state = 'received' ORDER BY rowid", (self.bot_key,)
        ).fetchall()
        return [json.loads(payload) for (payload,) in rows]


def _now() -> str:
    return datetime.now(UTC).isoformat()
