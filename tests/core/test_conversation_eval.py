"""Scoring conversations (bot/conversation_eval.py): one parent, one chat, turns in order, through the real bot."""

import ast
import json

import pytest

from bot.conversation_eval import evaluate_conversations, file_kind, read_conversations

CONVERSATIONS = [
    {"id": "peel", "now": "2019-10-03T08:15:00-04:00", "lang": "en", "turns": [
        # the words are there, but the reply is longer than allowed
        {"text": "is school open monday? peel", "reply_has": ["peel", "monday|oct 7"], "reply_not": ["teachers are not"],
         "max_chars": 300},
        {"text": "and my other kid at tcdsb?", "followup": True, "reply_has": ["tcdsb|toronto catholic"]},
        {"text": "ok thx", "followup": True, "max_chars": 80, "reply_not": ["not sure", "/subscribe"]},
    ]},
    {"id": "why", "now": "2019-10-03T09:00:00-04:00", "lang": "en", "turns": [
        {"text": "is school open monday in peel", "reply_has": ["peel dsb, monday"]},
        {"text": "what about tuesday", "followup": True, "reply_has": ["tuesday, october 8", "PEEL"]},
        {"text": "why are they striking?", "reply_has": ["online learning", "a word never said"]},
    ]},
    {"id": "fr", "now": "2019-10-03T20:00:00-04:00", "lang": "fr", "user_board": "pdsb", "turns": [
        "est-ce qu'il y a de l'école lundi?",  # a turn as a string: the text alone, as in the shared devset
        {"text": "merci", "followup": True, "reply_has": ["DE RIEN"], "max_chars": 120},
    ]},
]


def write(tmp_path, rows, name="conversations.jsonl") -> str:
    path = tmp_path / name
    path.write_text("".join((row if isinstance(row, str) else json.dumps(row, ensure_ascii=False)) + "\n" for row in rows),
                    encoding="utf-8")
    return str(path)


@pytest.fixture
def report(bot, tmp_path):
    path = write(tmp_path, CONVERSATIONS)
    assert file_kind(path) == "conversations"
    return evaluate_conversations(bot, read_conversations(path))


def test_each_turn_is_checked_as_the_parent_reads_it(report):
    peel, why, french = report.conversations
    assert [t.failures for t in peel.turns] == [
        ["315 characters, over max_chars 300"],
        [],
        ["reply_not '/subscribe': in the reply"],
    ]
    assert peel.turns[0].reply.startswith("Peel DSB, Monday, October 7")
    assert peel.turns[1].reply.startswith("TCDSB, Monday, October 7: not confirmed")  # the other child's board, same day
    assert why.turns[1].reply.startswith("Peel DSB, Tuesday, October 8")  # the follow-up kept the board
    assert why.turns[2].failures == ["reply_has 'online learning': only after the first 200 characters",
                                     "reply_has 'a word never said': not in the reply"]
    assert "online learning" in why.turns[2].reply[200:]
    assert french.turns[0].reply.startswith("Peel DSB, lundi 7 octobre")  # user_board, set before the first turn
    assert french.turns[0].checks == ["answered (no checks)"] and french.turns[0].passed
    assert french.turns[1].passed and french.turns[1].reply.startswith("De rien!")  # no case, no accents


def test_the_turns_go_at_the_conversations_clock_one_chat_each(report):
    peel, why, _ = report.conversations
    assert [t.at.isoformat() for t in peel.turns] == [
        "2019-10-03T08:15:00-04:00", "2019-10-03T08:15:10-04:00", "2019-10-03T08:15:20-04:00"]
    # another conversation is another parent: "is school open monday in peel" does not lean on the tcdsb board
    assert why.turns[0].reply.startswith("Peel DSB, Monday")


def test_the_figures(report):
    assert report.passing() == (5 / 8, 8)
    assert report.followups() == (3 / 4, 4)
    assert report.render().splitlines() == [
        "conversations:      3 (1 with every turn passing)",
        "turns:              8 (4 follow-ups)",
        "turns passing:      0.625 (5 of 8)",
        "follow-ups passing: 0.750 (3 of 4)",
        "reply_has up front: 0.833 (5 of 6 turns with reply_has; every item in the first 200 characters)",
        "reply_not violated: 1 (in 1 of 2 turns with reply_not)",
        "over max_chars:     1 (of 3 turns with max_chars)",
        "median reply:       315 characters; over 400: 0.000 (0 of 8)",
        "turns passing [en]: 0.500 (3 of 6)",
        "turns passing [fr]: 1.000 (2 of 2)",
    ]


def test_the_errors_list_the_first_failing_turns(report):
    text = report.render(show_errors=2)
    errors = text.split("\n\n", 1)[1].splitlines()
    assert errors[0] == "failing turns (first 2 of 3):"
    assert errors[1] == "  peel turn 1: 'is school open monday? peel'"
    assert errors[2] == "    failed: 315 characters, over max_chars 300"
    assert errors[3].startswith("    reply:  'Peel DSB, Monday, October 7: not decided yet")
    assert len(ast.literal_eval(errors[3].split(":", 1)[1].strip())) == 200  # the reply's first 200 characters
    assert errors[4] == "  peel turn 3 (follow-up): 'ok thx'"
    assert errors[5] == "    failed: reply_not '/subscribe': in the reply"
    assert len(errors) == 7
    assert "failing turns" not in report.render()


