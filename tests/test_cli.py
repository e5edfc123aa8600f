"""The command line: the `ask` contract, eval, kb and chat, as scripts and people use them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.cli import main

NOW = "2019-10-03T09:00:00-04:00"
DEVSET = Path(__file__).resolve().parents[2] / "shared" / "devset" / "questions.jsonl"


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
    assert "Toronto District School Board, tomorrow, Friday, October 4" in out


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
        assert code == 0 and "1 statuses" in out
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


def test_chat_console_session(db):
    """The README's first command, as a subprocess with piped input."""
    result = subprocess.run(
        [sys.executable, "-m", "adapters.cli", "chat", "--db", db, "--now", NOW],
        input="is school open monday?\npeel\nwhat stopped?\nquit\n",
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Which board is your child's?" in result.stdout
    assert "Peel District School Board, Monday, October 7" in result.stdout
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
