"""The docs' first steps work as written (issue 23, item 14): a shipped pack by its id, from a clone or a wheel
alike; packs named by their header's id; a container build without BuildKit; `serve --check` before a restart
policy that cannot spare a settings error."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.cli import main

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _here(monkeypatch, tmp_path):
    for name in ("SCHOOLBOT_CONFIG", "SCHOOLBOT_DATABASE_PATH", "SCHOOLBOT_TELEGRAM_TOKEN", "SCHOOLBOT_DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no config/ here: as after a wheel install


def test_kb_use_loads_a_shipped_pack_on_first_use(capsys):
    assert main(["kb", "use", "cupe-2022-walkout"]) == 0
    out = capsys.readouterr().out
    assert "cupe-2022-walkout: loaded from the shipped packs" in out and "active: cupe-2022-walkout" in out


def test_the_readme_way_to_start_a_pack_from_the_shipped_one(capsys, tmp_path):
    assert main(["kb", "load", "cupe-2022-walkout"]) == 0
    assert main(["kb", "export", "cupe-2022-walkout", "my-dispute.yaml"]) == 0
    text = (tmp_path / "my-dispute.yaml").read_text(encoding="utf-8")
    (tmp_path / "my-dispute.yaml").write_text(text.replace("  id: cupe-2022-walkout", "  id: my-dispute", 1))
    assert main(["kb", "validate", "my-dispute.yaml"]) == 0
    assert main(["kb", "load", "my-dispute.yaml"]) == 0
    assert main(["kb", "use", "my-dispute"]) == 0
    assert "active: my-dispute" in capsys.readouterr().out


def test_packs_md_names_the_pack_by_its_header_id():
    text = (REPO / "docs" / "packs.md").read_text(encoding="utf-8")
    assert "id: my-dispute" in text and "by this id, never by its\n   file's name" in text


def test_the_dockerfile_builds_without_buildkit():
    text = (REPO / "Dockerfile").read_text(encoding="utf-8")
    assert "--mount" not in text and "# syntax=" not in text


def test_serve_check_says_ready_without_connecting(capsys, monkeypatch):
    monkeypatch.setenv("SCHOOLBOT_TELEGRAM_TOKEN", "123:never-used")
    assert main(["serve", "--check"]) == 0
    assert capsys.readouterr().out == "ready to serve telegram on schoolbot.db\n"
    monkeypatch.delenv("SCHOOLBOT_TELEGRAM_TOKEN")
    assert main(["serve", "--check"]) == 2
    assert "no platform token is configured" in capsys.readouterr().err
