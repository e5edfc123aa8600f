"""The parser: walks the tokens for the first specific day, weekdays and relative days included.

Written-out dates are in :mod:`bot.dates.explicit`; this module adds weekdays ("next
fri", "lundi prochain"), relative days ("tmrw", "in 2 days", "apres-demain") and
the weekend spans, and finds the first pattern that names one day.
"""

from __future__ import annotations

import datetime

from bot.dates.explicit import (
    date_after_weekday,
    day_month,
    day_of_this_month,
    month_day,
    nth_of_month,
    numeric_date,
    ordinal_word_month,
)
from bot.dates.rules import (
    APOSTROPHES,
    FR_AT,
    FR_AT_TODAY,
    FR_BUT,
    FR_DAY_ARTICLES,
    FR_LAST,
    FR_NEXT,
    FR_NUMBER_WORDS,
    FR_PART_OF_TODAY,
    FR_TWO_DAYS,
    FR_WEEK,
    MODIFIERS,
    NUMBER_WORDS,
    ON_WORDS,
    ORD_TENS,
    ORD_WORDS,
    PAIR_SEPS,
    PART_OF_TODAY,
    RANGE_SEPS,
    SHORT_CONTEXT,
    SPAN,
)
from bot.dates.tokens import Tokens, is_number
from bot.dates.vocabulary import Cache, day_word, month_of, vocabulary
from bot.language import detect


def _triggers() -> dict[str, bool]:
    """The words a date pattern can start at (digits are checked separately), config/dates.yaml's among them."""
    words = vocabulary()
    return dict.fromkeys(
        set(words.day_words) | set(words.month_words) | set(ORD_WORDS) | set(ORD_TENS) | set(MODIFIERS)
        | {"the", "day", "in", "dans", "aujourd"} | set(FR_TWO_DAYS) | FR_DAY_ARTICLES | FR_WEEK | FR_AT_TODAY, True)


_INTEREST = Cache(_triggers)  # token -> whether a pattern can start at it


def _interest(t: str) -> bool:
    _INTEREST.ready()
    v = t in _INTEREST.known or bool(day_word(t)[0]) or bool(month_of(t))
    _INTEREST.put(t, v)
    return v


def weekday_date(wd: int, today: datetime.date, mode: str | None) -> datetime.date:
    if mode == "next":  # that weekday in the next calendar week
        return today + datetime.timedelta(days=7 - today.weekday() + wd)
    if mode == "thisweek":  # "friday this week": that weekday in the current calendar week
        return today + datetime.timedelta(days=wd - today.weekday())
    if mode == "last":  # the latest one strictly before today
        return today - datetime.timedelta(days=(today.weekday() - wd) % 7 or 7)
    return today + datetime.timedelta(days=(wd - today.weekday()) % 7 or 7)



def weekday_at(tk: Tokens, j: int) -> int | None:
    """Token j as a weekday (with the checks that keep "c'mon", "i sat", "the sun" out)."""
    if j >= tk.n:
        return None
    words = tk.words
    t = words[j]
    kind, wd = day_word(t)
    if kind != "wd":
        return None
    if tk.touches(j) and words[j - 1] in APOSTROPHES:
        return None  # "c'mon"
    if j + 2 < tk.n and words[j + 1] == "-" and tk.touches(j + 1) and tk.touches(j + 2):
        nt = words[j + 2]
        if nt[0].isalpha() and day_word(nt)[0] != "wd" and nt not in ("l\u00e0", "la"):
            return None  # "sun-dried", "monday-ish"; but French "lundi-là" (that Monday) is the day
    ctx = SHORT_CONTEXT.get(t)
    if ctx is not None:
        if j > 0 and words[j - 1] in ctx[0]:
            return None
        if j + 1 < tk.n and words[j + 1] in ctx[1]:
            return None
        if t == "mon" and _french(tk):
            return None  # French writes Monday "lun.": "mon" is "my" ("mon ti-gars", "mon plus vieux")
    return wd


