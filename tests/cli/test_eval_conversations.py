"""`schoolbot eval` on a conversation file: the report, the bars, the transcript and the one-line errors."""

import json
from pathlib import Path

import pytest

from adapters.cli import main

NOW = "2019-10-03T09:00:00-04:00"
DEVSET = Path(__file__).resolve().parents[3] / "shared" / "devset"

CONVERSATIONS = [
    {"id": "peel", "now": "2019-10-03T08:15:00-04:00", "lang": "en", "turns": [
        {"text": "is school open monday? peel", "reply_has": ["peel", "monday|oct 7"], "max_chars": 300},
        {"text": "what about tuesday", "followup": True, "reply_has": ["tuesday, october 8"]},
        {"text": "ok thx", "followup": True, "max_chars": 80, "reply_not": ["/subscribe"]},
    ]},
    {"id": "alerts", "now": NOW, "turns": [
        "/subscribe peel",
        {"text": "thanks", "followup": True, "reply_not": ["not sure"]},
    ]},
]


@pytest.fixture
def db(settings):
    return settings.database.path


@pytest.fixture
def conversations(tmp_path) -> str:
    path = tmp_path / "conversations.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in CONVERSATIONS), encoding="utf-8")
    return str(path)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_eval_scores_a_conversation_file(capsys, db, conversations):
    code, out, err = run(capsys, "eval", conversations, "--db", db, "--errors", "5")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[:7] == [
        "conversations:      2 (1 with every turn passing)",
        "turns:              5 (3 follow-ups)",
        "turns passing:      0.600 (3 of 5)",
        "follow-ups passing: 0.667 (2 of 3)",
        "reply_has up front: 1.000 (2 of 2 turns with reply_has; every item in the first 200 characters)",
        "reply_not violated: 1 (in 1 of 2 turns with reply_not)",
        "over max_chars:     1 (of 2 turns with max_chars)",
    ]
    assert lines[7].startswith("median reply:       ") and "over 400: 0.000 (0 of 5)" in lines[7]
    assert lines[8] == "turns passing [en]: 0.333 (1 of 3)"  # the other conversation has no lang
    assert lines[10] == "failing turns (first 2 of 2):"
    assert lines[11:13] == ["  peel turn 1: 'is school open monday? peel'", "    failed: 315 characters, over max_chars 300"]
    assert lines[14:16] == ["  peel turn 3 (follow-up): 'ok thx'", "    failed: reply_not '/subscribe': in the reply"]
    assert lines[16] == "    reply:  \"You're welcome! Send /subscribe to get your board's official updates.\""


def test_conversations_talk_to_a_bot_as_chat_does_and_leave_the_database_alone(capsys, db, conversations, store,
                                                                               tmp_path):
    transcript = tmp_path / "out" / "transcript.txt"
    transcript.parent.mkdir()
    code, _out, _err = run(capsys, "eval", conversations, "--db", db, "--transcript", str(transcript))
    assert code == 0
    text = transcript.read_text(encoding="utf-8")
    assert "=== alerts, Thu 2019-10-03 09:00:00 -0400\n\n[1] 09:00:00\nyou> /subscribe peel\n" in text
    # as `schoolbot chat` answers, not "You would be subscribed" (a dry run)
    assert "bot> You will now get official updates for Peel District School Board." in text
    assert "[2] 09:00:10  (follow-up)\nyou> thanks\n" in text
    assert "FAIL: reply_not '/subscribe': in the reply  [69 characters]" in text
    assert text.count("PASS: ") == 3 and text.count("FAIL: ") == 2
    # the subscription, the users and the question log went to a copy
    assert store.db["subscriptions"].count == 0 and store.db["users"].count == 0
    assert store.db["question_log"].count == 0


