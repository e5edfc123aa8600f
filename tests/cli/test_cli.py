"""The command line: the `ask` contract, eval, kb and chat, as scripts and people use them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.cli import main

NOW = "2019-10-03T09:00:00-04:00"
DEVSET = Path(__file__).resolve().parents[3] / "shared" / "devset" / "questions.jsonl"


@pytest.fixture
def db(settings):
    return settings.database.path


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        import io

        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_ask_json_contract(capsys, db):
    code, out, _ = run(capsys, "ask", "--db", db, "--json", "--now", NOW, "is school open monday in peel")
    assert code == 0
    answer = json.loads(out)
    assert set(answer) == {"intent", "board", "date", "reply", "confidence"}
    assert (answer["intent"], answer["board"], answer["date"]) == ("school_status", "pdsb", "2019-10-07")
    assert "contingency plan" in answer["reply"] and "child care" in answer["reply"]
    assert "2019-10-02-full-strike-notice-talks-friday.txt" in answer["reply"]
    assert 0 <= answer["confidence"] <= 1


def test_ask_stdin_one_line_per_input(capsys, db, monkeypatch):
    lines = [
        "is school open monday",
        json.dumps({"text": "r schools open mon", "now": "2019-09-27T18:30:00-04:00", "board": "tdsb"}),
        "",
        "{not json",
        json.dumps({"text": "school tmrw?", "now": "2019-10-03T21:40:00-04:00"}),
        json.dumps({"now": NOW}),
        json.dumps({"text": "hi", "board": "atlantis"}),
    ]
    code, out, _ = run(capsys, "ask", "--db", db, "--json", "--now", NOW, "--board", "yrdsb",
                       stdin="\n".join(lines) + "\n", monkeypatch=monkeypatch)
    assert code == 0
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(lines)
    assert (answers[0]["board"], answers[0]["date"]) == ("yrdsb", "2019-10-07")
    assert (answers[1]["board"], answers[1]["date"]) == ("tdsb", "2019-09-30")
    assert answers[2]["intent"] == "help"
    assert "not valid JSON" in answers[3]["error"]
    assert (answers[4]["board"], answers[4]["date"]) == ("yrdsb", "2019-10-04")
    assert "needs a \"text\"" in answers[5]["error"]
    assert "no board matches 'atlantis'" in answers[6]["error"]


def test_each_line_is_a_fresh_user(capsys, db, monkeypatch):
    _code, out, _ = run(capsys, "ask", "--db", db, "--json", "--now", NOW,
                       stdin="my kids go to peel\nis school open monday\n", monkeypatch=monkeypatch)
    second = json.loads(out.splitlines()[1])
    assert second["board"] is None and "Which board is your child's?" in second["reply"]


def test_ask_plain_text(capsys, db):
    _code, out, _ = run(capsys, "ask", "--db", db, "--now", NOW, "--board", "tdsb", "is school open tomorrow")
    assert "TDSB, tomorrow, Friday, October 4" in out


def test_ask_bad_input_is_one_clear_line(capsys, db):
    code, _, err = run(capsys, "ask", "--db", db, "--now", "next tuesday", "hi")
    assert code == 2 and "--now: 'next tuesday' is not an ISO 8601 time" in err
    code, _, err = run(capsys, "ask", "--db", db, "--board", "atlantis", "hi")
    assert code == 2 and "no board matches 'atlantis'" in err


def test_ask_does_not_write_user_memory(capsys, db, store):
    run(capsys, "ask", "--db", db, "--now", NOW, "/subscribe tdsb")
    assert store.db["subscriptions"].count == 0
    assert store.db["users"].count == 0


def test_kb_show_and_load(capsys, db, tmp_path):
    code, out, _ = run(capsys, "kb", "show", "--db", db)
    assert code == 0 and "tdsb" in out and "72 boards" in out
    code, out, _ = run(capsys, "kb", "show", "peal", "--db", db)
    assert "Peel District School Board (pdsb)" in out and "contingency" in out
    extra = tmp_path / "extra.yaml"
    extra.write_text(
        "sources:\n  - {file: memo.txt, title: A memo, published: 2019-10-04T10:00:00-04:00}\n"
        "statuses:\n  - {id: ocdsb-memo, board: ocdsb, from: 2019-10-07, status: unknown, "
        "summary: Ottawa-Carleton is reviewing., source: memo.txt}\n"
    )
    for _ in range(2):  # loading twice changes nothing
        code, out, _ = run(capsys, "kb", "load", str(extra), "--db", db)
        assert code == 0 and "1 statuses" in out and "pack extra loaded" in out and "not active" in out
    code, out, _ = run(capsys, "kb", "use", "cupe-2019", "extra", "--db", db)  # a file without a header: a pack
    assert code == 0
    code, out, _ = run(capsys, "kb", "show", "ocdsb", "--db", db)
    assert out.count("Ottawa-Carleton is reviewing.") == 1


def test_kb_load_bad_file_names_entry(capsys, db, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("sources: []\nstatuses:\n  - {id: x, board: nowhere, from: 2019-10-07, status: open, summary: s, source: s.txt}\n")
    code, _, err = run(capsys, "kb", "load", str(bad), "--db", db)
    assert code == 2
    assert str(bad) in err and "statuses[0] (x)" in err and "board 'nowhere'" in err


@pytest.mark.skipif(not DEVSET.exists(), reason="../shared/devset not present")
def test_eval_prints_the_report(capsys, db):
    code, out, _ = run(capsys, "eval", str(DEVSET), "--db", db, "--min-accuracy", "0.5")
    assert code == 0
    for part in ("intent accuracy:", "intent macro-F1:", "board accuracy:", "date accuracy:", "school_status"):
        assert part in out


def test_eval_fails_below_the_bar(capsys, db, tmp_path):
    labelled = tmp_path / "q.jsonl"
    labelled.write_text(json.dumps({"text": "hi", "now": NOW, "intent": "school_status"}) + "\n")
    code, _out, err = run(capsys, "eval", str(labelled), "--db", db, "--min-accuracy", "0.9")
    assert code == 1 and "below 0.900" in err


def test_eval_bad_question_file_is_one_line(capsys, db, tmp_path):
    """A clock that is not a time is found on load, with the file and line, not as a traceback."""
    labelled = tmp_path / "q.jsonl"
    labelled.write_text(json.dumps({"text": "hi", "now": "yesterday", "intent": "help"}) + "\n")
    code, _out, err = run(capsys, "eval", str(labelled), "--db", db)
    assert code == 2 and err == f"schoolbot: {labelled}:1: now: 'yesterday' is not an ISO 8601 time\n"
    code, _out, err = run(capsys, "eval", str(tmp_path), "--db", db)
    assert code == 2 and err.count("\n") == 1 and str(tmp_path) in err


def test_chat_console_session(db):
    """The README's first command, as a subprocess with piped input."""
    result = subprocess.run(
        [sys.executable, "-m", "adapters.cli", "chat", "--db", db, "--now", NOW],
        input="is school open monday?\npeel\nwhat stopped?\nquit\n",
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Which board is your child's?" in result.stdout
    assert "Peel DSB, Monday, October 7" in result.stdout
    assert "custodians" in result.stdout


def test_settings_error_is_one_line(tmp_path):
    bad = tmp_path / "s.toml"
    bad.write_text("[database]\nfile = 'x'\n")
    result = subprocess.run([sys.executable, "-m", "adapters.cli", "ask", "--config", str(bad), "hi"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "unknown key [database] 'file'" in result.stderr


def test_many_asks_at_once_on_a_new_database(tmp_path):
    """Scripts start several `ask` processes together; the first use must not fail with 'locked'."""
    db = str(tmp_path / "fresh.db")
    cmd = [sys.executable, "-m", "adapters.cli", "ask", "--db", db, "--json", "--now", NOW, "is school open monday in peel"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(6)]
    results = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in procs]
    for code, out, err in results:
        assert code == 0, err
        assert json.loads(out)["board"] == "pdsb"
    # They all prepared the matcher and the cards at once: one whole file each, no temporary file left behind.
    names = sorted(p.name.split("-")[0] for p in (tmp_path / ".schoolbot-cache").iterdir())
    assert names == ["cards", "matcher"]


# ------------------------------------------------------------- cold start
ASK_PROBE = """
import json, sys
from adapters.cli import main
code = main(sys.argv[1:])
sys.stderr.write("MODULES " + json.dumps(sorted(sys.modules)) + "\\n")
raise SystemExit(code)
"""
# What `ask` must never load: an event loop, TLS, platform libraries, HTTP clients,
# and our own serve, platform, admin and broadcast modules, and the scoring of conversations.
NOT_FOR_ASK = {"asyncio", "ssl", "telegram", "discord", "httpx", "httpcore", "aiohttp", "anyio",
               "adapters.serve", "adapters.telegram", "adapters.discord_bot", "bot.admin", "bot.broadcast.worker",
               "bot.conversation_eval", "statistics"}


def _ask_modules(db: str, cwd) -> tuple[str, set[str]]:
    result = subprocess.run(
        [sys.executable, "-c", ASK_PROBE, "ask", "--db", db, "--now", NOW, "is school open monday in peel"],
        capture_output=True, text=True, timeout=120, cwd=cwd,
    )
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stderr.splitlines() if x.startswith("MODULES "))
    return result.stdout, set(json.loads(line.removeprefix("MODULES ")))


def _loaded(modules: set[str], names: set[str]) -> set[str]:
    """The modules that are one of `names` or inside one of them (bot.admin.changes for bot.admin)."""
    def prefixes(module: str) -> set[str]:
        parts = module.split(".")
        return {".".join(parts[:i]) for i in range(1, len(parts) + 1)}

    return {m for m in modules if prefixes(m) & names}


def test_ask_loads_no_event_loop_network_or_platform_code(tmp_path):
    db = str(tmp_path / "cold.db")
    out, first = _ask_modules(db, tmp_path)  # a new database: fills it and prepares the matcher
    assert out.startswith("Peel DSB, Monday, October 7")
    assert _loaded(first, NOT_FOR_ASK) == set()
    assert _loaded({"bot.admin.changes", "asyncio.events", "bot.adminx"}, NOT_FOR_ASK) == {"bot.admin.changes", "asyncio.events"}
    assert {"bot.core", "bot.matcher", "knowledge.store"} <= first  # the probe saw the real run
    out, warm = _ask_modules(db, tmp_path)  # the usual case: an existing database
    assert out.startswith("Peel DSB, Monday, October 7")
    assert _loaded(warm, NOT_FOR_ASK) == set()
    assert "yaml" in first and "yaml" not in warm  # the prepared matcher came from the cache
    # Reads go through plain sqlite3: sqlite-utils (~40 ms of import) only when writing (filling a new database).
    assert "sqlite_utils" in first and "sqlite_utils" not in warm
    assert list((tmp_path / ".schoolbot-cache").glob("matcher-*.pickle"))


def test_a_staff_command_through_ask_still_gets_the_staff_tools_answer(capsys, db):
    """`ask` loads the staff tools on the first command only, so a command is answered as in chat."""
    code, out, _ = run(capsys, "ask", "--db", db, "--now", NOW, "/setstatus tdsb closed monday")
    assert code == 0
    assert out.startswith("Sorry, that command is only for school board staff and administrators")


# ------------------------------------------------------- the database at start
def _schoolbot(*argv: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adapters.cli", *argv], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def _one_line(result: subprocess.CompletedProcess) -> str:
    err = result.stderr
    assert err.count("\n") == 1 and err.startswith("schoolbot: ") and "Traceback" not in err, err
    return err


def test_a_database_locked_by_another_writer_is_one_line_and_exit_3(db):
    import sqlite3

    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program in the middle of a write, e.g. an sqlite3 shell
    try:
        result = _schoolbot("ask", "--db", db, "--now", NOW, "is school open monday in peel")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.returncode == 3
    err = _one_line(result)
    assert db in err and "is locked" in err and "close it or wait" in err
    assert _schoolbot("ask", "--db", db, "--now", NOW, "is school open monday in peel").returncode == 0


def test_a_database_that_cannot_be_opened_is_one_line_and_exit_3(tmp_path):
    # /proc refuses new files whoever asks (root included): as a read-only file system does.
    result = _schoolbot("ask", "--db", "/proc/schoolbot-test.db", "hi")
    assert result.returncode == 3
    err = _one_line(result)
    assert "cannot open the database /proc/schoolbot-test.db" in err and "writable place" in err


def test_a_file_that_is_not_a_database_is_one_line_and_exit_3(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\n" * 200)
    result = _schoolbot("kb", "show", "--db", str(notes))
    assert result.returncode == 3
    assert f"{notes} is not a schoolbot database" in _one_line(result)
    assert notes.read_text() == "shopping list\n" * 200  # left as it was


def test_a_database_under_a_file_is_one_line_and_exit_2(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = _schoolbot("ask", "--db", str(blocker / "schoolbot.db"), "hi")
    assert result.returncode == 2  # a mistyped --db, like a folder that does not exist (test_database_path.py)
    assert f"{blocker} is a file, not a folder" in _one_line(result)


def test_read_only_and_other_database_errors_name_the_file_and_what_to_do():
    import sqlite3

    from bot.app import describe_database_error

    def error(name: str) -> sqlite3.Error:
        exc = sqlite3.OperationalError("x")
        exc.sqlite_errorname = name
        return exc

    assert "the database /d/s.db is read-only" in describe_database_error("/d/s.db", error("SQLITE_READONLY_DBMOVED"))
    assert "disk holding the database /d/s.db is full" in describe_database_error("/d/s.db", error("SQLITE_FULL"))
    assert describe_database_error("/d/s.db", error("SQLITE_IOERR")).startswith("cannot use the database /d/s.db")


def test_the_readme_commands_are_the_ones_ci_runs():
    repo = Path(__file__).resolve().parents[2]
    readme = (repo / "README.md").read_text(encoding="utf-8")
    ci = (repo / ".ci" / "run").read_text(encoding="utf-8")
    setup = "python3 -m venv .venv && .venv/bin/pip install -q -e '.[dev]' && "
    assert f"\n{setup}.venv/bin/schoolbot chat --now 2019-10-03T09:00:00-04:00\n" in readme
    test_command = f"\n{setup}.venv/bin/python -m pytest\n"
    assert test_command in readme and test_command in ci
    assert (repo / "tests" / "cli" / "test_wheel.py").is_file()  # the wheel check runs inside that pytest


def test_the_readme_conversation_is_exactly_what_the_console_answers(tmp_path):
    """The sample conversation on the README's first screen, typed into `schoolbot chat` as written."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = readme.split("## A conversation\n\n```\n", 1)[1].split("\n```", 1)[0]
    typed = [line[len("you> "):] for line in block.splitlines() if line.startswith("you> ")]
    result = subprocess.run(
        [sys.executable, "-m", "adapters.cli", "chat", "--db", str(tmp_path / "readme.db"), "--now", NOW],
        input="\n".join(typed) + "\nquit\n", capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    printed = result.stdout.split("\n", 1)[1].rstrip("\n")  # after the greeting line
    assert printed == block


def test_kb_list_says_which_disputes_ended(capsys, db):
    walkout = Path(__file__).resolve().parents[2] / "config" / "knowledge" / "cupe-2022-walkout.yaml"
    run(capsys, "kb", "load", str(walkout), "--db", db)
    code, out, _ = run(capsys, "kb", "list", "--db", db)
    lines = out.splitlines()
    assert code == 0
    assert next(line for line in lines if "cupe-2022-walkout" in line).endswith("walkout (ended 2022-11-20)")
    assert "ended" not in next(line for line in lines if "cupe-2019" in line)


def test_each_command_group_declares_the_commands_it_registers():
    """`schoolbot ask` builds only its own group's parser: each group's SUBCOMMANDS must be exactly what it adds."""
    import argparse

    from adapters import cli

    for group in cli.GROUPS:
        sub = argparse.ArgumentParser().add_subparsers()
        group.register(sub, argparse.ArgumentParser(add_help=False))
        assert tuple(sub.choices) == group.SUBCOMMANDS, group.__name__
    assert "ask" in cli.build_parser("ask")._subparsers._group_actions[0].choices


def test_a_known_command_still_gets_its_own_help(capsys):
    with pytest.raises(SystemExit):
        main(["ask", "--help"])
    assert "--now" in capsys.readouterr().out


def test_eval_fails_when_the_answer_comes_too_late(capsys, db, tmp_path):
    """The words are in the reply, but not in its first 160 characters: --min-up-front fails the run."""
    labelled = tmp_path / "late.jsonl"
    line = {"text": "why are they striking?", "now": NOW, "intent": "dispute_issues", "reply_has": ["online learning"]}
    labelled.write_text(json.dumps(line) + "\n")
    code, _out, _err = run(capsys, "eval", str(labelled), "--db", db, "--min-reply-words", "1.0")
    assert code == 0
    code, _out, err = run(capsys, "eval", str(labelled), "--db", db, "--min-up-front", "1.0")
    assert code == 1 and "answer up front 0.000 is below 1.000" in err
