"""One schema module: a new database gets every table; an older one is migrated in order and keeps its rows."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.app import build_bot, open_knowledge
from knowledge import schema
from knowledge.store import open_store
from tests.conftest import THURSDAY, message

V1 = Path(__file__).resolve().parents[1] / "data" / "schema_v1.sql"


def columns(store, table: str) -> set[str]:
    return {row[1] for row in store.conn.execute(f"PRAGMA table_info({table})")}


def make_v1(path: Path) -> None:
    """A version-1 database as the first release left it, with a staff change, a grant, an audit row and a question."""
    conn = sqlite3.connect(path)
    conn.executescript(V1.read_text())
    conn.executescript("""
        INSERT INTO statuses (id, board, start, status, summary, source, published, author, origin)
            VALUES ('staff-status-tdsb-1', 'tdsb', '2019-10-07', 'closed', 'Closed Monday', 'TDSB staff update',
                    '2019-10-03T09:00:00-04:00', 'test:777', 'staff');
        INSERT INTO admin_changes (at, platform, user_id, kind, entry_id, board, summary)
            VALUES ('2019-10-03T09:00:00-04:00', 'test', '777', 'status', 'staff-status-tdsb-1', 'tdsb', 'tdsb closed: Closed Monday');
        INSERT INTO role_grants VALUES ('telegram', '42', 'staff', '["tdsb"]', 'test:1', '2019-10-03T09:00:00-04:00');
        INSERT INTO audit (at, platform, user_id, action, target, after)
            VALUES ('2019-10-03T09:00:00-04:00', 'test', '777', 'setstatus', 'tdsb', '{"status": "closed"}');
        INSERT INTO question_log (at, day, platform, intent, board, text)
            VALUES ('2019-10-03T09:00:00-04:00', '2019-10-03', 'test', 'unknown', 'tdsb', 'can I pick up his things?');
        INSERT INTO subscriptions VALUES ('telegram', '5', 'tdsb', 'private', '5', 1, 'x', 'x');
    """)
    conn.commit()
    conn.close()


def test_a_new_database_has_every_table_at_the_latest_version(tmp_path):
    store = open_store(tmp_path / "new.db")
    names = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {t.name for t in schema.TABLES} <= names
    assert schema.version_of(store.conn) == schema.VERSION == 11
    assert {"broadcasts", "deliveries", "delivery_workers", "telegram_updates", "pack_ends", "replies"} <= names  # every table here
    store.close()


def test_a_version_1_database_opens_after_the_upgrade_with_its_rows(tmp_path):
    path = tmp_path / "v1.db"
    make_v1(path)
    store = open_store(path)
    assert schema.version_of(store.conn) == schema.VERSION
    assert {"real_at", "name"} <= columns(store, "audit")
    assert "before" in columns(store, "admin_changes") and "confidence" in columns(store, "question_log")
    assert "cards" in {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert store.admin.grant_of("telegram", "42")["boards"] == ["tdsb"]
    assert store.subscribers("tdsb") == [("telegram", "5")]
    assert store.audit_rows()[0]["action"] == "setstatus" and store.audit_rows()[0]["real_at"] is None
    assert store.admin.latest_change("test", "777")["entry_id"] == "staff-status-tdsb-1"
    store.close()


def test_an_upgraded_database_works_for_parents_and_staff(tmp_path, shared_matcher, settings):
    path = tmp_path / "v1.db"
    make_v1(path)
    settings = settings.replace("database", path=str(path)).replace("roles", board_staff=("test:777=tdsb",))
    store = open_knowledge(settings)  # loads the shipped knowledge into the old file
    bot = build_bot(settings, store=store, clock=lambda: THURSDAY, matcher=shared_matcher)
    say = lambda text, user="777": "\n".join(r.text for r in bot.handle(message(text, user=user)))  # noqa: E731
    assert say("is school open monday in tdsb?", user="parent").startswith("TDSB, Monday, October 7")
    assert "Closed Monday" in say("/undo")  # the change recorded before the upgrade
    assert say("/confirm").startswith("Undone")
    assert say("/unanswered").count("can I pick up his things?") == 1
    store.close()
    assert schema.version_of(sqlite3.connect(path)) == schema.VERSION


def test_opening_twice_changes_nothing(tmp_path):
    path = tmp_path / "db.db"
    open_store(path).close()
    first = sqlite3.connect(path).execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
    open_store(path).close()
    assert sqlite3.connect(path).execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall() == first


def test_a_database_from_a_newer_schoolbot_is_refused_with_a_clear_message(tmp_path):
    path = tmp_path / "future.db"
    open_store(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(schema.SchemaError, match=r"newer schoolbot .*version 99"):
        open_store(path)


def test_migrations_are_in_order_and_end_at_the_version():
    versions = [version for version, _, _ in schema.MIGRATIONS]
    assert versions == sorted(versions) == list(range(2, schema.VERSION + 1))


def make_v6(path: Path) -> None:
    """A version-6 database (before broadcasts had languages): a French user, two subscribers, and a
    broadcast in flight with one delivery sent and one not."""
    open_store(path).close()
    conn = sqlite3.connect(path)
    for table, column in (("broadcasts", "text_fr"), ("broadcasts", "language"), ("deliveries", "language"),
                          ("subscriptions", "language"), ("users", "language")):
        conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    conn.executescript("""
        UPDATE meta SET value = '6' WHERE key = 'schema_version';
        INSERT INTO users (platform, user_id, pending, updated) VALUES ('test', 'fr-1', '{"language": "fr"}', 'x');
        INSERT INTO users (platform, user_id, pending, updated) VALUES ('test', 'en-1', '{"board": "tdsb"}', 'x');
        INSERT INTO subscriptions VALUES ('test', 'fr-1', 'tdsb', 'private', 'fr-1', 1, 'x', 'x');
        INSERT INTO subscriptions VALUES ('test', 'en-1', 'tdsb', 'private', 'en-1', 1, 'x', 'x');
        INSERT INTO broadcasts (id, created, board, body, text, author, total)
            VALUES (1, '2019-10-03T09:00:00-04:00', 'tdsb', 'Open Monday.', 'HEADER Open Monday.', 'test:777', 2);
        INSERT INTO deliveries (broadcast_id, platform, chat_id, state) VALUES (1, 'test', 'en-1', 'sent');
        INSERT INTO deliveries (broadcast_id, platform, chat_id, state) VALUES (1, 'test', 'fr-1', 'sending');
    """)
    conn.commit()
    conn.close()


def test_a_version_6_outbox_is_upgraded_to_languages_and_finishes_what_it_had(tmp_path):
    import asyncio

    from bot.broadcast import Outbox
    from bot.broadcast.worker import DeliveryWorker
    from bot.messages import SendOutcome, SendStatus

    class Recorder:
        platform = "test"

        def __init__(self):
            self.sent = []

        async def send_text(self, chat_id, text):
            self.sent.append((chat_id, text))
            return SendOutcome(SendStatus.SENT)

    path = tmp_path / "v6.db"
    make_v6(path)
    store = open_store(path)
    assert schema.version_of(store.conn) == schema.VERSION
    assert {"text_fr", "language"} <= columns(store, "broadcasts") and "language" in columns(store, "deliveries")
    assert dict(store.conn.execute("SELECT user_id, language FROM users")) == {"fr-1": "fr", "en-1": None}
    recorder = Recorder()
    asyncio.run(DeliveryWorker(store, recorder, poll_interval=0.01).run(once=True))
    assert recorder.sent == [("fr-1", "HEADER Open Monday.")]  # the broadcast in flight keeps its one text
    outbox = Outbox(store)
    assert outbox.audience("tdsb") == ({"test": 2}, {"en": 1, "fr": 1})  # the French user, remembered before
    store.close()


def test_opening_a_database_at_this_version_writes_nothing(tmp_path):
    """Every start but the first only reads the schema: no write lock, no row written (a quick `ask`)."""
    path = str(tmp_path / "s.db")
    open_store(path).close()
    again = open_store(path)
    assert again.conn.total_changes == 0
    assert schema.version_of(again.conn) == schema.VERSION
    again.close()
