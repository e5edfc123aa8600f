"""Find the single day a parent's message refers to.

``find_date("peal schools open mon?", today)`` gives the Monday after ``today``;
``mentions_weekend`` says whether the text talks about a span such as "this weekend"
or "sat or sun"; ``describe_day`` renders a day for replies ("tomorrow, Friday,
October 4").

The rules follow the development set's labelling rules:

* "today", "tonight", "this morning" ... are today; "tomorrow" (and "tmrw", "2morrow",
  "tommorow" ...) is today + 1; "yesterday" is today - 1.
* A weekday ("monday", "mon", "thurs", misspelt "wendsday" ...) is the next such day
  *strictly* after today; "this monday" is the same; "next monday" is that weekday in
  the next calendar week (weeks start on Monday); "last monday" is the latest one before
  today.
* "Oct 7", "october 7th", "7 Oct", "the 7th of October", "10/7", "2019-10-07": that
  date, in the year that puts it nearest to today (an explicit year wins). "the 7th" is
  day 7 of this month if that is today or later, else of the next month.
* A weekday next to an explicit date ("Monday, October 8") trusts the date.
* The first specific day in the text wins; "this weekend", "sat or sun" and weekday
  ranges ("mon to fri") name no single day.
* French, for Ontario's francophone families: "lundi" ... "dimanche" (with or without
  "ce" before or "prochain" after: the same next such day strictly after today),
  "lundi dernier" (the latest one before today), "aujourd'hui", "ce soir", "ce matin",
  "à matin", "à soir" (today), "demain", "apres-demain", "hier", "avant-hier", "dans 2 jours", "1er octobre",
  "le 7 octobre". "le 7", "le 1er", "du 8" are the next such day of the month, as "the 7th";
  "mardi le 8" trusts the date, and so does "mardi 8" when the 8th is a Tuesday. "lundi de la
  semaine prochaine" / "la semaine prochaine, lundi" is "next week monday"; "la semaine
  prochaine" alone names no single day, as "next week"; "la fin de semaine" (and "fds") is the
  weekend. "lun", "ven" are short weekdays; "2main" is "demain"; "lundi-là" is that Monday.
  "mon" stays French "my" before a French noun ("mon enfant", "mon ecole") and anywhere in a
  French message ("mon ti-gars").

Nothing here raises on any text, and it is quick enough to run on every message: one
regex pass splits the text into tokens (:mod:`.tokens`), then a small hand-written
parser walks them (:mod:`.parser`, with written-out dates in :mod:`.explicit` and the
grammar words in :mod:`.rules`). The day and month words are in config/dates.yaml
(:mod:`.vocabulary`); :mod:`.formatting` writes days for replies.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from bot.dates.formatting import as_date, describe_day
from bot.dates.parser import first_date
from bot.dates.weekend import speaks_of_weekend
from bot.dates.tokens import Tokens, lower_keeping_places

__all__ = ["DateMention", "describe_day", "find_date", "mentions_next_week", "mentions_weekend"]


@dataclass(frozen=True, slots=True)
class DateMention:
    """A day found in a message, with where it was found."""

    day: datetime.date
    start: int  # span in the ORIGINAL text (so the caller can blank it out)
    end: int
    text: str  # the matched substring, text[start:end]


def find_date(text: str, today: datetime.date) -> DateMention | None:
    """The first specific day ``text`` names, worked out from ``today``; None if none.

    Never raises: anything odd (not a string, a date at the edge of the calendar) gives
    None.
    """
    if not isinstance(text, str) or not text:
        return None
    try:
        tokens = Tokens(lower_keeping_places(text), as_date(today))
        r = first_date(tokens)
        if r is None:
            return None
        start, end = tokens.starts[r[0]], tokens.ends[r[1] - 1]
        return DateMention(day=r[2], start=start, end=end, text=text[start:end])
    except Exception:  # never let a chat message break the bot
        return None


_NEXT_WEEK = re.compile(r"\b(?:next|nxt|the coming|coming) (?:week|wk)\b|\bsemaine prochaine\b|\bprochaine semaine\b")


def mentions_next_week(text: str) -> bool:
    """True when the text speaks of next week ("school next week?", "la semaine prochaine"), which names no single
    day: a status asked for it is its first school day's."""
    return isinstance(text, str) and _NEXT_WEEK.search(lower_keeping_places(text)) is not None


def mentions_weekend(text: str) -> bool:
    """True when the text speaks of the weekend as a span: "this weekend", "on the
    weekend", "over the wknd", "sat or sun", "saturday and sunday"."""
    if not isinstance(text, str) or not text:
        return False
    try:
        return speaks_of_weekend(Tokens(lower_keeping_places(text), None))
    except Exception:
        return False