@pytest.mark.parametrize(("bars", "code", "said"), [
    (["--min-turns", "0.6"], 0, ""),
    (["--min-turns", "0.61"], 1, "FAILED: turns passing 0.600 is below 0.610\n"),
    (["--min-followups", "0.66"], 0, ""),
    (["--min-followups", "0.7"], 1, "FAILED: follow-ups passing 0.667 is below 0.700\n"),
    (["--min-turns", "0.9", "--min-followups", "0.9"], 1,
     "FAILED: turns passing 0.600 is below 0.900\nFAILED: follow-ups passing 0.667 is below 0.900\n"),
])
def test_the_bars(capsys, db, conversations, bars, code, said):
    got, _out, err = run(capsys, "eval", conversations, "--db", db, *bars)
    assert (got, err) == (code, said)


def test_the_bars_of_one_kind_are_refused_on_the_other(capsys, db, conversations, tmp_path):
    code, out, err = run(capsys, "eval", conversations, "--db", db, "--min-accuracy", "0.9")
    assert (code, out) == (2, "")
    assert err == (f"schoolbot: --min-accuracy is for question files; {conversations} holds conversations "
                   "(use --min-turns or --min-followups)\n")
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"text": "hi", "now": NOW, "intent": "help"}) + "\n")
    for option in ("--min-turns", "--min-followups", "--transcript"):
        code, out, err = run(capsys, "eval", str(questions), "--db", db, option, "1")
        assert (code, out) == (2, "")
        assert err == (f"schoolbot: {option} is for conversation files; {questions} has no conversation "
                       "(no line with \"turns\")\n")


def test_a_wrong_file_is_one_line(capsys, db, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(CONVERSATIONS[0]) + "\n" + json.dumps({"id": "b", "now": NOW, "turns": [{"reply_has": []}]}))
    code, out, err = run(capsys, "eval", str(bad), "--db", db)
    assert (code, out, err) == (2, "", f"schoolbot: {bad}:2: turn 1: no text\n")
    bad.write_text(json.dumps(CONVERSATIONS[0]) + "\n" + json.dumps({"text": "hi", "now": NOW, "intent": "help"}) + "\n")
    code, out, err = run(capsys, "eval", str(bad), "--db", db)
    assert (code, out) == (2, "")
    assert err == f"schoolbot: {bad}:2: a question line in a file of conversations (line 1); " \
                  "a file holds questions or conversations, not both\n"
    code, _out, err = run(capsys, "eval", str(tmp_path / "none.jsonl"), "--db", db)
    assert code == 2 and err.endswith("none.jsonl: no such file: check the path\n")


def test_a_transcript_that_cannot_be_written_is_said_before_the_run(capsys, db, conversations, tmp_path):
    code, out, err = run(capsys, "eval", conversations, "--db", db, "--transcript", str(tmp_path / "no" / "t.txt"))
    assert (code, out) == (2, "")
    assert err == f"schoolbot: --transcript: {tmp_path / 'no' / 't.txt'}: No such file or directory\n"


@pytest.mark.skipif(not (DEVSET / "conversations.jsonl").exists(), reason="../shared/devset not present")
def test_the_shared_conversations_with_turns_as_plain_text(capsys, db, tmp_path):
    transcript = tmp_path / "devset.txt"
    code, out, err = run(capsys, "eval", str(DEVSET / "conversations.jsonl"), "--db", db, "--min-turns", "1",
                         "--min-followups", "0.9", "--transcript", str(transcript))
    assert code == 0
    assert out.splitlines()[:2] == ["conversations:      12 (12 with every turn passing)", "turns:              48 (0 follow-ups)"]
    assert "follow-ups passing: - (no turn is a follow-up)" in out
    assert err == f"note: --min-followups not applied: no follow-ups in {DEVSET / 'conversations.jsonl'}\n"
    assert transcript.read_text(encoding="utf-8").count("PASS: answered (no checks)") == 48


def test_help_says_which_bars_go_with_which_file(capsys):
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "questions: exit 1 when intent accuracy is below this" in text
    assert "conversations: exit 1 when the share of turns passing every check is below this" in text
    assert "a bar or option for the other kind of file is a usage error (exit 2)" in text
