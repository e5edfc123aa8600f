"""The store's parts for messages going out and coming in: the outbox, the delivery workers' leases,
the replies not sent yet and the Telegram update journal.

A part of :class:`knowledge.store.Store`: each is made (and its module imported) on first use, so
a start that only answers (`schoolbot ask`) pays for none of them.
"""

from __future__ import annotations

import functools
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from knowledge.leases import Leases
    from knowledge.outbox_rows import OutboxRows
    from knowledge.reply_rows import ReplyRows
    from knowledge.telegram_updates import TelegramUpdates


def _part(module: str, name: str) -> functools.cached_property:
    """The store's `name` from knowledge/`module`.py, made on the store at first use and kept."""
    def make(store):
        return getattr(import_module(f"knowledge.{module}"), name)(store)

    return functools.cached_property(make)


class MessageRecords:
    """The parts, each on the store's connection and lock."""

    outbox: OutboxRows = _part("outbox_rows", "OutboxRows")  # broadcasts and their deliveries
    leases: Leases = _part("leases", "Leases")  # which worker delivers each platform's outbox
    replies: ReplyRows = _part("reply_rows", "ReplyRows")  # replies to users not sent yet
    telegram_updates: TelegramUpdates = _part("telegram_updates", "TelegramUpdates")  # updates arrived and handled
