"""Files the bot reads (issue 23, item 9): a regular file under a size limit, YAML within limits on aliases
and depth, and errors of one line that never quote the file's lines.

Every reader goes through knowledge.reading, so these are tried through the readers people use: a pack
(`kb validate`), the settings file, a question file for `eval`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.evaluation import read_jsonl
from bot.settings import SettingsError, load_settings
from knowledge.loading import LoadError, load_knowledge
from knowledge.reading import MAX_FILE_BYTES, read_yaml

REPO = Path(__file__).resolve().parents[2]
BOARDS = ["tdsb", "pdsb"]

LAUGHS = "".join(
    [f"l0: &l0 [{', '.join(['lol'] * 9)}]\n"]
    + [f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]\n" for n in range(1, 9)]
    + ["sources: *l8\n"]
)


def _refused_quickly(path: Path) -> str:
    started = time.monotonic()
    with pytest.raises(LoadError) as error:
        load_knowledge(path, BOARDS)
    assert time.monotonic() - started < 2
    message = str(error.value)
    assert message.count("\n") == 0, message
    return message


@pytest.mark.parametrize(("text", "says"), [
    pytest.param(LAUGHS, "aliases", id="billion laughs"),
    pytest.param("sources: &s [1, *s]\n", "alias", id="an alias to the list it is in"),
    pytest.param("a: &a x\nb: [" + ", ".join(["*a"] * 101) + "]\n", "over 100 YAML aliases", id="101 aliases"),
    pytest.param("sources: " + "[" * 200 + "]" * 200 + "\n", "nested over", id="nesting deeper than the limit"),
])
def test_yaml_past_a_limit_is_refused_in_one_line(tmp_path, text, says):
    path = tmp_path / "hostile.yaml"
    path.write_text(text)
    assert says in _refused_quickly(path)


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.yaml"
    with open(path, "wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)
    assert "MB" in _refused_quickly(path)


def test_a_link_to_dev_zero_is_refused(tmp_path):
    path = tmp_path / "zero.yaml"
    path.symlink_to("/dev/zero")
    assert "not a regular file" in _refused_quickly(path)


def test_a_folder_is_refused(tmp_path):
    assert "folder" in _refused_quickly(tmp_path)


def test_a_link_to_a_regular_file_is_read(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_text("a: 1\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    assert read_yaml(link) == {"a": 1}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_does_not_hang_kb_validate(tmp_path):
    fifo = tmp_path / "pack.yaml"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "adapters.cli", "kb", "validate", str(fifo)],
                          capture_output=True, text=True, timeout=30, cwd=str(tmp_path),
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "not a regular file" in done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_settings_file_or_question_file_is_refused(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(SettingsError, match="not a regular file"):
        load_settings(str(fifo), environ={})
    with pytest.raises(LoadError, match="not a regular file"):
        read_jsonl(str(fifo))


def test_a_yaml_error_names_the_line_without_quoting_it(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("sources:\n  - file: a.txt\n    title: [admin:$6$SECRETHASH:19000\n")
    message = str(pytest.raises(LoadError, load_knowledge, path, BOARDS).value)
    assert "SECRETHASH" not in message and "admin" not in message
    assert message.count("\n") == 0 and "not valid YAML at line" in message


def test_a_wrong_value_is_quoted_cut_short(tmp_path):
    path = tmp_path / "long.yaml"
    secret = "x" * 30 + "SECRET-TAIL" + "y" * 500
    path.write_text(f"sources:\n  - file: a.txt\n    title: Notice\n    published: {secret}\n")
    message = str(pytest.raises(LoadError, load_knowledge, path, BOARDS).value)
    assert "sources[0] (a.txt): 'published'" in message
    assert "SECRET-TAIL" not in message and len(message) < 300


def test_a_file_that_is_not_utf8_is_one_line(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("sources:\n  - title: \xe9cole\n".encode("latin-1"))
    message = _refused_quickly(path)
    assert "not UTF-8 text (line 2)" in message
