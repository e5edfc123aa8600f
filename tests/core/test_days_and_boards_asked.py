"""What a short status question means by the clock and its punctuation.

"is school open?" asked in the evening is about the school day ahead; "peel?" alone asks for that board's
day (it is no setting); "friday cancelled too?" asks about Friday, it does not stop the updates.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from tests.conftest import TORONTO, message


def ask(bot, text: str, at: datetime, user: str = "p1") -> str:
    return "\n".join(r.text for r in bot.handle(message(text, at=at, user=user)))


@pytest.mark.parametrize(("hour", "day"), [(9, "today, Thursday, October 3"), (17, "today, Thursday, October 3"),
                                           (18, "tomorrow, Friday, October 4"), (23, "tomorrow, Friday, October 4")])
def test_a_status_question_with_no_day_is_about_the_school_day_ahead_from_the_evening(bot, hour, day):
    reply = ask(bot, "is school open in peel?", datetime(2019, 10, 3, hour, 0, tzinfo=TORONTO), user=f"h{hour}")
    assert reply.startswith(f"Peel DSB, {day}:"), reply


def test_a_board_alone_with_a_question_mark_asks_for_its_day(bot):
    reply = ask(bot, "peel?", datetime(2019, 10, 3, 9, 0, tzinfo=TORONTO))
    assert reply.startswith("Peel DSB, today, Thursday, October 3: open, with some services reduced"), reply
    assert ask(bot, "peel", datetime(2019, 10, 3, 9, 0, tzinfo=TORONTO), user="p2").startswith("Got it: your board")


def test_a_day_cancelled_is_a_status_question_not_unsubscribing(bot):
    reply = ask(bot, "friday cancelled too?", datetime(2019, 10, 3, 9, 0, tzinfo=TORONTO))
    assert "Friday, October 4" in reply.split("\n")[0] and "unsubscribed" not in reply, reply


def test_whether_a_strike_is_coming_to_a_named_board_is_its_day(bot):
    """Read as close between the board's status and the strike's dates, a question naming a board gets its day,
    which says that no job action has started (not the union's roster)."""
    reply = ask(bot, "is there going to be a strike at my kids school?? tdsb", datetime(2019, 9, 6, 8, 10, tzinfo=TORONTO))
    assert reply.startswith("TDSB, today, Friday, September 6: open") and "No job action has started." in reply, reply
