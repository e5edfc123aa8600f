"""Which school day a status question asks about when it names none, and a second day it names after the first.

"is school open?" asks today, or tomorrow from the evening on; "this weekend" the coming Saturday; "next week" its
first school day; a Saturday's question the coming Monday. "pearson tomorrow? and friday??" names a second day.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import TYPE_CHECKING

from bot import answers
from bot.dates import find_date, mentions_next_week

if TYPE_CHECKING:
    from bot.turn import Turn

EVENING_HOUR = 18  # from this local hour, "is school open?" with no day asks about tomorrow


def status_day(turn: Turn) -> date:
    """The day a status question asks about: the one it names, else the one its words and hour mean."""
    if turn.day is not None:
        return turn.day
    analysis, day = turn.analysis, turn.today
    if analysis.weekend and day.weekday() < 5:
        day += timedelta(days=5 - day.weekday())  # the coming Saturday
    elif mentions_next_week(turn.question) and not _RUMOUR_CHECKED.search(turn.question.lower()):
        day = answers.next_school_day(day + timedelta(days=6 - day.weekday()))  # "school next week?": its Monday
    elif turn.hour >= EVENING_HOUR:
        day += timedelta(days=1)  # "laval ouvert?" at 11 p.m.: the school day ahead, not the one that is over
    if not analysis.weekend and day.weekday() >= 5:
        day = answers.next_school_day(day)  # "peel strike?" on a Saturday: Monday, without "Sunday is no school"
    return day


_RUMOUR_CHECKED = re.compile(r"\b(?:true|vrai|real)\W*$")  # "...a strike next week and schools will close. true?"


def later_day(turn: Turn, day) -> date | None:
    """A second school day the message names after the one answered ("tomorrow? and friday??"), if any."""
    found = turn.analysis.date
    rest = turn.question[found.end:] if found is not None and not turn.analysis.command else ""
    second = find_date(rest, turn.today) if _ANOTHER_DAY.search(rest) else None  # most: nothing more said
    if second is None or not _ANOTHER_DAY.search(rest[: second.start]):  # "aujourd'hui mardi" is one day
        return None  # below: not a day gone by ("toujours en grève lundi? pas de nouvelles depuis vendredi")
    return second.day if second.day != day and second.day >= turn.today and second.day.weekday() < 5 else None


_ANOTHER_DAY = re.compile(r"\b(?:and|et|or|ou|then|puis|also|aussi)\b|[?,&/+]")