def test_the_transcript_reads_as_the_chat(report):
    text = report.transcript()
    assert text.startswith("=== peel, Thu 2019-10-03 08:15:00 -0400, lang en\n\n[1] 08:15:00\n"
                           "you> is school open monday? peel\nbot> Peel DSB, Monday, October 7")
    assert "\n     If a strike closes schools" in text  # a reply's next lines are indented under it
    assert "FAIL: 315 characters, over max_chars 300  [315 characters]" in text
    assert "[2] 08:15:10  (follow-up)\nyou> and my other kid at tcdsb?\n" in text
    assert "PASS: reply_has  [315 characters]" in text
    assert "=== fr, Thu 2019-10-03 20:00:00 -0400, lang fr, user_board pdsb" in text
    assert "PASS: answered (no checks)" in text and "PASS: reply_has, max_chars 120" in text
    assert text.count("you> ") == 8 and text.count("bot> ") == 8 and text.endswith("characters]\n")


def test_a_turn_without_checks_fails_only_without_a_reply():
    from datetime import datetime

    from bot.conversation_eval import TurnResult, score

    at = datetime.fromisoformat("2019-10-03T09:00:00-04:00")
    assert score(TurnResult("c", 1, at, {"text": "hi"}, "Hello!")).passed
    assert score(TurnResult("c", 1, at, {"text": "hi"}, "")).failures == ["no reply"]


@pytest.mark.parametrize(("line", "problem"), [
    ("{not json", "not valid JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ("[1, 2]", "a line must be a JSON object"),
    ({"id": "x", "turns": ["hi"]}, "a conversation needs id, now and turns (missing: now)"),
    ({"now": "2019-10-03T09:00:00-04:00"}, "a conversation needs id, now and turns (missing: id, turns)"),
    ({"id": 7, "now": "2019-10-03T09:00:00-04:00", "turns": ["hi"]}, "id must be a non-empty string"),
    ({"id": "x", "now": "thursday", "turns": ["hi"]}, "now: 'thursday' is not an ISO 8601 time"),
    ({"id": "x", "now": "2019-10-03T09:00:00-04:00", "turns": []}, "turns must be a non-empty list"),
    ({"id": "x", "now": "2019-10-03T09:00:00-04:00", "turns": "hi"}, "turns must be a non-empty list"),
    ({"id": "x", "now": "2019-10-03T09:00:00-04:00", "turns": ["hi", {"reply_has": ["a"]}]}, "turn 2: no text"),
    ({"id": "x", "now": "2019-10-03T09:00:00-04:00", "turns": [" "]}, "turn 1: text must be a non-empty string"),
    ({"id": "x", "now": "2019-10-03T09:00:00-04:00", "turns": [3]}, "turn 1: a turn is a string or an object with a text"),
    ({"id": "x", "now": "2019-10-03T09:00:00-04:00", "turns": [{"text": "hi", "reply_has": "peel"}]},
     "turn 1: reply_has must be a list of non-empty strings"),
    ({"id": "x", "now": "2019-10-03T09:00:00-04:00", "turns": [{"text": "hi", "reply_not": ["|"]}]},
     "turn 1: reply_not must be a list of non-empty strings"),
    ({"id": "x", "now": "2019-10-03T09:00:00-04:00", "turns": [{"text": "hi", "max_chars": "80"}]},
     "turn 1: max_chars must be a positive whole number"),
    ({"id": "x", "now": "2019-10-03T09:00:00-04:00", "turns": [{"text": "hi", "followup": "yes"}]},
     "turn 1: followup must be true or false"),
    ({"id": "x", "now": "2019-10-03T09:00:00-04:00", "turns": [{"text": "hi", "reply_hass": ["a"]}]},
     "turn 1: unknown key 'reply_hass' (a turn has followup, max_chars, reply_has, reply_not, text)"),
    ({"id": "x", "now": "2019-10-03T09:00:00-04:00", "lang": ["en"], "turns": ["hi"]}, "lang must be a string"),
])
def test_a_wrong_line_is_one_line_naming_the_file_and_line(tmp_path, line, problem):
    path = write(tmp_path, [{"id": "ok", "now": "2019-10-03T09:00:00-04:00", "turns": ["hi"]}, line])
    with pytest.raises(ValueError) as caught:
        read_conversations(path)
    assert str(caught.value) == f"{path}:2: {problem}"


def test_an_id_twice_and_a_file_of_both_kinds_are_refused(tmp_path):
    conversation = {"id": "a", "now": "2019-10-03T09:00:00-04:00", "turns": ["hi"]}
    path = write(tmp_path, [conversation, conversation])
    with pytest.raises(ValueError, match=r":2: id 'a' is already on line 1$"):
        read_conversations(path)
    question = {"text": "hi", "now": "2019-10-03T09:00:00-04:00", "intent": "help"}
    path = write(tmp_path, [question, "", conversation], "mixed.jsonl")
    with pytest.raises(ValueError) as caught:
        file_kind(path)
    assert str(caught.value) == (f"{path}:3: a conversation line in a file of questions (line 1); "
                                 "a file holds questions or conversations, not both")
    assert file_kind(write(tmp_path, [question], "questions.jsonl")) == "questions"
