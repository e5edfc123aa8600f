"""`schoolbot backup FILE` copies what is committed, WAL included, never over the live database; and a clean exit
of ask/chat checkpoints, so a copy of schoolbot.db alone holds the data."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.cli import main

NOW = "2019-10-03T09:00:00-04:00"
REPO = Path(__file__).resolve().parents[2]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def subscribed(path: Path | str, chat: str) -> bool:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT count(*) FROM subscriptions WHERE chat_id = ?", (chat,)).fetchone()[0] == 1
    finally:
        conn.close()


def file_alone(db: str, tmp_path: Path) -> Path:
    """schoolbot.db copied by itself, as a naive `cp` backup would (no -wal beside it)."""
    alone = tmp_path / "alone" / "copy.db"
    alone.parent.mkdir()
    shutil.copyfile(db, alone)
    return alone


def test_backup_has_what_is_still_in_the_write_ahead_log(capsys, store, settings, tmp_path):
    db = settings.database.path
    store.conn.execute("PRAGMA wal_autocheckpoint = 0")  # the bot runs on: its writes stay in schoolbot.db-wal
    store.subscribe("telegram", "4242", "tdsb", "private", "4242")
    assert not subscribed(file_alone(db, tmp_path), "4242")  # the file alone lacks it ...
    backup = tmp_path / "backups" / "schoolbot-backup.db"
    backup.parent.mkdir()
    code, out, err = run(capsys, "backup", "--db", db, str(backup))
    assert code == 0, err
    assert out.startswith(f"{backup}: a backup of {db}") and "checked" in out
    assert subscribed(backup, "4242")  # ... the backup has it, in one file
    conn = sqlite3.connect(backup)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert conn.execute("SELECT count(*) FROM cards").fetchone()[0] > 0
    conn.close()
    assert sorted(p.name for p in backup.parent.iterdir()) == ["schoolbot-backup.db"]  # no temporary file left
    store.subscribe("telegram", "4343", "pdsb", "private", "4343")  # the live database goes on as before
    assert subscribed(db, "4343")


def test_backup_never_writes_over_the_live_database(capsys, settings, tmp_path):
    db = settings.database.path
    before = Path(db).read_bytes()
    for target in (db, db + "-wal"):
        code, _, err = run(capsys, "backup", "--db", db, target, "--force")
        assert code == 2 and "bot's database" in err and err.count("\n") == 1
    link = tmp_path / "latest.db"
    link.symlink_to(db)
    code, _, err = run(capsys, "backup", "--db", db, str(link), "--force")
    assert code == 2 and "symbolic link" in err
    assert Path(db).read_bytes() == before


def test_an_older_backup_is_replaced_only_with_force(capsys, store, settings, tmp_path):
    db = settings.database.path
    backup = tmp_path / "nightly.db"
    assert run(capsys, "backup", "--db", db, str(backup))[0] == 0
    store.subscribe("telegram", "4444", "tdsb", "private", "4444")
    code, _, err = run(capsys, "backup", "--db", db, str(backup))
    assert code == 2 and "already exists" in err and "--force" in err
    assert not subscribed(backup, "4444")
    assert run(capsys, "backup", "--db", db, str(backup), "--force")[0] == 0  # an SQLite file, but a backup: --force
    assert subscribed(backup, "4444")


def test_backup_of_no_database_creates_nothing(capsys, tmp_path):
    code, _, err = run(capsys, "backup", "--db", str(tmp_path / "typo.db"), str(tmp_path / "out.db"))
    assert code == 3 and "no database at" in err
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- checkpoint at exit
@pytest.fixture
def reader():
    """Another program with the database open (a running serve): SQLite then leaves the WAL at close."""
    conns = []

    def open_on(path: str) -> sqlite3.Connection:
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA journal_mode").fetchone()
        conns.append(conn)
        return conn

    yield open_on
    for conn in conns:
        conn.close()


def test_ask_on_a_new_database_leaves_its_knowledge_in_the_file_itself(capsys, tmp_path, reader):
    db = str(tmp_path / "schoolbot.db")
    reader(db)  # the file exists, empty, and stays open
    code, out, _ = run(capsys, "ask", "--db", db, "--now", NOW, "is school open monday in peel")
    assert code == 0 and "Peel" in out
    conn = sqlite3.connect(file_alone(db, tmp_path))
    assert conn.execute("SELECT count(*) FROM packs").fetchone()[0] >= 1
    conn.close()


def test_chat_leaves_what_it_wrote_in_the_file_itself(settings, tmp_path, reader):
    db = settings.database.path
    reader(db)
    done = subprocess.run([sys.executable, "-m", "adapters.cli", "chat", "--db", db, "--now", NOW], cwd=REPO,
                          input="/subscribe tdsb\nquit\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "You will now get official updates" in done.stdout, done.stderr
    assert subscribed(file_alone(db, tmp_path), "local")  # the console user's chat