def _french(tk: Tokens) -> bool:
    """Whether the message reads as French (bot.language's word votes) without counting "mon" itself."""
    return detect(" ".join(w for w in tk.words if w != "mon")) == "fr"


def weekday_from(tk: Tokens, start: int, j: int, wd: int, mode: str | None):
    """A weekday at token j, after a modifier starting at ``start`` (if any)."""
    words, n = tk.words, tk.n
    k = j + 1
    if k < n and words[k] == "." and tk.touches(k):
        k += 1
    r = date_after_weekday(tk, k, wd)
    if r is not None:  # an explicit date wins over the weekday
        return start, r[1], r[2]
    end = j + 1
    if mode in (None, "this") and k < n and (words[k] in FR_NEXT or words[k] in FR_LAST):
        # French "lundi prochain" is the coming Monday; "lundi dernier" the last one
        return start, k + 1, weekday_date(wd, tk.today, "last" if words[k] in FR_LAST else None)
    week = french_week(tk, k) if mode is None else None
    if week is not None:  # "lundi de la semaine prochaine", "vendredi cette semaine"
        return start, week[1], weekday_date(wd, tk.today, week[0])
    if k < n and k + 1 < n and words[k + 1] in ("week", "wk"):
        w = words[k]
        if w == "next":
            mode, end = "next", k + 2
        elif w == "this" and mode is None:
            mode, end = "thisweek", k + 2
        elif w == "last":
            mode, end = "last", k + 2
    if mode is None and k < n and words[k] in PAIR_SEPS:
        sep = words[k]
        m = k + 1
        if m < n and words[m] in ("on", "even", "maybe"):
            m += 1
        wd2 = weekday_at(tk, m)
        if wd2 is not None and ({wd, wd2} == {5, 6} or sep in RANGE_SEPS):
            return start, m + 1, SPAN  # "sat or sun", "mon to fri"
    return start, end, weekday_date(wd, tk.today, mode)


def french_week(tk: Tokens, k: int) -> tuple[str, int] | None:
    """After a weekday: "de la semaine prochaine" / "la semaine prochaine" (next), "de cette semaine" /
    "cette semaine" (this week), "de la semaine derniere" (last): (mode, end) or None."""
    if tk.word(k) == "de":
        k += 1
    this = tk.word(k) == "cette"
    if this or tk.word(k) == "la":
        k += 1
    if tk.word(k) not in FR_WEEK:
        return None
    after = tk.word(k + 1)
    if this:
        return "thisweek", k + 1
    if after in FR_NEXT:
        return "next", k + 2
    if after in FR_LAST:
        return "last", k + 2
    return None


def week_then_weekday(tk: Tokens, i: int):
    """"semaine prochaine lundi", "la semaine prochaine, le lundi": that weekday in the next calendar week.
    The week alone ("la semaine prochaine") names no single day, as "next week"."""
    if tk.word(i + 1) not in FR_NEXT:
        return None
    k = i + 2
    if tk.word(k) == ",":
        k += 1
    if tk.word(k) == "le":
        k += 1
    wd = weekday_at(tk, k)
    if wd is None:
        return None
    return i, k + 1, weekday_date(wd, tk.today, "next")


