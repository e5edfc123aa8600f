"""Dates written out: "oct 7", "7 October 2019", "the 7th of oct", "10/7", "2019-10-07", "the 7th".

Each pattern function takes the :class:`~bot.dates.tokens.Tokens` and a token index
and returns None (no match there) or ``(start_token, end_token_exclusive, result)``
where result is a date, ``INVALID`` ("feb 30") or ``SPAN``.
"""

from __future__ import annotations

import datetime

from bot.dates.rules import (
    AMBIG_MONTH_BAD_NEXT,
    AMBIG_MONTH_BAD_PREV,
    AMBIGUOUS_MONTHS,
    APOSTROPHES,
    DAYNUM_BAD_NEXT,
    FR_DAYNUM_BAD_NEXT,
    FRACTION_NEXT,
    INVALID,
    NTH_BAD_AFTER_IN,
    NTH_BAD_NEXT,
    NUM_BAD_PREV,
    ORD_SUFFIX,
    ORD_TENS,
    ORD_UNITS,
    ORD_WORDS,
)
from bot.dates.tokens import Tokens, is_number
from bot.dates.vocabulary import month_of


def nearest_year(month: int, day: int, today: datetime.date) -> datetime.date | None:
    """``month``/``day`` in the year that puts it nearest to today (about +-6 months)."""
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    best = None
    best_diff = 0
    for year in (today.year, today.year + 1, today.year - 1):
        try:
            cand = datetime.date(year, month, day)
        except (ValueError, OverflowError):
            continue
        diff = abs((cand - today).days)
        if best is None or diff < best_diff or (diff == best_diff and cand > best):
            best, best_diff = cand, diff
    if best is None or best_diff > 200:  # only "feb 29" far from a leap year gets here
        return None
    return best


def day_of_month(day: int, today: datetime.date) -> datetime.date | None:
    """"the 7th": this month if the 7th is today or later, else the next month that has it."""
    if not 1 <= day <= 31:
        return None
    year, month = today.year, today.month
    if day < today.day:
        month += 1
    for _ in range(13):
        if month > 12:
            year, month = year + 1, 1
        try:
            return datetime.date(year, month, day)
        except ValueError:
            month += 1
    return None




def day_number(tk: Tokens, i: int, left_ok: bool):
    """Token i as a day of the month: (value, next token, had "th") or None."""
    words, n = tk.words, tk.n
    t = words[i]
    if len(t) > 2 or not is_number(t):
        return None
    if not left_ok and tk.touches(i):
        p = words[i - 1]
        if p.isalnum() or p in "$.,/-:#+'\u2019_\u20ac\u00a3%":
            return None
    v = int(t)
    if v < 1 or v > 31:
        return None
    j = i + 1
    ordinal = False
    if j < n and words[j] in ORD_SUFFIX and tk.touches(j):
        ordinal = True
        j += 1
    if j < n:
        nt = words[j]
        if tk.touches(j):
            if nt in (":", "%", "/", "_") or nt[0].isalnum():
                return None
            if nt in (".", ",", "-") and j + 1 < n and tk.touches(j + 1):
                after = words[j + 1]
                if nt == "-":
                    if not is_number(after):  # "7-day", "7th-grade"
                        return None
                elif is_number(after):  # "7.5", "55,000"
                    return None
        if nt in DAYNUM_BAD_NEXT:
            return None
        if nt in ("a", "p") and tk.word(j + 1) == "." and tk.word(j + 2) == "m":
            return None  # "7 a.m."
        if nt == "o" and tk.word(j + 1) in APOSTROPHES:
            return None  # "7 o'clock"
    return v, j, ordinal


def year_after(tk: Tokens, k: int) -> tuple[int | None, int]:
    """An optional year after a month and day: "oct 7, 2019", "oct 7 '19"."""
    words, n = tk.words, tk.n
    j = k
    if j < n and words[j] == ",":
        j += 1
    if j < n:
        t = words[j]
        y = None
        end = j + 1
        if len(t) == 4 and is_number(t):
            y = int(t)
        elif t in APOSTROPHES and j + 1 < n and tk.touches(j + 1):
            t2 = words[j + 1]
            if len(t2) == 2 and is_number(t2):
                y = 2000 + int(t2)
                end = j + 2
        if y is not None and tk.today is not None and abs(y - tk.today.year) <= 10:
            if end < n and tk.touches(end):
                nt = words[end]
                if nt[0].isalnum() or nt in (":", "%", "/", "-", "_"):
                    return None, k
            return y, end
    return None, k


