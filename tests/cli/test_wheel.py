"""The project as users install it: a wheel, in a fresh virtualenv, asked a question from an empty directory.

The fresh venv has no pip and no network: the wheel goes in with `--no-deps`,
and the dependencies are seen through a .pth file naming this venv's
site-packages (which holds no copy of the project: it is installed editable).
About 20 s; deselect with -m "not wheel" while working.
"""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NOW = "2019-10-03T09:00:00-04:00"

pytestmark = pytest.mark.wheel


def _run(*cmd, cwd=None, env=None) -> subprocess.CompletedProcess:
    result = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=300, cwd=cwd, env=env)
    assert result.returncode == 0, f"{cmd}: {result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Built from a copy of the sources: setuptools leaves build/ behind, and a stale one leaks old files."""
    source = tmp_path_factory.mktemp("src") / "schoolbot"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", "*.db*", ".schoolbot-cache"))
    out = tmp_path_factory.mktemp("dist")
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, source)
    (found,) = out.glob("schoolbot-*.whl")
    return found


def test_the_wheel_carries_every_module_and_the_shipped_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {p.relative_to(REPO).as_posix() for top in ("bot", "knowledge", "adapters", "config")
               for p in (REPO / top).rglob("*") if p.suffix in (".py", ".yaml") and "__pycache__" not in p.parts}
    assert {"config/regions/ontario.yaml", "config/intents.yaml", "config/knowledge/cupe-2019.yaml", "adapters/cli/__init__.py"} <= shipped
    assert shipped - names == set()
    assert not [n for n in names if n.startswith("tests/") or n.endswith(".db")]


def test_installed_from_the_wheel_it_answers_from_an_empty_directory(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    target = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").stdout.strip())
    ours = [p for p in [*site.getsitepackages(), sysconfig.get_path("purelib")] if Path(p).is_dir()]
    (target / "_schoolbot_test_deps.pth").write_text("\n".join(dict.fromkeys(ours)) + "\n")
    _run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q", wheel)

    empty = tmp_path / "empty"
    empty.mkdir()
    where = _run(python, "-c", "import bot, config, adapters.cli; print(bot.__file__); print(config.__file__)", cwd=empty)
    assert all(line.startswith(str(target)) for line in where.stdout.split()), where.stdout  # not the clone

    clean = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    result = _run(env_dir / "bin" / "schoolbot", "ask", "--now", NOW, "is school open monday in peel", cwd=empty, env=clean)
    assert result.stdout.startswith("Peel DSB, Monday, October 7")
    assert "2019-10-02-full-strike-notice-talks-friday.txt" in result.stdout
    assert (empty / "schoolbot.db").is_file()  # the database goes in the working directory
    assert list((empty / ".schoolbot-cache").glob("matcher-*.pickle"))
    again = _run(env_dir / "bin" / "schoolbot", "ask", "--now", NOW, "is school open monday in peel", cwd=empty, env=clean)
    assert again.stdout == result.stdout
