"""Writing a day for replies: "tomorrow, Friday, October 4"."""

from __future__ import annotations

import datetime

from bot.dates.vocabulary import MONTH_NAMES, WEEKDAY_NAMES


def as_date(value) -> datetime.date:
    """A date from a date or a datetime."""
    if isinstance(value, datetime.datetime):
        return value.date()
    return value


def describe_day(day: datetime.date, today: datetime.date) -> str:
    """"today, Thursday, October 3", "tomorrow, Friday, October 4", "Monday, October 7",
    "Wednesday, January 1, 2020" (the year only when it is not today's year)."""
    day = as_date(day)
    today = as_date(today)
    text = f"{WEEKDAY_NAMES[day.weekday()]}, {MONTH_NAMES[day.month]} {day.day}"
    if day.year != today.year:
        text += f", {day.year}"
    delta = (day - today).days
    if delta == 0:
        return "today, " + text
    if delta == 1:
        return "tomorrow, " + text
    if delta == -1:
        return "yesterday, " + text
    return text
