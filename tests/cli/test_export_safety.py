"""`kb export` never damages a file: not the database (by its name or through a link), not another SQLite
file, not an existing file without --force, and not the old file on a full disk; a mistyped pack is an error."""

from __future__ import annotations

import os
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from adapters.cli import main

REPO = Path(__file__).resolve().parents[2]
PACK = "cupe-2019"


@pytest.fixture
def db(settings) -> str:
    return settings.database.path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def intact(db: str) -> bool:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("PRAGMA quick_check").fetchone()[0] == "ok" and \
            conn.execute("SELECT count(*) FROM cards").fetchone()[0] > 0
    finally:
        conn.close()


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("schoolbot: "), err
    return err


def test_export_refuses_the_database_itself_by_name_or_through_a_link(capsys, db, tmp_path):
    before = Path(db).read_bytes()
    code, _, err = run(capsys, "kb", "export", "--db", db, PACK, db, "--force")
    assert code == 2 and "is the bot's database" in one_line(err) and db in err
    link = tmp_path / "pack.yaml"
    link.symlink_to(db)
    code, _, err = run(capsys, "kb", "export", "--db", db, PACK, str(link), "--force")
    assert code == 2 and "symbolic link" in one_line(err) and str(link) in err
    hard = tmp_path / "hard.yaml"
    os.link(db, hard)  # the same file under another name
    code, _, err = run(capsys, "kb", "export", "--db", db, PACK, str(hard), "--force")
    assert code == 2 and "is the bot's database" in one_line(err)
    code, _, err = run(capsys, "kb", "export", "--db", db, PACK, db + "-wal", "--force")
    assert code == 2 and "bot's database" in one_line(err)
    assert Path(db).read_bytes() == before and intact(db)


def test_export_refuses_any_sqlite_file_and_any_link_even_with_force(capsys, db, tmp_path):
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    code, _, err = run(capsys, "kb", "export", "--db", db, PACK, str(other), "--force")
    assert code == 2 and "SQLite database" in one_line(err) and str(other) in err
    assert other.read_bytes().startswith(b"SQLite format 3\0")
    plain = tmp_path / "plain.yaml"
    plain.write_text("keep me\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(plain)
    code, _, err = run(capsys, "kb", "export", "--db", db, PACK, str(link), "--force")
    assert code == 2 and "symbolic link" in one_line(err)
    assert plain.read_text() == "keep me\n" and link.is_symlink()


def test_an_existing_file_is_replaced_only_with_force_and_whole(capsys, db, tmp_path):
    out = tmp_path / "pack.yaml"
    out.write_text("an older export\n")
    code, _, err = run(capsys, "kb", "export", "--db", db, PACK, str(out))
    assert code == 2 and "already exists" in one_line(err) and "--force" in err
    assert out.read_text() == "an older export\n"
    code, printed, _ = run(capsys, "kb", "export", "--db", db, PACK, str(out), "--force")
    assert code == 0 and printed.startswith(f"{out}: ")
    assert yaml.safe_load(out.read_text())["pack"]["id"] == PACK
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temporary file left
    fresh = tmp_path / "new.yaml"
    assert run(capsys, "kb", "export", "--db", db, PACK, str(fresh))[0] == 0  # a new file needs no --force
    assert oct(fresh.stat().st_mode & 0o777) == oct(0o666 & ~_umask())  # made as open() makes files


def test_a_full_disk_leaves_the_old_file_whole_and_says_so_in_one_line(db, tmp_path):
    """The file-size limit makes the kernel refuse the write part-way (EFBIG), as a full disk does (ENOSPC)."""
    out = tmp_path / "pack.yaml"
    out.write_text("an older export\n")

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an error from write(), not a killed process
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))  # the pack is about 190 kB

    done = subprocess.run([sys.executable, "-m", "adapters.cli", "kb", "export", "--db", db, PACK, str(out), "--force"],
                          cwd=REPO, preexec_fn=small_files, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and f"cannot write {out}" in done.stderr and "unchanged" in done.stderr
    assert out.read_text() == "an older export\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # the partial file removed


def test_a_mistyped_pack_is_an_error_not_a_file_named_after_it(capsys, db, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "kb", "export", "--db", db, "cupe-2091")
    assert code == 2 and "no pack cupe-2091" in one_line(err) and PACK in err
    code, _, err = run(capsys, "kb", "export", "--db", db, "cupe-2091", "out.yaml")
    assert code == 2 and "no pack cupe-2091" in one_line(err)
    assert not (tmp_path / "cupe-2091").exists() and not (tmp_path / "out.yaml").exists()
    code, printed, _ = run(capsys, "kb", "export", "--db", db, "chat.yaml")  # a file name: what staff added in chat
    assert code == 0 and (tmp_path / "chat.yaml").exists() and printed.startswith("chat.yaml: ")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
