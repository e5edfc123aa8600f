"""Loading config files into a store: explicit (`schoolbot kb load`) or the default on first use."""

from __future__ import annotations

import hashlib
from pathlib import Path

from knowledge.loading import load_boards, load_knowledge
from knowledge.store import Store


def _digest(*paths: str | Path) -> str:
    h = hashlib.sha256()
    for path in paths:
        h.update(str(path).encode())
        h.update(Path(path).read_bytes())
    return h.hexdigest()


def load_boards_file(store: Store, path: str | Path) -> int:
    boards = load_boards(path)
    store.replace_boards(boards)
    return len(boards)


def load_knowledge_file(store: Store, path: str | Path) -> dict[str, int]:
    """Validate a knowledge file against the store's boards, then upsert it. Idempotent."""
    board_ids = store.knowledge().boards.keys()
    kfile = load_knowledge(path, board_ids)
    return store.load_file(kfile)


def ensure_default_knowledge(store: Store, boards_path: str | Path, knowledge_path: str | Path) -> bool:
    """Load the shipped boards and default knowledge when the database lacks them or they changed.

    Returns True when something was (re)loaded. Entries are upserted by id, so
    staff changes made through the bot (their own ids) are kept.
    """
    digest = _digest(boards_path, knowledge_path)
    row = store.conn.execute("SELECT value FROM meta WHERE key = 'default_digest'").fetchone()
    if row is not None and row[0] == digest and not store.is_empty():
        return False
    boards = load_boards(boards_path)
    kfile = load_knowledge(knowledge_path, [b.id for b in boards])
    # Both files are validated before either is written.
    store.replace_boards(boards)
    store.load_file(kfile)
    store.db["meta"].upsert({"key": "default_digest", "value": digest}, pk="key")
    return True
