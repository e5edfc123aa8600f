"""Conversation contexts are held in memory and written in batches: never lost by the bot that holds them."""

from __future__ import annotations

import json
import sqlite3

from knowledge.store import open_store
from tests.conftest import message


def on_disk(settings, user: str = "u1") -> tuple | None:
    """The user's row as another program reading the file sees it."""
    conn = sqlite3.connect(settings.database.path)
    try:
        return conn.execute("SELECT board, pending, language FROM users WHERE platform = 'test' AND user_id = ?",
                            (user,)).fetchone()
    finally:
        conn.close()


def test_a_new_user_and_a_new_language_are_written_at_once_the_next_contexts_held(bot, store, settings):
    bot.handle(message("is school open monday in peel"))  # no row yet: written at once, language and all
    assert not store.contexts.held and on_disk(settings)[2] == "en"
    bot.handle(message("what about tuesday?"))
    assert ("test", "u1") in store.contexts.held  # the same language: held, not written yet
    assert store.get_user("test", "u1")["pending"]["day"] == "2019-10-08"
    bot.handle(message("l'école est-elle ouverte lundi à peel?"))  # French now: a broadcast reads that column
    assert not store.contexts.held and on_disk(settings)[2] == "fr"


def test_a_board_is_written_at_once_and_the_context_after_it_is_held(bot, store, settings):
    bot.handle(message("is school open monday in peel"))
    bot.handle(message("/board tdsb"))  # the board at once; the store knows the row it wrote
    assert on_disk(settings)[0] == "tdsb" and ("test", "u1") in store.contexts.held
    assert store.get_user("test", "u1")["board"] == "tdsb"
    store.flush_questions()  # the held context goes with the question log's batch
    assert not store.contexts.held and json.loads(on_disk(settings)[1]) == store.get_user("test", "u1")["pending"]
    assert bot.handle(message("is school open monday?"))[0].meta["board"] == "tdsb"


def test_a_follow_up_leans_on_a_context_not_yet_written(bot, store):
    bot.handle(message("hello"))
    bot.handle(message("is school open monday in peel"))
    assert ("test", "u1") in store.contexts.held
    assert store.get_user("test", "u1")["pending"]["topic"] == "school_status"
    assert "Tuesday" in bot.handle(message("what about tuesday?"))[0].text


def test_held_contexts_are_written_at_close_and_read_after_a_restart(bot, store, settings):
    bot.handle(message("hello"))
    bot.handle(message("is school open monday in peel"))
    assert ("test", "u1") in store.contexts.held
    store.close()
    assert '"school_status"' in on_disk(settings)[1]
    again = open_store(settings.database.path)
    try:
        assert again.get_user("test", "u1")["pending"]["topic"] == "school_status"
    finally:
        again.close()


def test_a_quiet_bot_writes_them_after_a_while(bot, store, settings, monkeypatch):
    monkeypatch.setattr(store.contexts, "FLUSH_SECONDS", 0.0)
    bot.handle(message("hello"))
    bot.handle(message("is school open monday in peel"))
    timer = store.contexts._timer  # None when it has fired already
    if timer is not None:
        timer.join()  # the timer's own thread, as when no other question comes
    assert not store.contexts.held and '"school_status"' in on_disk(settings)[1]


def test_a_board_is_written_at_once_and_keeps_the_held_context(bot, store, settings):
    bot.handle(message("hello"))
    bot.handle(message("is school open monday"))
    bot.handle(message("/board tdsb"))
    assert on_disk(settings)[0] == "tdsb"
    user = store.get_user("test", "u1")
    assert user["board"] == "tdsb" and user["pending"] is not None


def test_they_go_with_the_question_log_batch_and_in_batches_of_their_own(bot, store, settings, monkeypatch):
    users = [f"p{i}" for i in range(store.questions.BATCH)]
    for user in users:
        bot.handle(message("hello", user=user))  # their rows, written at once
    store.flush_questions()
    for user in users:
        bot.handle(message("is school open monday in peel", user=user))
    last = users[-1]  # its question was logged (and the batch written) before its context
    assert list(store.contexts.held) == [("test", last)] and '"school_status"' in on_disk(settings, "p0")[1]
    store.contexts.flush()
    monkeypatch.setattr(store.contexts, "BATCH", 3)
    for user in users[:3]:
        bot.handle(message("what about tuesday?", user=user))
    assert not store.contexts.held and '"2019-10-08"' in on_disk(settings, "p2")[1]


def test_a_context_held_and_written_stays_what_the_bot_reads(bot, store):
    bot.handle(message("hello"))
    bot.handle(message("is school open monday in peel"))
    held = store.get_user("test", "u1")
    store.contexts.flush()
    assert store.get_user("test", "u1") == held


def test_a_user_changed_by_another_program_is_read_again(store, settings, monkeypatch):
    monkeypatch.setattr(store, "VERSION_SECONDS", 0.0)  # look at the change counter on every read
    store.set_user("test", "u1", board="tdsb")
    assert store.get_user("test", "u1")["board"] == "tdsb"  # now kept read
    other = open_store(settings.database.path)
    try:
        other.set_user("test", "u1", board="pdsb")
    finally:
        other.close()
    assert store.get_user("test", "u1")["board"] == "pdsb"