def dated(tk: Tokens, start: int, end: int, month: int, day: int, year: int | None):
    if year is not None:
        try:
            return start, end, datetime.date(year, month, day)
        except (ValueError, OverflowError):
            return start, end, INVALID
    d = nearest_year(month, day, tk.today)
    return start, end, (d if d is not None else INVALID)

# -- patterns


def month_day(tk: Tokens, i: int, start: int):
    """"oct 7", "October 7th, 2019", "oct. 7", "oct7", "october the 7th", "oct first"."""
    words, n = tk.words, tk.n
    t = words[i]
    month = month_of(t)
    if not month:
        return None
    j = i + 1
    if j < n and words[j] == "." and tk.touches(j):
        j += 1
    if j < n and words[j] == ",":
        j += 1
    if j < n and words[j] == "the":
        j += 1
    if j >= n:
        return None
    d = words[j]
    if is_number(d):
        r = day_number(tk, j, left_ok=True)
        if r is None:
            return None
        day, k, ordinal = r
        if t in AMBIGUOUS_MONTHS and not ordinal and (tk.word(i - 1) in AMBIG_MONTH_BAD_PREV
                or tk.word(k) in AMBIG_MONTH_BAD_NEXT):
            return None  # "they may 2x it", "march 5 km"
    elif t in AMBIGUOUS_MONTHS:
        return None  # "you may first ..."
    else:
        r = ordinal_word(tk, j)
        if r is None:
            return None
        day, k = r
    year, k = year_after(tk, k)
    return dated(tk, start, k, month, day, year)


def ordinal_word(tk: Tokens, j: int):
    """"seventh", "twenty-first", "twenty first": (day, next token) or None."""
    words, n = tk.words, tk.n
    t = words[j]
    v = ORD_WORDS.get(t)
    if v is not None:
        return v, j + 1
    tens = ORD_TENS.get(t)
    if tens is not None:
        k = j + 1
        if k < n and words[k] == "-":
            k += 1
        if k < n and words[k] in ORD_UNITS:
            v = tens + ORD_UNITS[words[k]]
            if v <= 31:
                return v, k + 1
    return None


def day_month(tk: Tokens, i: int, start: int, left_ok: bool = False):
    """"7 October", "7th of oct", "7 oct 2019" (i is the number)."""
    words, n = tk.words, tk.n
    if not left_ok and tk.word(i - 1) in NUM_BAD_PREV:
        return None  # in "grade 3 oct 7" the 3 is a grade, not the 3rd of October
    r = day_number(tk, i, left_ok)
    if r is None:
        return None
    day, k, _ordinal = r
    if k < n and words[k] == "of":
        k += 1
    if k >= n:
        return None
    month = month_of(words[k])
    if not month:
        return None
    return _after_month(tk, start, k, month, day)


def ordinal_word_month(tk: Tokens, i: int, start: int):
    """"seventh of october", "the first of may"."""
    words, n = tk.words, tk.n
    r = ordinal_word(tk, i)
    if r is None:
        return None
    day, k = r
    had_of = k < n and words[k] == "of"
    if had_of:
        k += 1
    if k >= n:
        return None
    month = month_of(words[k])
    if not month or (words[k] in AMBIGUOUS_MONTHS and not had_of):
        return None
    return _after_month(tk, start, k, month, day)


def _after_month(tk: Tokens, start: int, k: int, month: int, day: int):
    """The month word is token k: skip an attached "." ("oct."), take an optional year, make the date."""
    k += 1
    if k < tk.n and tk.words[k] == "." and tk.touches(k):
        k += 1
    year, k = year_after(tk, k)
    return dated(tk, start, k, month, day, year)


def nth_of_month(tk: Tokens, i: int, start: int, left_ok: bool = False):
    """"the 7th": this month if not yet past, else next month. Needs the suffix."""
    r = day_number(tk, i, left_ok)
    if r is None or not r[2]:
        return None
    day, k, _ = r
    if tk.word(k) in NTH_BAD_NEXT:
        return None
    if tk.word(k) == "in" and tk.word(k + 1) in NTH_BAD_AFTER_IN:  # "the 5th in line", not "the 8th in durham"
        return None
    d = day_of_month(day, tk.today)
    return start, k, (d if d is not None else INVALID)


