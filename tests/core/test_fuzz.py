"""Property test: whatever arrives through Bot.handle, the bot answers and loses nothing.

Arbitrary text (lone surrogates, NUL, bidi marks, 20,000 characters), commands
with junk arguments (public and staff ones, from parents, staff and admins),
odd dates in the text and odd message times (year 1 to 9999, any offset), in
private chats and groups. For every message: no exception and no "something
went wrong" fallback, a reply unless it is an unaddressed group message, and
every question the core logs is in the question log.

CI runs FUZZ_EXAMPLES (default 300, a few seconds). The long run:

    SCHOOLBOT_FUZZ_EXAMPLES=100000 .venv/bin/python -m pytest -q tests/core/test_fuzz.py -p no:cacheprovider
"""

from __future__ import annotations

import logging
import os
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.admin import REGISTRY
from bot.app import build_bot, open_knowledge
from bot.commands import COMMANDS
from bot.messages import ChatKind, Incoming
from bot.settings import Settings

EXAMPLES = int(os.environ.get("SCHOOLBOT_FUZZ_EXAMPLES", "300"))
USERS = ["parent", "1", "777"]  # a parent, a province admin, TDSB staff
COMMAND_NAMES = sorted({c.name for c in COMMANDS} | set(REGISTRY) | {"confirm", "undo", "nosuch", "status@bot"})
DATE_WORDS = ["2019-02-30", "feb 30", "31st of june", "monday", "tomorrow", "0th", "25:00", "oct 7 9999", "jan 1 0001",
              "from", "until", "today", "in 3 weeks", "last friday", "12/13/2019", "32 oct", "1e9", "-1"]
WORDS = ["tdsb", "peel", "all", "province", "|", ":", "school", "open", "strike", "?", "test:42", "closed", "talks",
         "also:", "source:", "\n", "\u202e", "\x00", "\ud800", "\U0001f600", "é", "ﷺ", "   "]


def _text() -> st.SearchStrategy[str]:
    anything = st.text(st.characters(exclude_categories=()), max_size=300)
    phrase = st.lists(st.sampled_from(WORDS + DATE_WORDS) | anything, max_size=12).map(" ".join)
    command = st.builds(lambda name, args: f"/{name} {args}", st.sampled_from(COMMAND_NAMES), phrase)
    huge = st.integers(1, 40_000).map(lambda n: "is school open " * (n // 15))
    return st.one_of(anything, phrase, command, huge)


ZONES = st.sampled_from([UTC, ZoneInfo("America/Toronto"), timezone(timedelta(hours=14)), timezone(timedelta(hours=-12))])
TIMES = st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=ZONES)
MESSAGES = st.builds(
    lambda text, user, at, kind, addressed: Incoming("test", f"chat-{user}" if kind != ChatKind.PRIVATE else user,
                                                     user, text, at, kind, addressed),
    _text(), st.sampled_from(USERS), TIMES | st.just(datetime(2019, 10, 3, 9, tzinfo=ZoneInfo("America/Toronto"))),
    st.sampled_from([ChatKind.PRIVATE, ChatKind.PRIVATE, ChatKind.GROUP]), st.booleans(),
)


@pytest.fixture(scope="module")
def fuzz_bot(tmp_path_factory, shared_matcher):
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    config = Settings().replace("database", path=str(path)).replace(
        "roles", province_admins=("test:1",), board_staff=("test:777=tdsb",))
    store = open_knowledge(config)
    bot = build_bot(config, store=store, matcher=shared_matcher)
    calls = []
    add = store.questions.add
    store.questions.add = lambda *args, **kwargs: (calls.append(args), add(*args, **kwargs))[1]
    yield bot, calls
    store.close()


class _Failures(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=EXAMPLES <= 300)
@given(messages=st.lists(MESSAGES, min_size=1, max_size=4))
def test_any_message_gets_an_answer_and_nothing_is_lost(fuzz_bot, messages):
    bot, calls = fuzz_bot
    failures = _Failures()
    logging.getLogger("schoolbot").addHandler(failures)
    try:
        for msg in messages:
            before = bot.store.questions.count()
            asked = len(calls)
            replies = bot.handle(msg)
            if msg.chat_kind == ChatKind.PRIVATE or msg.addressed:
                assert replies and all(r.text.strip() for r in replies), msg
            else:
                assert replies == []
            assert not any("something went wrong" in r.text for r in replies), msg
            assert bot.store.questions.count() == before + (len(calls) - asked)  # every logged question kept
    finally:
        logging.getLogger("schoolbot").removeHandler(failures)
    assert not failures.records, failures.records[0].getMessage() + "\n" + str(failures.records[0].exc_info)
