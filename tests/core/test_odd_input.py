"""Whatever arrives, the bot answers or declines politely, and never raises."""

import random

import pytest

from tests.conftest import message

ODD = [
    "",
    "   ",
    "\n\n\t",
    "?",
    "🙂🙂🙂",
    "🏫 open mon? 🤔",
    "\x00\x01\x02 school \x1b[31m open \x7f",
    "Robert'); DROP TABLE users;--",
    "' OR 1=1 --",
    "<b>is school open</b> <script>alert(1)</script>",
    "@everyone is school open",
    "est-ce que l'école est ouverte lundi?",
    "¿hay escuela el lunes?",
    "學校星期一開放嗎",
    "/",
    "/unknowncommand with args",
    "/board",
    "/status nosuchboard",
    "/subscribe @everyone",
    "a" * 50_000,
    "is school open monday " * 2500,
    "\u202eevil bidi text\u202c",
    "null",
    "{\"text\": 1}",
]


@pytest.mark.parametrize("text", ODD, ids=range(len(ODD)))
def test_odd_input_gets_a_polite_answer(bot, text):
    replies = bot.handle(message(text))
    assert replies, "always some reply in a private chat"
    for reply in replies:
        assert reply.text.strip()
        assert "Traceback" not in reply.text
        assert "something went wrong" not in reply.text  # handled, not caught as a crash


def test_random_bytes_never_crash(bot):
    rng = random.Random(7)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 ?!.,'\"/@#\n\t\x00é漢🙂"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 200)))
        replies = bot.handle(message(text))
        assert replies and all("something went wrong" not in r.text for r in replies)


def test_a_crash_inside_becomes_a_polite_reply(bot, store):
    store.conn.execute("DROP TABLE users")  # the database is broken under the bot's feet
    replies = bot.handle(message("is school open monday"))
    assert "something went wrong on my side" in replies[0].text


def test_sql_looking_text_is_stored_as_text(bot, store):
    bot.handle(message("/board tdsb", user="x'); DROP TABLE users;--"))
    assert store.get_user("test", "x'); DROP TABLE users;--")["board"] == "tdsb"


@pytest.mark.parametrize("stored", [{"at": 5, "topic": []}, {"awaiting": "choice", "asked": "x", "choices": [1]},
                                    {"zzz": 1}, {"intent": "nope", "date": "2019-02-30"}, {"awaiting": "choice", "choices": ["gone"], "asked": "2019-10-03T08:59:00-04:00"}])
def test_a_damaged_conversation_memory_is_ignored(bot, store, stored):
    store.set_user("test", "u1", pending=stored)
    for text in ("1", "what about tuesday", "more", "why?", "peel"):
        replies = bot.handle(message(text))
        assert replies and "something went wrong" not in replies[0].text
