"""The seam between the core and bot/answering/: a Turn and a Session in, an Answer out, the Turn left as it was."""

from __future__ import annotations

import dataclasses

import pytest

from bot.answering import pipeline
from bot.conversation import Context
from bot.replies import Voice
from bot.session import Session
from bot.turn import Answer, Turn
from tests.conftest import THURSDAY, message


def _turn(bot, text: str, context: Context | None = None) -> Turn:
    knowledge = bot.store.knowledge()
    analysis = bot.matcher.analyse(text, THURSDAY.date(), "en")
    board = knowledge.board(analysis.board.board_id) if analysis.board else None
    return Turn(message(text), analysis, THURSDAY.date(), None, knowledge, board=board,
                day=analysis.date.day if analysis.date else None, context=context or Context(), voice=Voice("en"))


def test_the_bot_is_a_session(bot):
    asked = {name for name in vars(Session) if not name.startswith("_")}
    assert {"remember_board", "subscribed", "log_pick", "card_index", "subjects", "boards", "dry_run"} <= asked
    assert [name for name in sorted(asked) if not hasattr(bot, name)] == []


def test_an_answer_comes_back_and_the_turn_is_left_as_it_was(bot):
    turn = _turn(bot, "is tdsb open monday?")
    before = dataclasses.replace(turn, analysis=turn.analysis.copy(), meta=dict(turn.meta))
    answer = pipeline.answer(bot, turn, turn.msg.text, False, bot.settings)
    assert isinstance(answer, Answer)
    assert answer.intent == "school_status" and answer.board.id == "tdsb" and answer.day is not None
    assert answer.texts and all(answer.texts) and "TDSB" in answer.texts[0]
    assert turn.analysis == before.analysis and turn.board is before.board and turn.day == before.day
    assert turn.card is None and turn.topic is None and turn.meta == {}
    with pytest.raises(dataclasses.FrozenInstanceError):
        answer.intent = "help"  # type: ignore[misc]


def test_answering_may_read_the_message_otherwise_and_says_so_in_the_answer(bot):
    turn = _turn(bot, "thanks so much")
    answer = pipeline.answer(bot, turn, turn.msg.text, False, bot.settings)
    assert answer.intent == "help" and answer.texts
    assert turn.analysis.intent == bot.matcher.analyse("thanks so much", THURSDAY.date(), "en").intent


def test_the_answer_type_names_what_the_core_reads():
    fields = {f.name for f in dataclasses.fields(Answer)}
    assert {"texts", "intent", "topic", "board", "day", "card", "meta", "confidence"} <= fields
