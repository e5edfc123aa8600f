"""The instance lock (issue 23, item 8): never followed through a link, one lock per database file whatever its
name, and one line (exit 3) when it cannot be taken."""

from __future__ import annotations

import os

import pytest

from adapters.cli import main
from adapters.instance import AlreadyRunning, only_instance
from knowledge.records import DatabaseUnavailable


@pytest.fixture
def db(tmp_path) -> str:
    path = tmp_path / "schoolbot.db"
    path.write_bytes(b"")
    return str(path)


def test_a_symlinked_lock_file_is_refused_and_what_it_points_at_is_untouched(db, tmp_path):
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    os.symlink(victim, db + ".lock")
    with pytest.raises(DatabaseUnavailable, match=r"schoolbot.db.lock is a symbolic link; remove it"):
        with only_instance(db):
            pass
    assert victim.read_text() == "keep me\n"


def test_a_database_with_a_second_hard_link_is_refused(db, tmp_path):
    os.link(db, tmp_path / "other-name.db")
    with pytest.raises(DatabaseUnavailable, match=r"has 2 names \(hard links\)"):
        with only_instance(db):
            pass


def test_a_symlink_to_the_database_shares_its_lock(db, tmp_path):
    link = tmp_path / "link.db"
    link.symlink_to(db)
    with only_instance(db):
        with pytest.raises(AlreadyRunning), only_instance(str(link)):
            pass


def test_a_folder_where_the_lock_goes_is_one_line(db):
    os.mkdir(db + ".lock")
    with pytest.raises(DatabaseUnavailable, match=r"schoolbot.db.lock is a folder; remove it"):
        with only_instance(db):
            pass


def test_a_read_only_folder_is_one_line(db, monkeypatch):
    real_open = os.open

    def read_only(path, flags, *args):
        if str(path).endswith(".lock"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only)
    with pytest.raises(DatabaseUnavailable, match=r"cannot be made \(Permission denied\): the database's folder must "
                                                  r"be writable"):
        with only_instance(db):
            pass


def test_serve_says_it_in_one_line_with_the_database_status(db, capsys, monkeypatch):
    monkeypatch.setenv("SCHOOLBOT_TELEGRAM_TOKEN", "123:never-used")
    monkeypatch.delenv("SCHOOLBOT_CONFIG", raising=False)
    os.mkdir(db + ".lock")
    assert main(["serve", "--telegram", "--db", db]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "is a folder" in err
