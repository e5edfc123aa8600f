"""The outbox's three tables: broadcasts, one delivery row per recipient, and the worker leases."""

from __future__ import annotations

from knowledge.store import Store

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS broadcasts (
        id INTEGER PRIMARY KEY,
        created TEXT NOT NULL,
        board TEXT NOT NULL,              -- a board id or 'all'
        body TEXT NOT NULL,               -- the author's text, verbatim
        text TEXT NOT NULL,               -- exactly what recipients get: header + body
        author TEXT NOT NULL,             -- 'platform:user_id'
        notify_platform TEXT,             -- where the final counts are reported
        notify_chat TEXT,
        key TEXT UNIQUE,                  -- idempotency: one broadcast per confirmation
        state TEXT NOT NULL DEFAULT 'sending',  -- sending | done
        total INTEGER NOT NULL DEFAULT 0,
        delivered INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        blocked INTEGER NOT NULL DEFAULT 0,
        finished TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS deliveries (
        id INTEGER PRIMARY KEY,
        broadcast_id INTEGER NOT NULL REFERENCES broadcasts(id),
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        chat_kind TEXT NOT NULL DEFAULT 'private',
        kind TEXT NOT NULL DEFAULT 'message',   -- message | report (the counts, to the sender)
        text TEXT,                              -- reports only; messages use the broadcast's text
        state TEXT NOT NULL DEFAULT 'pending',  -- pending | sending | sent | failed | blocked
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at REAL NOT NULL DEFAULT 0,        -- unix time before which it is not tried
        claim TEXT,                             -- the worker that marked it sending
        detail TEXT,
        done_at TEXT,
        UNIQUE (broadcast_id, platform, chat_id, kind)
    )""",
    "CREATE INDEX IF NOT EXISTS idx_deliveries_pending ON deliveries(platform, next_at, id) WHERE state = 'pending'",
    "CREATE INDEX IF NOT EXISTS idx_deliveries_sending ON deliveries(platform) WHERE state = 'sending'",
    """CREATE TABLE IF NOT EXISTS delivery_workers (
        platform TEXT PRIMARY KEY,
        token TEXT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        started TEXT NOT NULL,
        heartbeat REAL NOT NULL
    )""",
)


def create_tables(store: Store) -> None:
    """Create the tables that are missing (a read only, when they are all there)."""
    with store.lock:
        have = {r[0] for r in store.conn.execute(
            "SELECT name FROM sqlite_master WHERE name IN ('broadcasts', 'deliveries', 'delivery_workers', "
            "'idx_deliveries_pending', 'idx_deliveries_sending')")}
        if len(have) == 5:
            return
        for statement in SCHEMA:
            store.conn.execute(statement)
