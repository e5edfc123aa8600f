"""Every table of the database in one place: created at the latest version, migrated from older ones.

* :data:`TABLES` lists each table (and its indexes) as it is now. A module with
  tables of its own adds one more :class:`Table` entry here.
* :data:`MIGRATIONS` lists, in order, what turns a database of version N-1
  into version N. The version is kept in ``meta`` (``schema_version``).
* :func:`migrate` runs in one write transaction: a new file gets every table
  at once; an older one gets its missing migrations, then any missing table.

Version history: 1 the first release (knowledge, users, subscriptions, audit,
question log; admin and roles tables created on first use by their modules);
2 answer cards; 3 admin tables here, audit with the real time and the
actor's name, undo records that can take back role grants, the answer's
confidence in the question log (for /unanswered), a store id; 4 knowledge packs: a `pack`
column on every knowledge table and a `packs` table (header, active set), French texts (`fr`) on
sources, facts, statuses, services and timeline, validity windows on services; 5 the outbox's
tables and the Telegram adapter's update journal, made here instead of by their own modules; 6 the
end of a dispute stated by staff in chat (`pack_ends`); 7 broadcasts in each recipient's language: the
French recipients' text and the author's language on a broadcast, the language of each delivery, the
language a chat subscribed in, and each user's remembered language as a column (it was only inside the
conversation memory); 8 boards' short names (`short`, what replies lead with); 9 regions (a `regions`
table, and the region each board belongs to: empty for boards loaded before, which are the shipped region's);
10 the reply queue (`replies`): each reply to a user, written with its update marked handled and kept until sent;
11 the staff web page's sign-in links and sessions (`web_links`, `web_sessions`: only hashes of their secrets).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    create: str  # CREATE TABLE IF NOT EXISTS ... at the latest version
    indexes: tuple[str, ...] = ()


def _text_table(name: str, columns: str, pk: str) -> str:
    body = ",\n    ".join(f'"{c}" TEXT' for c in columns.split())
    return f'CREATE TABLE IF NOT EXISTS "{name}" (\n    {body},\n    PRIMARY KEY ({pk})\n)'


TABLES: tuple[Table, ...] = (
    # ------------------------------------------------------------ knowledge
    Table("boards", _text_table("boards", "id name system language website aliases municipalities short region",
                                "id")),
    # A region file's header (knowledge.regions); origin: the file it was loaded from, or "shipped".
    Table("regions", 'CREATE TABLE IF NOT EXISTS "regions" ("id" TEXT PRIMARY KEY, "header" TEXT, "origin" TEXT, '
                     '"loaded" TEXT)'),
    Table("packs", 'CREATE TABLE IF NOT EXISTS "packs" ("id" TEXT PRIMARY KEY, "title" TEXT, "header" TEXT, '
                   '"active" INTEGER NOT NULL DEFAULT 0, "origin" TEXT, "loaded" TEXT)'),  # active: 0, or its place
    # Each pack has its own ids: the key of every knowledge table starts with the pack.
    Table("sources", 'CREATE TABLE IF NOT EXISTS "sources" ("file" TEXT, "title" TEXT, '
                     '"published" TEXT, "approximate" INTEGER, "fr" TEXT, "pack" TEXT, PRIMARY KEY (pack, file))'),
    Table("facts", _text_table("facts", "id topic text source published origin fr pack pack_topic", "pack, id")),
    Table("statuses", _text_table(
        "statuses", "id board start until status summary source published author retracted origin fr pack",
        "pack, id")),
    Table("withdrawn_services", _text_table(
        "withdrawn_services", "id workers service phase source published ended author retracted origin fr pack "
                              "start until", "pack, id")),
    Table("timeline", 'CREATE TABLE IF NOT EXISTS "timeline" ("id" TEXT, "kind" TEXT, "day" TEXT, '
                      '"text" TEXT, "source" TEXT, "published" TEXT, "approximate" INTEGER, "author" TEXT, '
                      '"retracted" TEXT, "origin" TEXT, "fr" TEXT, "pack" TEXT, PRIMARY KEY (pack, id))'),
    Table("cards", _text_table(
        "cards", "id topic question answer source published details phrasings boards valid_until replaces fr "
                 "author retracted origin pack pack_topic", "pack, id")),
    # A dispute's end stated in chat (/enddispute); made by staff only, so loading a file never touches it.
    Table("pack_ends", _text_table("pack_ends", "id ended text published author retracted fr origin pack", "pack, id")),
    # ----------------------------------------------------------- the people
    # language: the user's remembered language ("en", "fr"), kept with `pending` (the conversation memory holding it)
    Table("users", _text_table("users", "platform user_id board pending updated language", "platform, user_id")),
    Table("subscriptions", 'CREATE TABLE IF NOT EXISTS "subscriptions" ("platform" TEXT, "chat_id" TEXT, '
                           '"board" TEXT, "chat_kind" TEXT, "user_id" TEXT, "active" INTEGER, "created" TEXT, '
                           '"updated" TEXT, "language" TEXT, PRIMARY KEY (platform, chat_id, board))',
          ("CREATE INDEX IF NOT EXISTS idx_subscriptions_board ON subscriptions(board, active)",)),
    Table("question_log", 'CREATE TABLE IF NOT EXISTS "question_log" ("id" INTEGER PRIMARY KEY, "at" TEXT, '
                          '"day" TEXT, "platform" TEXT, "intent" TEXT, "board" TEXT, "text" TEXT, '
                          '"confidence" REAL)',
          ("CREATE INDEX IF NOT EXISTS idx_question_log_day ON question_log(day, intent)",)),
    # ----------------------------------------------------------------- admin
    Table("audit", 'CREATE TABLE IF NOT EXISTS "audit" ("id" INTEGER PRIMARY KEY, "at" TEXT, "platform" TEXT, '
                   '"user_id" TEXT, "action" TEXT, "target" TEXT, "before" TEXT, "after" TEXT, '
                   '"real_at" TEXT, "name" TEXT)'),
    Table("role_grants", """CREATE TABLE IF NOT EXISTS role_grants (
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,            -- 'province' or 'staff'
    boards TEXT NOT NULL,          -- JSON list of board ids (staff)
    granted_by TEXT NOT NULL,      -- 'platform:user_id'
    at TEXT NOT NULL,
    PRIMARY KEY (platform, user_id)
)"""),
    Table("admin_pending", """CREATE TABLE IF NOT EXISTS admin_pending (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    action TEXT NOT NULL,            -- JSON: what /confirm will do
    created TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',  -- pending | done | cancelled | replaced
    result TEXT,
    done_at TEXT
)""", ("CREATE INDEX IF NOT EXISTS idx_admin_pending_user ON admin_pending(platform, user_id, id)",)),
    Table("admin_changes", """CREATE TABLE IF NOT EXISTS admin_changes (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,              -- status | service | endservice | endphase | event | card | enddispute | grant | revoke
    entry_id TEXT NOT NULL,          -- the knowledge entry, or 'platform:user_id' for roles
    board TEXT NOT NULL,
    summary TEXT NOT NULL,
    undone_at TEXT,
    before TEXT                      -- JSON: what undo puts back (roles)
)"""),
    # ------------------------------------------------------------ broadcasts (bot/broadcast)
    Table("broadcasts", """CREATE TABLE IF NOT EXISTS broadcasts (
        id INTEGER PRIMARY KEY,
        created TEXT NOT NULL,
        board TEXT NOT NULL,              -- a board id or 'all'
        body TEXT NOT NULL,               -- the author's text, verbatim
        text TEXT NOT NULL,               -- exactly what recipients get: header + body (in English)
        text_fr TEXT,                     -- what French-language recipients get (NULL: text)
        language TEXT NOT NULL DEFAULT 'en',  -- the author's: their report is written in it
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
    )"""),
    Table("deliveries", """CREATE TABLE IF NOT EXISTS deliveries (
        id INTEGER PRIMARY KEY,
        broadcast_id INTEGER NOT NULL REFERENCES broadcasts(id),
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        chat_kind TEXT NOT NULL DEFAULT 'private',
        kind TEXT NOT NULL DEFAULT 'message',   -- message | report (the counts, to the sender)
        text TEXT,                              -- reports only; messages use the broadcast's text
        language TEXT NOT NULL DEFAULT 'en',    -- messages: the recipient's, which text of the broadcast
        state TEXT NOT NULL DEFAULT 'pending',  -- pending | sending | sent | failed | blocked
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at REAL NOT NULL DEFAULT 0,        -- unix time before which it is not tried
        claim TEXT,                             -- the worker that marked it sending
        detail TEXT,
        done_at TEXT,
        UNIQUE (broadcast_id, platform, chat_id, kind)
    )""",
          ("CREATE INDEX IF NOT EXISTS idx_deliveries_pending ON deliveries(platform, next_at, id) WHERE state = 'pending'",
           "CREATE INDEX IF NOT EXISTS idx_deliveries_sending ON deliveries(platform) WHERE state = 'sending'")),
    Table("delivery_workers", """CREATE TABLE IF NOT EXISTS delivery_workers (
        platform TEXT PRIMARY KEY,
        token TEXT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        started TEXT NOT NULL,
        heartbeat REAL NOT NULL
    )"""),
    # ------------------------------------------------ the Telegram adapter's update journal
    Table("telegram_updates", "CREATE TABLE IF NOT EXISTS telegram_updates ("
          "bot TEXT NOT NULL, update_id INTEGER NOT NULL, handled TEXT NOT NULL, "  # handled: when last recorded
          "state TEXT NOT NULL DEFAULT 'handled', payload TEXT, PRIMARY KEY (bot, update_id))"),
    # ------------------------------------------------ replies to users (bot/reply_queue.py)
    Table("replies", """CREATE TABLE IF NOT EXISTS replies (
        id INTEGER PRIMARY KEY,                 -- the order of a chat's replies
        platform TEXT NOT NULL,
        account TEXT NOT NULL,                  -- which bot of the platform (Telegram: the bot's id)
        chat_id TEXT NOT NULL,
        text TEXT NOT NULL,                     -- one message, already split at the platform's limit
        extra TEXT,                             -- JSON: the platform's parameters (buttons, reply-to, thread)
        state TEXT NOT NULL DEFAULT 'pending',  -- pending | failed | blocked (a sent reply is deleted)
        attempts INTEGER NOT NULL DEFAULT 0,
        created REAL NOT NULL,                  -- unix time it was queued
        detail TEXT,                            -- the last failure
        done_at TEXT
    )""", ("CREATE INDEX IF NOT EXISTS idx_replies_state ON replies(platform, account, state, id)",)),
    # ------------------------------------------------ the staff web page (knowledge/web_access.py)
    # A one-time sign-in link (/web, `schoolbot web-link`) and a signed-in browser: the SHA-256 of the secret
    # is stored, never the secret, so a copy of the database signs nobody in.
    Table("web_links", """CREATE TABLE IF NOT EXISTS web_links (
        hash TEXT PRIMARY KEY,                  -- SHA-256 (hex) of the link's token
        platform TEXT NOT NULL,
        user_id TEXT NOT NULL,
        created TEXT NOT NULL,                  -- UTC, ISO
        expires TEXT NOT NULL,
        used TEXT                               -- when it opened a session (a link works once)
    )"""),
    Table("web_sessions", """CREATE TABLE IF NOT EXISTS web_sessions (
        hash TEXT PRIMARY KEY,                  -- SHA-256 (hex) of the session cookie
        platform TEXT NOT NULL,
        user_id TEXT NOT NULL,
        csrf TEXT NOT NULL,                     -- the token every form of this session carries
        created TEXT NOT NULL,
        expires TEXT NOT NULL,
        ended TEXT                              -- signed out
    )"""),
    Table("meta", 'CREATE TABLE IF NOT EXISTS "meta" ("key" TEXT PRIMARY KEY, "value" TEXT)'),
)


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')}


def _add_columns(conn: sqlite3.Connection, table: str, columns: dict[str, str]) -> None:
    """Add the columns a table lacks (a table not there yet is created later at its latest shape)."""
    have = _columns(conn, table)
    if not have:
        return
    for name, kind in columns.items():
        if name not in have:
            conn.execute(f'ALTER TABLE "{table}" ADD COLUMN "{name}" {kind}')


def _to_2(conn: sqlite3.Connection) -> None:
    """Answer cards: a new table, made by the catch-up that follows the migrations."""


def _to_3(conn: sqlite3.Connection) -> None:
    _add_columns(conn, "audit", {"real_at": "TEXT", "name": "TEXT"})
    _add_columns(conn, "admin_changes", {"before": "TEXT"})
    _add_columns(conn, "question_log", {"confidence": "REAL"})


KNOWLEDGE_TABLES = ("sources", "facts", "statuses", "withdrawn_services", "timeline", "cards")


def _to_4(conn: sqlite3.Connection) -> None:
    """Packs: what an older database holds becomes one pack, named after the file it was loaded from, active."""
    for table in KNOWLEDGE_TABLES:
        _add_columns(conn, table, {"pack": "TEXT", "fr": "TEXT"})
    _add_columns(conn, "facts", {"pack_topic": "TEXT"})
    _add_columns(conn, "cards", {"pack_topic": "TEXT"})
    _add_columns(conn, "withdrawn_services", {"start": "TEXT", "until": "TEXT"})
    if not _columns(conn, "facts"):
        return
    origins = [row[0] for row in conn.execute(
        "SELECT origin FROM facts WHERE origin != 'staff' UNION ALL SELECT origin FROM statuses WHERE origin != 'staff'")]
    stem = max(set(origins), key=origins.count) if origins else "cupe-2019"
    pack = stem.rsplit("/", 1)[-1].removesuffix(".yaml").removesuffix(".yml")
    shapes = {t.name: t.create for t in TABLES}
    for table in KNOWLEDGE_TABLES:
        if not _columns(conn, table):
            continue  # made at its latest shape by the catch-up
        conn.execute(f'UPDATE "{table}" SET pack = ? WHERE pack IS NULL', (pack,))
        # The key becomes (pack, id): SQLite changes a key only by copying into a new table.
        columns = ", ".join(f'"{c}"' for c in sorted(_columns(conn, table)))
        conn.execute(f'ALTER TABLE "{table}" RENAME TO "{table}_v3"')
        conn.execute(shapes[table])
        conn.execute(f'INSERT INTO "{table}" ({columns}) SELECT {columns} FROM "{table}_v3"')
        conn.execute(f'DROP TABLE "{table}_v3"')
    conn.execute(shapes["packs"])
    title = "2019 CUPE education workers' job action" if pack == "cupe-2019" else pack
    header = json.dumps({"id": pack, "title": title, "phases": [
        {"id": "work_to_rule", "name": "work-to-rule", "name_fr": "grève du zèle"},
        {"id": "full_strike", "name": "full strike", "name_fr": "grève générale"}]}, ensure_ascii=False)
    conn.execute("INSERT OR IGNORE INTO packs (id, title, header, active, origin) VALUES (?, ?, ?, 1, ?)",
                 (pack, title, header, stem))


def _to_5(conn: sqlite3.Connection) -> None:
    """The outbox's and the Telegram journal's tables join this schema; a journal made before the
    webhook journal had only (bot, update_id, handled), and every row of it was handled."""
    _add_columns(conn, "telegram_updates", {"state": "TEXT NOT NULL DEFAULT 'handled'", "payload": "TEXT"})


def _to_6(conn: sqlite3.Connection) -> None:
    """A dispute's end stated in chat: a new table (`pack_ends`), made by the catch-up that follows."""


def _to_7(conn: sqlite3.Connection) -> None:
    """Broadcasts in each recipient's language. Rows already in the outbox stay English (their one text);
    users' remembered languages are copied out of their conversation memory."""
    _add_columns(conn, "broadcasts", {"text_fr": "TEXT", "language": "TEXT NOT NULL DEFAULT 'en'"})
    _add_columns(conn, "deliveries", {"language": "TEXT NOT NULL DEFAULT 'en'"})
    _add_columns(conn, "subscriptions", {"language": "TEXT"})
    _add_columns(conn, "users", {"language": "TEXT"})
    if not _columns(conn, "users"):
        return
    found = []
    for platform, user_id, pending in conn.execute(
            "SELECT platform, user_id, pending FROM users WHERE pending LIKE '%language%'").fetchall():
        try:
            language = json.loads(pending).get("language")
        except (ValueError, AttributeError):
            continue
        if language in ("en", "fr"):
            found.append((language, platform, user_id))
    conn.executemany("UPDATE users SET language = ? WHERE platform = ? AND user_id = ?", found)


def _to_8(conn: sqlite3.Connection) -> None:
    """Boards' short names (boards.yaml `short`): empty until the boards file is loaded again."""
    _add_columns(conn, "boards", {"short": "TEXT"})


def _to_9(conn: sqlite3.Connection) -> None:
    """Regions: each board's region (empty for the boards already there: the shipped region's, named on the
    next start when the shipped region file is loaded)."""
    _add_columns(conn, "boards", {"region": "TEXT"})


def _to_10(conn: sqlite3.Connection) -> None:
    """The reply queue: a new table (`replies`), made by the catch-up that follows."""


def _to_11(conn: sqlite3.Connection) -> None:
    """The staff web page's sign-in links and sessions: new tables, made by the catch-up that follows."""


MIGRATIONS: tuple[tuple[int, str, Callable[[sqlite3.Connection], None]], ...] = (
    (2, "answer cards", _to_2),
    (3, "admin tables in the schema; audit real time and name; undo of role changes", _to_3),
    (4, "knowledge packs, French texts on entries, service windows", _to_4),
    (5, "the outbox and the Telegram update journal in this schema", _to_5),
    (6, "a dispute's end stated in chat", _to_6),
    (7, "broadcasts in each recipient's language", _to_7),
    (8, "boards' short names", _to_8),
    (9, "regions", _to_9),
    (10, "the reply queue", _to_10),
    (11, "the staff web page's sign-in links and sessions", _to_11),
)
VERSION = MIGRATIONS[-1][0]


class SchemaError(RuntimeError):
    """The database was written by a newer schoolbot than this one."""


def version_of(conn: sqlite3.Connection) -> int | None:
    """The schema version of an open database, None for a new (empty) one."""
    if not _columns(conn, "meta"):
        return None
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else 1


def migrate(conn: sqlite3.Connection, path: str = "the database") -> int:
    """Bring the database to :data:`VERSION` (inside the caller's write transaction). Returns the old version."""
    found = version_of(conn)
    if found is not None and found > VERSION:
        raise SchemaError(f"{path} was written by a newer schoolbot (schema version {found}; this one knows "
                          f"up to {VERSION}): upgrade schoolbot, or use another --db")
    if found is not None:
        for version, _, step in MIGRATIONS:
            if version > found:
                step(conn)
    for table in TABLES:
        conn.execute(table.create)
        for index in table.indexes:
            conn.execute(index)
    conn.execute("INSERT INTO meta (key, value) VALUES ('schema_version', ?) "
                 "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (str(VERSION),))
    import uuid  # only when creating or migrating: it imports platform and more

    conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('store_id', ?)", (uuid.uuid4().hex,))
    return found or 0