def day_of_this_month(tk: Tokens, i: int, start: int, weekday: int | None = None):
    """French "le 7", "le 1er", "du 8" (i is the number, after the article): the next such day of the
    month, as "the 7th". With `weekday` ("mardi 8"), only when that day is that weekday."""
    r = day_number(tk, i, True)
    if r is None:
        return None
    day, k, _ = r
    if tk.word(k) in FR_DAYNUM_BAD_NEXT:
        return None
    d = day_of_month(day, tk.today)
    if weekday is not None and (d is None or d.weekday() != weekday):
        return None
    return start, k, (d if d is not None else INVALID)


def numeric_date(tk: Tokens, i: int, start: int):
    """"10/7", "10/07/2019", "10/7/19" (month first) and ISO "2019-10-07"."""
    words, n = tk.words, tk.n
    t = words[i]
    if tk.touches(i):
        p = words[i - 1]
        if p.isalnum() or p in "$.,/-:#+'\u2019_\u20ac\u00a3%":
            return None
    if tk.word(i - 1) in NUM_BAD_PREV and start == i:
        return None
    if len(t) == 4:  # ISO year-month-day
        if i + 4 >= n:
            return None
        sep = words[i + 1]
        if sep not in ("-", "/", ".") or words[i + 3] != sep:
            return None
        mo, dd = words[i + 2], words[i + 4]
        if not (is_number(mo) and is_number(dd) and len(mo) <= 2 and len(dd) <= 2):
            return None
        if not all(tk.touches(j) for j in range(i + 1, i + 5)):
            return None
        k = i + 5
        if k < n and tk.touches(k):
            nt = words[k]
            if is_number(nt) or (nt in ("-", "/", ".") and tk.touches(k + 1)
                              and is_number(tk.word(k + 1))):
                return None
            if nt[0].isalpha() and not nt.startswith("t"):  # "2019-10-07T09:00" is fine
                return None
        return dated(tk, start, k, int(mo), int(dd), int(t))
    if len(t) > 2 or i + 2 >= n or words[i + 1] != "/":
        return None
    d = words[i + 2]
    if not (is_number(d) and len(d) <= 2 and tk.touches(i + 1) and tk.touches(i + 2)):
        return None
    mo, dd = int(t), int(d)
    k = i + 3
    year = None
    if k + 1 < n and words[k] == "/" and tk.touches(k) and tk.touches(k + 1) and is_number(words[k + 1]):
        yt = words[k + 1]
        if len(yt) == 4:
            year = int(yt)
        elif len(yt) == 2:
            year = 2000 + int(yt)
        else:
            return None
        k += 2
    if k < n:
        nt = words[k]
        if tk.touches(k):
            if nt[0].isalnum() or nt in ("/", "%", ":", "_"):
                return None
            if nt in (".", ",", "-") and tk.touches(k + 1) and is_number(tk.word(k + 1)):
                return None
        if nt in FRACTION_NEXT:
            return None
    if not (1 <= mo <= 12 and 1 <= dd <= 31):
        return None  # "24/7", "50/50": not a date at all
    return dated(tk, start, k, mo, dd, year)


def date_after_weekday(tk: Tokens, k: int, weekday: int | None = None):
    """An explicit date right after a weekday ("monday, oct 7th", "mon the 7th", "mardi le 8"; "mardi 8"
    when the 8th is a Tuesday)."""
    words, n = tk.words, tk.n
    if k < n and words[k] == ",":
        k += 1
    if k >= n:
        return None
    t = words[k]
    if t in ("the", "le"):  # "monday the 7th", "lundi le 7 octobre", "mardi le 8"
        if k + 1 < n:
            nt = words[k + 1]
            if is_number(nt):
                return (day_month(tk, k + 1, k, True) or nth_of_month(tk, k + 1, k, True)
                        or (day_of_this_month(tk, k + 1, k) if t == "le" else None))
            return ordinal_word_month(tk, k + 1, k)
        return None
    if is_number(t):
        return (numeric_date(tk, k, k) or day_month(tk, k, k, True)
                or nth_of_month(tk, k, k, True)
                or (day_of_this_month(tk, k, k, weekday) if weekday is not None else None))
    if t.isalpha():
        return month_day(tk, k, k) or ordinal_word_month(tk, k, k)
    return None
