"""A database that stops taking writes mid-run (a disk remounted read-only, a full disk): the bot keeps answering
from the knowledge, holds what it could not write, says so once in the log, and writes it when it can again.

The database is made read-only the way SQLite itself refuses writes on such a disk (``PRAGMA query_only``:
every write fails with "attempt to write a readonly database"); nothing of ours is replaced.
"""

from __future__ import annotations

import logging

from tests.conftest import message

QUESTIONS = [  # new users and known ones, a first question, a follow-up, a question with a board
    ("is school open monday in peel?", "p1"),
    ("what about tuesday?", "p1"),
    ("will the custodians still clean", "p2"),
    ("is school open monday in peel?", "p3"),
    ("what does work-to-rule mean?", "p4"),
]


def _read_only(store, on: bool) -> None:
    store.conn.execute(f"PRAGMA query_only = {'ON' if on else 'OFF'}")


def test_parents_are_answered_and_nothing_is_lost_while_the_disk_is_read_only(bot, store, caplog):
    before = bot.handle(message("is school open monday in peel?", user="p0"))[0].text
    store.questions.flush()
    logged = store.questions.count()
    _read_only(store, True)
    with caplog.at_level(logging.INFO):
        answers = {}
        for text, user in QUESTIONS:
            replies = bot.handle(message(text, user=user))
            assert replies and not any("something went wrong" in r.text for r in replies), (text, replies)
            answers.setdefault(text, replies[0].text)
        store.questions.flush()  # the batch's time comes: the database refuses it
        store.questions.flush()
        assert answers["is school open monday in peel?"] == before  # the knowledge answers as before
        assert "Tuesday" in answers["what about tuesday?"]  # the conversation held in memory
        refused = [r for r in caplog.records if "refuses writes" in r.getMessage()]
        assert len(refused) == 1 and refused[0].levelno >= logging.WARNING  # said once, and clearly
        assert not any(r.exc_info for r in caplog.records if r.levelno >= logging.WARNING)  # no tracebacks
        caplog.clear()

        _read_only(store, False)
        store.questions.flush()
        again = [r for r in caplog.records if "takes writes again" in r.getMessage()]
        assert len(again) == 1 and "5 question-log rows" in again[0].getMessage()
    assert store.questions.count() == logged + len(QUESTIONS)  # every question asked meanwhile is in the log
    assert bot.handle(message("and wednesday?", user="p1"))[0].text.startswith("Peel DSB, Wednesday")  # context kept


def test_a_write_a_command_needs_still_fails_honestly(bot, store):
    """/board must save the board: on a read-only disk it cannot, and says that something went wrong."""
    _read_only(store, True)
    reply = bot.handle(message("/board tdsb", user="p9"))[0].text
    _read_only(store, False)
    assert "something went wrong" in reply
    assert bot.handle(message("/board", user="p9"))[0].text  # nothing half-written: the bot goes on


def test_what_is_held_when_the_bot_stops_is_said_lost(settings, shared_matcher, caplog):
    """Stopping while the database still refuses writes: one line says how much of what was held is lost."""
    from bot.app import build_bot, open_knowledge
    from tests.conftest import THURSDAY

    store = open_knowledge(settings)
    bot = build_bot(settings, store=store, clock=lambda: THURSDAY, matcher=shared_matcher)
    _read_only(store, True)
    for text, user in QUESTIONS:
        bot.handle(message(text, user=user))
    with caplog.at_level(logging.ERROR, logger="schoolbot.store"):
        store.close()
    lost = [r.getMessage() for r in caplog.records if "are lost" in r.getMessage()]
    assert len(lost) == 1 and "5 question-log rows and 4 conversation contexts" in lost[0], caplog.text
