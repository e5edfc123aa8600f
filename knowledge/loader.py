"""Loading config files into a store: explicit (`schoolbot kb load`) or the default on first use."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

from knowledge.loading import load_boards, load_knowledge
from knowledge.model import KnowledgeFile
from knowledge.reading import LoadError, read_bytes
from knowledge.region_store import SHIPPED, default_region_id, put_region, region_origin, stored_regions
from knowledge.regions import Region, load_region, region_key
from knowledge.store import Store


def _digest(*paths: str | Path) -> str:
    """The files' contents (not their paths: a reinstall elsewhere is no upgrade)."""
    h = hashlib.sha256()
    for path in paths:
        h.update(read_bytes(path))
        h.update(b"\0")
    return h.hexdigest()


def load_boards_file(store: Store, path: str | Path) -> int:
    """A boards-only file: the boards of the default region (the shipped one); other regions' boards stay."""
    boards = load_boards(path)
    store.replace_boards(boards, default_region_id(store.conn))
    return len(boards)


def load_region_file(store: Store, path: str | Path) -> tuple[Region, int]:
    """Validate a region file, then store it and make its boards that region's (raises LoadError)."""
    region, boards = load_region(path)
    try:
        put_region(store, region, boards, origin=str(Path(path).resolve()),
                   default=not default_region_id(store.conn))
    except ValueError as exc:
        raise LoadError(str(path), [str(exc)]) from None
    return region, len(boards)


def load_knowledge_file(store: Store, path: str | Path) -> dict[str, int]:
    """Validate a pack file against the store's boards, then replace that pack's file-loaded entries. Idempotent."""
    return store.load_file(validate_knowledge_file(store, path))


def validate_knowledge_file(store: Store, path: str | Path) -> KnowledgeFile:
    """Check a pack file without loading it (raises LoadError; the result holds its warnings), against the
    boards of every stored region (a pack may be loaded before it is used); a region it names that is not
    stored is a warning."""
    kfile = load_knowledge(path, store.board_ids())
    named = getattr(kfile.pack, "region", "")
    regions = stored_regions(store.conn)
    if named and regions and region_key(named) not in regions:
        default = default_region_id(store.conn)
        warning = (f"pack: region {named!r} is not loaded (load its region file first: schoolbot kb load "
                   f"REGION.yaml); until then the pack is in the default region {default!r}")
        kfile = replace(kfile, warnings=(*kfile.warnings, warning))
    return kfile


def ensure_default_knowledge(store: Store, region_path: str | Path, knowledge_path: str | Path) -> bool:
    """Load the shipped region, and the default pack into a database that has no pack at all.

    Returns True when something was (re)loaded. The shipped region is loaded when the database lacks it,
    or again when the shipped file changed (an upgrade) and the stored copy is still the shipped one: a
    region an operator loaded from a file of their own stays. A database with packs gets the default pack
    again only when it already holds that pack and the shipped file changed: never over a pack staff
    chose. Staff-made entries stay.
    """
    digest = _digest(region_path, knowledge_path)
    row = store.conn.execute("SELECT value FROM meta WHERE key = 'default_digest'").fetchone()
    if row is not None and row[0] == digest and not store.is_empty():
        return False
    region, boards = load_region(region_path)
    kfile = load_knowledge(knowledge_path, [b.id for b in boards])
    have = {p["id"] for p in store.packs()}
    # Both files are validated before either is written.
    with store.transaction():
        if region_origin(store.conn, region.id) in (None, SHIPPED):
            default = default_region_id(store.conn)
            put_region(store, region, boards, origin=SHIPPED, default=default in ("", region.id))
        if not have or kfile.pack.id in have:
            store.load_file(kfile)
        store.db["meta"].upsert({"key": "default_digest", "value": digest}, pk="key")
    return True
