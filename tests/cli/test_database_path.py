"""A mistyped --db never makes folders or databases: one line says the folder does not exist; `kb validate`
checks a pack without creating a database."""

from __future__ import annotations

import pytest

from adapters.cli import main
from bot.settings import CONFIG_DIR

PACK = str(CONFIG_DIR / "knowledge" / "cupe-2019.yaml")


@pytest.fixture(autouse=True)
def _no_settings_from_outside(monkeypatch, tmp_path):
    for name in ("SCHOOLBOT_CONFIG", "SCHOOLBOT_DATABASE_PATH", "SCHOOLBOT_TELEGRAM_TOKEN", "SCHOOLBOT_DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("command", [
    ["kb", "list"], ["ask", "hello"], ["kb", "load", PACK], ["grant", "telegram:1", "province"], ["deliveries"],
    ["serve", "--telegram"], ["backup", "copy.db"],
])
def test_a_database_in_a_folder_that_does_not_exist_is_one_line_and_creates_nothing(command, capsys, monkeypatch,
                                                                                  tmp_path):
    monkeypatch.setenv("SCHOOLBOT_TELEGRAM_TOKEN", "123:never-used")  # serve stops before any network
    typo = tmp_path / "var" / "lib" / "schoolbto" / "schoolbot.db"
    code = main([*command, "--db", str(typo)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and f"the folder {typo.parent} does not exist" in err and "--db" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no folder, no database, no lock, no cache


def test_the_default_database_is_still_made_on_first_use(capsys, tmp_path):
    assert main(["kb", "list"]) == 0
    assert "cupe-2019" in capsys.readouterr().out and (tmp_path / "schoolbot.db").is_file()


def test_kb_validate_creates_no_database(capsys, tmp_path):
    assert main(["kb", "validate", PACK, "--db", str(tmp_path / "new.db")]) == 0
    assert "is valid" in capsys.readouterr().out
    assert main(["kb", "validate", PACK]) == 0  # the default database, not there yet
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [
    ["grant", "telegram:1", "province"], ["revoke", "telegram:1"], ["roles"], ["audit"], ["deliveries"],
    ["broadcast", "--board", "tdsb", "--text", "Schools are open."], ["kb", "list"], ["kb", "show"],
    ["kb", "use", "cupe-2019"], ["kb", "export", "cupe-2019"],
])
def test_a_mistyped_database_file_is_one_line_for_commands_that_work_on_its_data(command, capsys, tmp_path):
    typo = tmp_path / "schoolbto.db"
    code = main([*command, "--db", str(typo)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and f"there is no database at {typo}" in err
    assert f"schoolbot init --db {typo}" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no database, no cache


def test_init_makes_the_database_and_then_grant_works_on_it(capsys, tmp_path):
    db = str(tmp_path / "bot.db")
    assert main(["init", "--db", db]) == 0
    assert "bot.db: created, with" in capsys.readouterr().out
    assert main(["grant", "--db", db, "console:local", "province"]) == 0
    assert main(["init", "--db", db]) == 0
    assert "already there" in capsys.readouterr().out
    assert main(["roles", "--db", db]) == 0
    assert "console:local" in capsys.readouterr().out


@pytest.mark.parametrize("command", [["ask", "hello"], ["kb", "load", PACK]])
def test_the_commands_that_start_a_database_still_do(command, capsys, tmp_path):
    db = tmp_path / "new.db"
    assert main([*command, "--db", str(db)]) == 0
    assert db.is_file()
