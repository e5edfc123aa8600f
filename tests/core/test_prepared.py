"""The on-disk cache of prepared objects (bot/prepared.py) and the matcher kept in it."""

from __future__ import annotations

import functools
import pickle
from datetime import date
from pathlib import Path

from bot import prepared
from bot.app import prepared_matcher
from bot.core import build_matcher


class Counted:
    """An object with a cached method, like the matcher's speller and score cache."""

    def __init__(self, base: int):
        self.base = base
        self.add = functools.lru_cache(maxsize=8)(self._add)

    def _add(self, n: int) -> int:
        return self.base + n


def test_builds_once_then_loads(tmp_path):
    calls = []

    def build():
        calls.append(1)
        return Counted(40)

    first = prepared.load_or_build(b"k1", build, tmp_path, name="thing")
    second = prepared.load_or_build(b"k1", build, tmp_path, name="thing")
    assert len(calls) == 1
    assert second is not first and second.add(2) == 42  # a fresh, working cache around the method
    assert second.add.cache_info().maxsize == 8
    assert [p.name.split("-")[0] for p in tmp_path.iterdir()] == ["thing"]  # no temporary file left


def test_a_new_key_rebuilds_and_old_files_are_pruned_to_a_few(tmp_path):
    prepared.load_or_build(b"old", lambda: Counted(1), tmp_path, name="thing")
    rebuilt = prepared.load_or_build(b"new", lambda: Counted(2), tmp_path, name="thing")
    assert rebuilt.base == 2
    assert prepared.load_or_build(b"new", lambda: Counted(3), tmp_path, name="thing").base == 2
    # Two installs sharing the directory keep their own files: the old key is still there.
    assert prepared.load_or_build(b"old", lambda: Counted(4), tmp_path, name="thing").base == 1
    for n in range(10):
        prepared.load_or_build(b"key %d" % n, lambda: Counted(0), tmp_path, name="thing")
    assert len(list(tmp_path.glob("thing-*.pickle"))) == prepared.KEEP


def test_a_damaged_or_foreign_file_is_rebuilt(tmp_path):
    prepared.load_or_build(b"k", lambda: Counted(1), tmp_path, name="thing")
    (path,) = tmp_path.glob("thing-*.pickle")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])  # cut short, as by a full disk
    assert prepared.load_or_build(b"k", lambda: Counted(5), tmp_path, name="thing").base == 5
    path.write_bytes(b"something else entirely")
    assert prepared.load_or_build(b"k", lambda: Counted(6), tmp_path, name="thing").base == 6


def test_an_unwritable_cache_path_means_no_cache_not_an_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert prepared.load_or_build(b"k", lambda: Counted(8), blocker / "cache", name="thing").base == 8


def test_no_directory_means_no_cache():
    assert prepared.cache_dir_for(":memory:") is None
    assert prepared.load_or_build(b"k", lambda: Counted(9), None).base == 9


def test_the_key_parts_cannot_run_together():
    assert prepared.digest("ab", "c") != prepared.digest("a", "bc")
    assert prepared.digest(b"x") == prepared.digest("x")


def test_the_cached_matcher_answers_like_a_fresh_one(settings, store, tmp_path):
    fresh = build_matcher(store, settings)
    prepared_matcher(store, settings)  # builds and saves
    cached = prepared_matcher(store, settings)  # loads
    assert (tmp_path / prepared.CACHE_DIR_NAME).is_dir()
    today = date(2019, 10, 3)
    for text in ("is school open monday in peel", "is daycare open", "wat abt bussing in tdsb tmrw",
                 "when does the strike end", "can I get a refund for the field trip"):
        a, b = fresh.analyse(text, today), cached.analyse(text, today)
        assert (a.intent, a.confidence, a.board, a.date) == (b.intent, b.confidence, b.board, b.date), text


def test_changing_the_intents_file_rebuilds_the_matcher(settings, store, tmp_path):
    prepared_matcher(store, settings)
    intents = tmp_path / "intents.yaml"
    text = Path(settings.knowledge.intents).read_text(encoding="utf-8")
    assert "\nslang:\n" in text
    intents.write_text(text.replace("\nslang:\n", "\nslang:\n  skool: school\n", 1), encoding="utf-8")
    changed = settings.replace("knowledge", intents=str(intents))
    matcher = prepared_matcher(store, changed)
    assert matcher.data.slang.get("skool") == "school"
    path = max((tmp_path / prepared.CACHE_DIR_NAME).glob("matcher-*.pickle"), key=lambda p: p.stat().st_mtime)
    assert b"skool" in path.read_bytes()


def test_the_code_digest_follows_the_source(tmp_path, monkeypatch):
    pkg = tmp_path / "fakepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import fakepkg  # noqa: F401

    before = prepared.code_digest.__wrapped__("fakepkg")
    (pkg / "mod.py").write_text("X = 2\n")
    assert prepared.code_digest.__wrapped__("fakepkg") != before


def test_pickles_are_plain_pickles_after_the_header(tmp_path):
    prepared.load_or_build(b"k", lambda: {"a": 1}, tmp_path, name="thing")
    (path,) = tmp_path.glob("thing-*.pickle")
    data = path.read_bytes()
    assert data.startswith(prepared.MAGIC)
    assert pickle.loads(data[len(prepared.MAGIC) + 32:]) == {"a": 1}
