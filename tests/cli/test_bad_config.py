"""Bad settings and data files are refused at start in one line, exit 2, never a traceback (issue 23, item 9).

The shipped data files (dates.yaml, wording.yaml) are read from the package, so those tests break a copy
of the package in a folder of their own and run `schoolbot` from it.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.cli import main
from bot.settings import SettingsError, load_settings

REPO = Path(__file__).resolve().parents[2]


def _one_line(capsys, argv: list[str], status: int = 2) -> str:
    assert main(argv) == status
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize(("toml", "says"), [
    ('[limits]\nbroadcast_max_chars = 0\n', "[limits] broadcast_max_chars must be at least 50, got 0"),
    ('[answers]\nstale_after_days = -1\n', "[answers] stale_after_days must be between 0 and 365, got -1"),
    ('[limits]\ndelivery_concurrency = 0\n', "[limits] delivery_concurrency must be between 1 and 1000"),
    ('[telegram]\nwebhook_port = 70000\n', "[telegram] webhook_port must be between 1 and 65535"),
    ('[knowledge]\ntimezone = "Mars/Base"\n', "[knowledge] timezone 'Mars/Base' is not a time zone"),
])
def test_a_setting_out_of_its_range_is_one_line(tmp_path, capsys, toml, says):
    config = tmp_path / "schoolbot.toml"
    config.write_text(toml)
    err = _one_line(capsys, ["ask", "--config", str(config), "--db", str(tmp_path / "x.db"), "is school open"])
    assert says in err and str(config) in err
    assert not (tmp_path / "x.db").exists()


def test_the_environment_is_checked_the_same_way():
    with pytest.raises(SettingsError, match=r"stale_after_days must be between 0 and 365, got -1 .*"
                                            r"SCHOOLBOT_ANSWERS_STALE_AFTER_DAYS"):
        load_settings(None, environ={"SCHOOLBOT_ANSWERS_STALE_AFTER_DAYS": "-1"})


def test_a_missing_region_file_is_one_line(tmp_path, capsys):
    config = tmp_path / "schoolbot.toml"
    config.write_text(f'[knowledge]\nregion = "{tmp_path / "nope.yaml"}"\n')
    err = _one_line(capsys, ["ask", "--config", str(config), "--db", str(tmp_path / "x.db"), "hi"])
    assert "nope.yaml: no such file" in err


def test_the_old_boards_setting_says_what_replaced_it(tmp_path, capsys):
    config = tmp_path / "schoolbot.toml"
    config.write_text(f'[knowledge]\nboards = "{tmp_path / "b.yaml"}"\n')
    err = _one_line(capsys, ["ask", "--config", str(config), "--db", str(tmp_path / "x.db"), "hi"])
    assert "unknown key [knowledge] 'boards'; boards now come with their region: write [knowledge] region" in err


@pytest.mark.parametrize(("entry", "says"), [
    ("telegram:777=tdbs", "no board with the id 'tdbs': did you mean 'tdsb'"),
    ("telegram:777=zzz", "no board with the id 'zzz': `schoolbot kb show` lists the boards"),
])
def test_a_role_for_a_board_that_does_not_exist_is_one_line(tmp_path, capsys, settings, entry, says):
    config = tmp_path / "schoolbot.toml"
    config.write_text(f'[roles]\nboard_staff = ["{entry}"]\n')
    err = _one_line(capsys, ["ask", "--config", str(config), "--db", settings.database.path, "hi"])
    assert says in err and "[roles] board_staff" in err


def _package_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "package"
    for name in ("adapters", "bot", "knowledge", "config"):
        shutil.copytree(REPO / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _run_copy(copy: Path, tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(copy), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("SCHOOLBOT_CONFIG", None)
    return subprocess.run([sys.executable, "-m", "adapters.cli", *argv], capture_output=True, text=True,
                          timeout=120, cwd=str(tmp_path), env=env)


def test_a_broken_dates_file_is_one_line(tmp_path):
    copy = _package_copy(tmp_path)
    with open(copy / "config" / "dates.yaml", "a", encoding="utf-8") as file:
        file.write("weekdays: [\n")
    done = _run_copy(copy, tmp_path, "ask", "--db", "x.db", "is school open")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "dates.yaml: not valid YAML at line" in done.stderr
    # a command that reads no date reads no dates file (nothing is read when a module is imported)
    done = _run_copy(copy, tmp_path, "grant", "--db", "x.db", "telegram:5", "province")
    assert done.returncode == 2 and "dates.yaml" not in done.stderr, done.stderr


def test_a_key_taken_out_of_the_wording_is_refused_at_start(tmp_path):
    copy = _package_copy(tmp_path)
    wording = copy / "config" / "wording.yaml"
    text = wording.read_text(encoding="utf-8")
    wording.write_text(re.sub(r"(?m)^which_board_for_day:\n(  .*\n)+", "", text), encoding="utf-8")
    done = _run_copy(copy, tmp_path, "ask", "--db", "x.db", "is school open monday")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "wording.yaml: 1 key(s) the bot says are missing: which_board_for_day" in done.stderr


def test_the_shipped_wording_has_every_key_it_shipped_with():
    from bot.replies import wording
    from bot.wording_keys import SHIPPED_KEYS

    assert SHIPPED_KEYS <= set(wording().texts)


async def test_serve_stops_in_one_line_when_its_database_is_deleted(tmp_path):
    from tests.fakes.telegram import FakeTelegram

    db = tmp_path / "schoolbot.db"
    async with FakeTelegram() as fake:
        env = {**os.environ, "SCHOOLBOT_DATABASE_PATH": str(db), "SCHOOLBOT_TELEGRAM_TOKEN": fake.token,
               "SCHOOLBOT_TELEGRAM_BASE_URL": fake.base_url, "PYTHONPATH": str(REPO)}
        env.pop("SCHOOLBOT_CONFIG", None)
        serve = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "adapters.cli", "serve", "--quiet", cwd=str(tmp_path), env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            fake.private("is school open monday")
            await fake.wait_sent(1, timeout=60)
            for name in ("schoolbot.db", "schoolbot.db-wal", "schoolbot.db-shm"):
                (tmp_path / name).unlink(missing_ok=True)
            fake.private("is school open tuesday")
            await asyncio.wait_for(serve.wait(), 30)
        finally:
            if serve.returncode is None:
                serve.kill()
                await serve.wait()
        err = (await serve.stderr.read()).decode()
    assert serve.returncode == 3
    assert "Traceback" not in err and "never retrieved" not in err, err
    assert err.strip().splitlines()[-1].startswith("schoolbot: the database file")