def modified_weekday(tk: Tokens, i: int):
    """"this monday", "next fri", "last tuesday", "this coming wed", "next week monday",
    "this morning"."""
    words, n = tk.words, tk.n
    t = words[i]
    j = i + 1
    if j >= n:
        return None
    nt = words[j]
    if t in ("ce", "cet"):  # French "ce lundi", "ce soir", "ce matin", "cet aprem", "cet apres-midi"
        if nt in FR_PART_OF_TODAY:
            return i, j + 1, tk.today
        if nt in FR_TWO_DAYS and tk.word(j + 1) == "-" and tk.word(j + 2) == "midi":
            return i, j + 3, tk.today
        if t == "cet" or day_word(nt)[0] != "wd":
            return None
        mode = "this"
    elif t == "this":
        if nt in PART_OF_TODAY:
            return i, j + 1, tk.today
        if nt in ("coming", "upcoming"):
            mode, j = "this", j + 1
        elif nt in ("past", "last"):
            mode, j = "last", j + 1
        else:
            mode = "this"
    elif t in ("next", "nxt"):
        mode = "next"
        if nt in ("week", "wk", "weeks"):
            k = j + 1
            if k < n and words[k] in APOSTROPHES:
                k += 2
            if k < n and words[k] in ("on", ",", "-"):
                k += 1
            wd = weekday_at(tk, k)
            if wd is not None:
                return i, k + 1, weekday_date(wd, tk.today, "next")
            return None
    elif t in ("last", "past", "depuis", "since"):
        mode = "last"
    else:  # coming, upcoming
        mode = "this"
    wd = weekday_at(tk, j)
    if wd is None:
        return None
    return weekday_from(tk, i, j, wd, None if mode == "this" else mode)


def relative_phrase(tk: Tokens, i: int):
    """"the day after tomorrow", "day before yesterday", "in 2 days", "3 days from now"."""
    words = tk.words
    t = words[i]
    j = i + 1 if t == "the" else i
    if tk.word(j) == "day" and tk.word(j + 1) in ("after", "before"):
        kind, off = day_word(tk.word(j + 2))
        if kind == "rel" and off != 0:
            sign = 1 if words[j + 1] == "after" else -1
            if (sign == 1) == (off == 1):
                return i, j + 3, tk.today + datetime.timedelta(days=2 * off)
    if t == "in":  # "in 2 days", "in two days", "in a couple of days"
        w = tk.word(i + 1)
        k = i + 2
        if w == "a" and tk.word(k) == "couple":
            num = 2
            k += 2 if tk.word(k + 1) == "of" else 1
        elif is_number(w) and len(w) <= 2:
            num = int(w)
        else:
            num = NUMBER_WORDS.get(w, 0)
        unit = tk.word(k)
        if num and unit in ("day", "days") and (num > 1 or unit == "day") \
                and tk.word(k + 1) not in ("notice", "of", "strike", "off"):
            return i, k + 1, tk.today + datetime.timedelta(days=num)
    if t == "dans":  # "dans 2 jours", "dans deux jours"
        w = tk.word(i + 1)
        num = int(w) if is_number(w) and len(w) <= 2 else FR_NUMBER_WORDS.get(w, 0)
        if num and tk.word(i + 2) in ("jour", "jours"):
            return i, i + 3, tk.today + datetime.timedelta(days=num)
        return None
    if is_number(t) and len(t) <= 2 and tk.word(i + 1) in ("day", "days") \
            and tk.word(i + 2) == "from" and tk.word(i + 3) in ("now", "today") \
            and not tk.touches(i):
        return i, i + 4, tk.today + datetime.timedelta(days=int(t))
    return None


