"""The reply queue: every reply to a user is a row (table ``replies``) from the moment it is computed until it is sent.

An adapter computes the replies to an update and writes them here, in the same
transaction as it marks the update handled (:meth:`ReplyQueue.add` with
``also``), so a kill at any moment leaves either the update unhandled (it is
handled again) or its replies queued (they are sent at the next start), never
both and never neither. :class:`bot.reply_lanes.ReplyLanes` sends them, per
chat and in order; a sent reply's row is deleted, one that cannot be delivered
stays as ``failed`` or ``blocked`` with what went wrong, for staff
(``schoolbot deliveries``).

When the database refuses writes (a read-only disk), the replies are not
lost: they are sent from memory (:attr:`Outgoing.id` None) and the store's
:class:`~knowledge.records.WriteTrouble` says so once.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from knowledge.store import Store, utcnow

FINAL = ("failed", "blocked")


@dataclass(slots=True)
class Outgoing:
    """One message to send: its text (already split at the platform's limit) and the platform's parameters."""

    chat_id: str
    text: str
    extra: dict = field(default_factory=dict)  # e.g. Telegram's reply_markup, reply_parameters, message_thread_id
    id: int | None = None  # its row; None while it is held in memory only
    attempts: int = 0
    created: float = field(default_factory=time.time)


class ReplyQueue:
    """One platform account's replies in the store's database."""

    def __init__(self, store: Store, platform: str, account: str):
        self.store = store
        self.platform = platform
        self.account = account

    def add(self, items: list[Outgoing], also: Callable[[], object] | None = None) -> None:
        """Write the replies (and run `also`, e.g. the journal's mark) in one transaction; sets each item's id.

        Raises what the database raises: the caller decides (the lanes send from memory when it refuses writes)."""
        ids = self.store.replies.add(
            self.platform, self.account,
            [(item.chat_id, item.text, json.dumps(item.extra) if item.extra else None, item.created) for item in items],
            also)
        for item, row_id in zip(items, ids, strict=True):
            item.id = row_id
        self.store.trouble.written()

    def waiting(self) -> list[Outgoing]:
        """The replies not sent yet, oldest first (those a stopped or killed process left)."""
        return [Outgoing(chat, text, json.loads(extra) if extra else {}, row_id, attempts, created)
                for row_id, chat, text, extra, attempts, created in self.store.replies.waiting(self.platform, self.account)]

    def sent(self, item: Outgoing) -> None:
        if item.id is not None:
            self.store.replies.sent(item.id)

    def tried(self, item: Outgoing, detail: str) -> None:
        """A try that will be repeated: its count and what went wrong, for staff."""
        if item.id is not None:
            self.store.replies.tried(item.id, item.attempts, detail[:500])

    def settle(self, items: list[Outgoing], state: str, detail: str) -> None:
        """Replies that will not be sent: kept as `failed` or `blocked`, with why."""
        assert state in FINAL
        ids = [(state, detail[:500], item.attempts, utcnow().isoformat(), item.id) for item in items if item.id is not None]
        if ids:
            self.store.replies.settle(ids)


def reply_counts(store: Store) -> dict[str, dict[str, int]]:
    """platform -> state -> count of the replies not sent (pending: still being tried; failed, blocked: given up)."""
    return store.replies.counts()


def failed_replies(store: Store, limit: int = 10) -> list[tuple]:
    """(platform, chat, state, attempts, detail, done_at) of the newest replies given up on."""
    return store.replies.given_up(limit)
