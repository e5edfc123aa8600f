"""The Telegram update journal's rows (table ``telegram_updates``): which updates arrived and which were handled.

A part of :class:`knowledge.store.Store` (``store.telegram_updates``), on its connection and lock;
:class:`adapters.telegram.journal.UpdateJournal` says when an update is journalled and marked.
"""

from __future__ import annotations

RECEIVED, HANDLED = "received", "handled"


class TelegramUpdates:
    """Each bot's update ids (a bot: its key, the bot's Telegram id), with the JSON of those not handled yet."""

    def __init__(self, store):
        self.store = store

    def handled(self, bot: str, update_id: int) -> bool:
        """Was this update handled already?"""
        return self.store.conn.execute(
            "SELECT 1 FROM telegram_updates WHERE bot = ? AND update_id = ? AND state = 'handled'", (bot, update_id),
        ).fetchone() is not None

    def receive(self, bot: str, update_id: int, payload: str, at: str) -> bool:
        """Journal an update's JSON (unless it is journalled already). False when it was handled already."""
        with self.store.transaction(knowledge=False) as conn:
            conn.execute(
                "INSERT OR IGNORE INTO telegram_updates (bot, update_id, handled, state, payload) VALUES (?, ?, ?, ?, ?)",
                (bot, update_id, at, RECEIVED, payload),
            )
            state = conn.execute("SELECT state FROM telegram_updates WHERE bot = ? AND update_id = ?",
                                 (bot, update_id)).fetchone()[0]
        return state != HANDLED

    def mark(self, bot: str, update_id: int, at: str, keep: int | None = None) -> None:
        """Record the update as handled (its JSON is dropped); with `keep`, only the newest `keep` ids of
        this bot stay handled, in the same transaction."""
        with self.store.transaction(knowledge=False) as conn:
            conn.execute(
                "INSERT INTO telegram_updates (bot, update_id, handled, state) VALUES (?, ?, ?, 'handled') "
                "ON CONFLICT (bot, update_id) DO UPDATE SET state = 'handled', payload = NULL, handled = excluded.handled",
                (bot, update_id, at),
            )
            if keep is not None:
                conn.execute(
                    "DELETE FROM telegram_updates WHERE bot = ? AND state = 'handled' AND rowid NOT IN "
                    "(SELECT rowid FROM telegram_updates WHERE bot = ? ORDER BY rowid DESC LIMIT ?)",
                    (bot, bot, keep),
                )

    def unhandled(self, bot: str) -> list[str]:
        """The JSON of the journalled updates not handled yet, oldest first."""
        return [payload for (payload,) in self.store.conn.execute(
            "SELECT payload FROM telegram_updates WHERE bot = ? AND state = 'received' ORDER BY rowid", (bot,))]
