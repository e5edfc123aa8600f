"""Loading config files into a store: explicit (`schoolbot kb load`) or the default on first use."""

from __future__ import annotations

import hashlib
from pathlib import Path

from knowledge.loading import load_boards, load_knowledge
from knowledge.model import KnowledgeFile
from knowledge.reading import read_bytes
from knowledge.store import Store


def _digest(*paths: str | Path) -> str:
    h = hashlib.sha256()
    for path in paths:
        h.update(str(path).encode())
        h.update(read_bytes(path))
    return h.hexdigest()


def load_boards_file(store: Store, path: str | Path) -> int:
    boards = load_boards(path)
    store.replace_boards(boards)
    return len(boards)


def load_knowledge_file(store: Store, path: str | Path) -> dict[str, int]:
    """Validate a pack file against the store's boards, then replace that pack's file-loaded entries. Idempotent."""
    return store.load_file(validate_knowledge_file(store, path))


def validate_knowledge_file(store: Store, path: str | Path) -> KnowledgeFile:
    """Check a pack file without loading it (raises LoadError; the result holds its warnings)."""
    return load_knowledge(path, store.knowledge().boards.keys())


def ensure_default_knowledge(store: Store, boards_path: str | Path, knowledge_path: str | Path) -> bool:
    """Load the shipped boards, and the default pack into a database that has no pack at all.

    Returns True when something was (re)loaded. A database with packs gets the
    default pack again only when it already holds that pack and the shipped file
    changed (an upgrade): never over a pack staff chose. Staff-made entries stay.
    """
    digest = _digest(boards_path, knowledge_path)
    row = store.conn.execute("SELECT value FROM meta WHERE key = 'default_digest'").fetchone()
    if row is not None and row[0] == digest and not store.is_empty():
        return False
    boards = load_boards(boards_path)
    kfile = load_knowledge(knowledge_path, [b.id for b in boards])
    have = {p["id"] for p in store.packs()}
    # Both files are validated before either is written.
    with store.transaction():
        store.replace_boards(boards)
        if not have or kfile.pack.id in have:
            store.load_file(kfile)
        store.db["meta"].upsert({"key": "default_digest", "value": digest}, pk="key")
    return True