def date_at(tk: Tokens, i: int):
    """The longest date pattern starting at token i, or None."""
    words = tk.words
    t = words[i]
    c = t[0]
    if is_number(c):
        if t == "2" and tk.touches(i + 1) and not tk.touches(i):
            off = vocabulary().after_two.get(tk.word(i + 1))
            if off is not None:  # "2morrow", "2day", "2nite"
                return i, i + 2, tk.today + datetime.timedelta(days=off)
        r = numeric_date(tk, i, i)
        if r is not None:
            return r
        if len(t) <= 2:
            r = day_month(tk, i, i) or relative_phrase(tk, i)
            if r is not None:
                return r
            if tk.word(i - 1) in ON_WORDS:
                return nth_of_month(tk, i, i)
        return None
    if not c.isalpha():
        return None
    if t in MODIFIERS:
        r = modified_weekday(tk, i)
        if r is not None:
            return r
    elif t == "the":
        nt = tk.word(i + 1)
        if is_number(nt):
            return day_month(tk, i + 1, i, True) or nth_of_month(tk, i + 1, i, True)
        if nt == "day":
            return relative_phrase(tk, i)
        return ordinal_word_month(tk, i + 1, i) if nt in ORD_WORDS or nt in ORD_TENS else None
    elif t in ("day", "in", "dans"):
        return relative_phrase(tk, i)
    elif t in FR_DAY_ARTICLES:  # "le 7", "le 7 octobre", "le 1er", "du 8"
        nt = tk.word(i + 1)
        if not is_number(nt):
            return None
        r = day_month(tk, i + 1, i, True) or day_of_this_month(tk, i + 1, i)
        if r is not None and t == "du" and tk.word(r[1]) in ("au", "a", "\u00e0") and is_number(tk.word(r[1] + 1)):
            return i, r[1] + 2, SPAN  # "du 7 au 11 octobre": no single day
        return r
    elif t in FR_WEEK:
        return week_then_weekday(tk, i)
    elif t == "aujourd":  # "aujourd'hui" (the tokenizer splits at the apostrophe)
        if tk.word(i + 1) in APOSTROPHES and tk.word(i + 2) == "hui" \
                and tk.touches(i + 1) and tk.touches(i + 2):
            return i, i + 3, tk.today
        return None
    elif t in FR_TWO_DAYS:  # "apres-demain", "apres demain", "avant-hier"
        word, off = FR_TWO_DAYS[t]
        k = i + 2 if tk.word(i + 1) == "-" else i + 1
        if tk.word(k) == word:
            return i, k + 1, tk.today + datetime.timedelta(days=off)
        return None
    elif t in FR_AT_TODAY:  # "à matin", "à soir"; "ce matin" is read from "ce"
        return (i - 1, i + 1, tk.today) if tk.word(i - 1) in FR_AT else None
    kind, val = day_word(t)
    if kind == "wd":
        if weekday_at(tk, i) is None:
            return None
        return weekday_from(tk, i, i, val, None)
    if kind == "rel":
        day = tk.today + datetime.timedelta(days=val)
        if weekday_at(tk, i + 1) == day.weekday():  # "demain vendredi", "tomorrow friday": one day
            return i, i + 2, day
        return i, i + 1, day
    if t in ORD_WORDS or t in ORD_TENS:
        return ordinal_word_month(tk, i, i)
    return month_day(tk, i, i)


def first_date(tk: Tokens):
    r = _first_from(tk, 0)
    return _corrected(tk, r) if r is not None else None


def _first_from(tk: Tokens, i: int):
    n = tk.n
    words = tk.words
    get = _INTEREST.seen.get
    while i < n:
        t = words[i]
        f = get(t)
        if f is None:
            f = is_number(t[0]) or _interest(t)
        if not f:
            i += 1
            continue
        r = date_at(tk, i)
        if r is None:
            i += 1
            continue
        if isinstance(r[2], datetime.date):
            if t in _COUNTED_FROM:  # "any update since friday? still on for monday": the day asked is Monday
                later = _first_from(tk, r[1])
                return later if later is not None else r
            return r
        i = max(r[1], i + 1)
    return None


_COUNTED_FROM = frozenset({"since", "depuis"})  # a day news is counted from, not the day asked about


def _corrected(tk: Tokens, r):
    """French "demain c'est samedi mais lundi??": the day after "mais" is the one asked about (not after "mais pas")."""
    words = tk.words
    for k in range(r[1], tk.n):
        if words[k] in FR_BUT:
            if tk.word(k + 1) in ("pas", "plus"):
                return r  # "lundi mais pas mardi": still Monday
            later = _first_from(tk, k + 1)
            return _corrected(tk, later) if later is not None else r
    return r
