"""Writing a day or a moment for replies, in English or French:
"tomorrow, Friday, October 4" / "demain, vendredi 4 octobre"; "Oct 2, 2019, 8:00 p.m." / "2 oct. 2019, 20 h"."""

from __future__ import annotations

import datetime
from functools import lru_cache

from bot.dates.vocabulary import vocabulary

_RELATIVE = {
    "en": {0: "today, ", 1: "tomorrow, ", -1: "yesterday, "},
    "fr": {0: "aujourd'hui, ", 1: "demain, ", -1: "hier, "},
}


def as_date(value) -> datetime.date:
    """A date from a date or a datetime."""
    if isinstance(value, datetime.datetime):
        return value.date()
    return value


def day_and_month(day: datetime.date, language: str = "en") -> str:
    """"Monday, October 7" / "lundi 7 octobre" ("1er" for the first of a month in French)."""
    words = vocabulary()
    if language == "fr":
        number = "1er" if day.day == 1 else str(day.day)
        return f"{words.weekday_names_fr[day.weekday()]} {number} {words.month_names_fr[day.month]}"
    return f"{words.weekday_names[day.weekday()]}, {words.month_names[day.month]} {day.day}"


@lru_cache(maxsize=1024)
def _describe(day: datetime.date, today: datetime.date, language: str) -> str:
    text = day_and_month(day, language)
    if day.year != today.year:
        text += f" {day.year}" if language == "fr" else f", {day.year}"
    return _RELATIVE.get(language, _RELATIVE["en"]).get((day - today).days, "") + text


def describe_day(day: datetime.date, today: datetime.date, language: str = "en") -> str:
    """"today, Thursday, October 3", "tomorrow, Friday, October 4", "Monday, October 7",
    "Wednesday, January 1, 2020" (the year only when it is not today's year); in French
    "aujourd'hui, jeudi 3 octobre", "lundi 7 octobre", "mercredi 1er janvier 2020"."""
    return _describe(as_date(day), as_date(today), language)


def short_day(day: datetime.date, language: str = "en") -> str:
    """"Mon Oct 7" / "lun. 7 oct." for lists of dates."""
    if language == "fr":
        words = vocabulary()
        return f"{words.weekday_names_fr[day.weekday()][:3]}. {day.day} {words.month_abbreviations_fr[day.month]}"
    return f"{day:%a %b} {day.day}"


def when_published(moment: datetime.datetime, language: str = "en") -> str:
    """'Oct 2, 2019, 8:00 p.m.' / '2 oct. 2019, 20 h' in the moment's own offset (Toronto time in the data)."""
    return _when(moment, moment.utcoffset(), language)  # equal instants in other offsets are written otherwise


@lru_cache(maxsize=1024)  # a few sources' times, said again and again
def _when(moment: datetime.datetime, offset, language: str) -> str:
    if language == "fr":
        minutes = f" {moment.minute:02d}" if moment.minute else ""
        return f"{moment.day} {vocabulary().month_abbreviations_fr[moment.month]} {moment.year}, {moment.hour} h{minutes}"
    hour = moment.hour % 12 or 12
    half = "a.m." if moment.hour < 12 else "p.m."
    return f"{moment:%b} {moment.day}, {moment.year}, {hour}:{moment.minute:02d} {half}"
