"""The store under odd input and faults: unstorable text, a failing row, the file deleted or replaced."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from knowledge.records import DatabaseGone
from knowledge.store import open_store
from tests.conftest import message


def logged(store) -> int:
    return store.questions.count()


def test_a_lone_surrogate_costs_no_one_their_logged_question(bot, store):
    texts = ["is school open \ud800"] + [f"is school open monday in peel {i}" for i in range(199)]
    texts.insert(100, "nul\x00 inside")
    texts.pop()
    for i, text in enumerate(texts):
        replies = bot.handle(message(text, user=f"parent{i}"))
        assert replies and all(r.text for r in replies)
    assert logged(store) == 200
    first = store.questions.rows_since("2019-10-01", None)[0][0]
    assert first == "is school open \ufffd"


def test_a_row_the_database_refuses_never_takes_its_batch_with_it(store, caplog):
    from tests.conftest import THURSDAY

    store.log_question(THURSDAY, "test", "unknown", None, "bad \udc80 text")  # bypassing the entry point
    for i in range(199):
        store.log_question(THURSDAY, "test", "school_status", "tdsb", f"question {i}")
    assert logged(store) == 199
    store.log_question(THURSDAY, "test", "unknown", None, "\ud800 at shutdown")
    store.close()  # never raises for the question log


def test_deleting_the_database_under_a_running_bot_stops_it_instead_of_losing_writes(bot, store, settings):
    assert "will now get" in "\n".join(r.text for r in bot.handle(message("/subscribe tdsb")))
    os.remove(settings.database.path)
    with pytest.raises(DatabaseGone) as stopped:
        bot.handle(message("/subscribe pdsb", user="u2"))
    assert "was deleted while running" in str(stopped.value) and settings.database.path in str(stopped.value)
    assert isinstance(stopped.value, SystemExit)  # no `except Exception` on the answer path swallows it


def test_replacing_the_database_file_is_noticed_on_the_next_write(store, settings, tmp_path):
    other = tmp_path / "other.db"
    shutil.copyfile(settings.database.path, other)
    os.replace(other, settings.database.path)
    with pytest.raises(DatabaseGone, match="replaced by another file"):
        store.subscribe("test", "c1", "tdsb", "private", "c1")


def test_a_deleted_database_is_noticed_by_reads_too(store, settings, monkeypatch):
    os.remove(settings.database.path)
    monkeypatch.setattr(store, "CHECK_SECONDS", 0.0)
    with pytest.raises(DatabaseGone):
        store.knowledge()


def test_a_runner_stops_with_one_line_and_status_1(settings):
    script = textwrap.dedent("""
        import os, sys
        from knowledge.store import open_store
        store = open_store(sys.argv[1])
        os.remove(sys.argv[1])
        try:
            store.subscribe("test", "c1", "tdsb", "private", "c1")
        except Exception:
            print("swallowed")
    """)
    done = subprocess.run([sys.executable, "-c", script, settings.database.path], capture_output=True, text=True,
                          timeout=60, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert done.returncode == 1 and "swallowed" not in done.stdout
    assert done.stderr.strip().count("\n") == 0 and "was deleted while running" in done.stderr


def test_an_in_memory_store_has_no_file_to_check():
    store = open_store(":memory:")
    store.subscribe("test", "c1", "tdsb", "private", "c1")
    assert store.subscriptions_of("test", "c1") == ["tdsb"]


def test_the_command_line_turns_it_into_one_line_and_the_database_exit_status(settings, capsys, monkeypatch):
    from adapters.cli import main
    from knowledge.store import Store

    real = Store.subscriptions_of

    def deleted_meanwhile(self, *args):
        os.remove(self.path)
        self.subscribe("cli", "x", "tdsb", "private", "x")
        return real(self, *args)

    monkeypatch.setattr(Store, "knowledge", lambda self: deleted_meanwhile(self, "cli", "x"))
    assert main(["kb", "show", "--db", settings.database.path]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "was deleted while running" in err
