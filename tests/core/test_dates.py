"""Tests for bot.dates: find_date, mentions_weekend, describe_day, and the word lists in config/dates.yaml."""

from __future__ import annotations

import dataclasses
import datetime
import random

import pytest

from bot.dates import DateMention, describe_day, find_date, mentions_weekend, vocabulary

D = datetime.date
THU = D(2019, 10, 3)  # most questions are asked on Thursday 2019-10-03
FRI_BEFORE = D(2019, 9, 27)
FRI = D(2019, 10, 4)
SUN = D(2019, 10, 6)
MON = D(2019, 10, 7)


def iso(text: str, today: datetime.date = THU) -> str | None:
    m = find_date(text, today)
    return m.day.isoformat() if m else None


# --------------------------------------------------------------------------- relative days


@pytest.mark.parametrize(
    "text",
    ["is school open today", "any school today?", "TODAY??", "todays schedule", "today's news",
     "what about tonight", "tonite", "2nite", "this morning", "this afternoon",
     "this evening", "2day", "tday?", "is it open todya"],
)
def test_today(text):
    assert iso(text) == "2019-10-03"


@pytest.mark.parametrize(
    "text",
    ["is there school tomorrow", "school tmrw?", "tmr", "tmrow", "2morrow", "2moro",
     "tomorow", "tommorow", "tomorrw", "tommorrow", "TOMORROW!!!", "tomorrow's plan",
     "tmrw's forecast", "after school program open tomorrow?", "tomoz", "tmw", "tomorro"],
)
def test_tomorrow(text):
    assert iso(text) == "2019-10-04"


@pytest.mark.parametrize("text", ["yesterday", "what happened yday", "Yesterday's talks"])
def test_yesterday(text):
    assert iso(text) == "2019-10-02"


def test_day_after_tomorrow_and_before_yesterday():
    assert iso("the day after tomorrow") == "2019-10-05"
    assert iso("day after tmrw") == "2019-10-05"
    assert iso("day before yesterday") == "2019-10-01"


@pytest.mark.parametrize(
    "text, expected",
    [("in 2 days", "2019-10-05"), ("in two days", "2019-10-05"),
     ("in a couple of days", "2019-10-05"), ("strike in 4 days", "2019-10-07"),
     ("3 days from now", "2019-10-06"), ("in 5 days notice", None)],
)
def test_in_n_days(text, expected):
    assert iso(text) == expected


# --------------------------------------------------------------------------- month and year ends


def test_month_end():
    oct31 = D(2019, 10, 31)
    assert iso("tomorrow", oct31) == "2019-11-01"
    assert iso("the 1st", oct31) == "2019-11-01"
    assert iso("on the 7th", oct31) == "2019-11-07"
    assert iso("the 31st", oct31) == "2019-10-31"  # today counts
    assert iso("yesterday", D(2019, 11, 1)) == "2019-10-31"


def test_year_end():
    dec31 = D(2019, 12, 31)
    assert iso("tomorrow", dec31) == "2020-01-01"
    assert iso("monday", dec31) == "2020-01-06"
    assert iso("jan 2", D(2019, 12, 30)) == "2020-01-02"
    assert iso("1/2", D(2019, 12, 30)) == "2020-01-02"
    assert iso("the 2nd", D(2019, 12, 30)) == "2020-01-02"
    assert iso("dec 30", D(2020, 1, 2)) == "2019-12-30"
    assert iso("yesterday", D(2020, 1, 1)) == "2019-12-31"


def test_nth_skips_months_without_that_day():
    assert iso("the 31st", FRI_BEFORE) == "2019-10-31"  # September has no 31st
    assert iso("the 30th", D(2019, 2, 10)) == "2019-03-30"
    assert iso("the 29th", D(2019, 2, 10)) == "2019-03-29"  # 2019 is not a leap year
    assert iso("the 29th", D(2020, 2, 10)) == "2020-02-29"


def test_leap_day():
    assert iso("feb 29", THU) == "2020-02-29"
    assert iso("feb 29", D(2021, 10, 1)) is None  # no Feb 29 anywhere near
    assert iso("feb 29 2020", D(2021, 10, 1)) == "2020-02-29"


# --------------------------------------------------------------------------- weekdays


WEEKDAY_FORMS_THU = [
    # asked Thursday 2019-10-03
    ("monday", "2019-10-07"), ("mon", "2019-10-07"), ("Mon.", "2019-10-07"),
    ("tuesday", "2019-10-08"), ("tues", "2019-10-08"), ("tue", "2019-10-08"),
    ("wednesday", "2019-10-09"), ("wed", "2019-10-09"), ("weds", "2019-10-09"),
    ("thursday", "2019-10-10"), ("thu", "2019-10-10"), ("thur", "2019-10-10"),
    ("thurs", "2019-10-10"),
    ("friday", "2019-10-04"), ("fri", "2019-10-04"),
    ("saturday", "2019-10-05"), ("sat", "2019-10-05"),
    ("sunday", "2019-10-06"), ("sun", "2019-10-06"),
    # misspellings listed in the rules
    ("monady", "2019-10-07"), ("wendsday", "2019-10-09"), ("wensday", "2019-10-09"),
    ("thrusday", "2019-10-10"), ("tuesdy", "2019-10-08"), ("fryday", "2019-10-04"),
    # other misspellings, caught by edit distance
    ("mondya", "2019-10-07"), ("munday", "2019-10-07"), ("teusday", "2019-10-08"),
    ("wednsday", "2019-10-09"), ("wedensday", "2019-10-09"), ("thursdy", "2019-10-10"),
    ("firday", "2019-10-04"), ("satruday", "2019-10-05"), ("saterday", "2019-10-05"),
    ("sundy", "2019-10-06"), ("wednesdya", "2019-10-09"), ("thrusdya", "2019-10-10"),
    ("tomorroww", "2019-10-04"), ("tonihgt", "2019-10-03"), ("yesteray", "2019-10-02"),
]


@pytest.mark.parametrize("word, expected", WEEKDAY_FORMS_THU)
def test_weekday_forms(word, expected):
    assert iso(word) == expected
    assert iso(f"is school open {word}?") == expected
    assert iso(f"IS SCHOOL OPEN {word.upper()}!!") == expected
    assert iso(f"open,{word}?") == expected


def test_weekday_is_strictly_after_today():
    assert iso("school on monday?", FRI_BEFORE) == "2019-09-30"
    assert iso("is school open tuesday", FRI_BEFORE) == "2019-10-01"
    assert iso("monday", MON) == "2019-10-14"  # a week later, not today
    assert iso("monday", SUN) == "2019-10-07"
    assert iso("thursday", THU) == "2019-10-10"
    # every weekday asked on that same weekday is a week later
    for k in range(7):
        today = D(2019, 10, 7) + datetime.timedelta(days=k)
        name = vocabulary.vocabulary().weekday_names[today.weekday()]
        assert find_date(name, today).day == today + datetime.timedelta(days=7)


@pytest.mark.parametrize(
    "text, today, expected",
    [
        ("this monday", THU, "2019-10-07"),
        ("this friday", THU, "2019-10-04"),
        ("this coming friday", THU, "2019-10-04"),
        ("next monday", THU, "2019-10-07"),
        ("next friday", THU, "2019-10-11"),
        ("next thursday", THU, "2019-10-10"),
        ("next sunday", THU, "2019-10-13"),
        ("nxt fri", THU, "2019-10-11"),
        ("next monday", SUN, "2019-10-07"),
        ("next monday", MON, "2019-10-14"),
        ("next tuesday", MON, "2019-10-15"),
        ("this monday", MON, "2019-10-14"),
        ("next week monday", THU, "2019-10-07"),
        ("next week's friday", THU, "2019-10-11"),
        ("friday next week", THU, "2019-10-11"),
        ("friday this week", THU, "2019-10-04"),
        ("monday this week", THU, "2019-09-30"),
        ("last monday", THU, "2019-09-30"),
        ("this past tuesday", THU, "2019-10-01"),
        ("last thursday", THU, "2019-09-26"),
    ],
)
def test_this_next_last(text, today, expected):
    assert iso(text, today) == expected


# --------------------------------------------------------------------------- explicit dates


@pytest.mark.parametrize(
    "text",
    ["Oct 7", "oct 7", "oct. 7", "oct7", "oct 7th", "Oct.7th", "October 7", "October 7th",
     "october the 7th", "7 October", "7 oct", "7th of october", "the 7th of October",
     "the seventh of october", "october seventh", "Monday October 7", "monday, oct 7th",
     "Mon, Oct. 7", "Monday the 7th", "mon 7th", "Oct 7, 2019", "October 7 2019",
     "7 October 2019", "oct 7 '19", "2019-10-07", "2019/10/07", "10/07", "10/7",
     "10/7/2019", "10/07/19", "is school open 2019-10-07", "the 7th", "on the 7th",
     "will school be open on the 7th", "on 7th", "vaughan school closures oct 7",
     "dpcdsb schools open oct 7th?", "Is Peel District School Board open on October 7, 2019?",
     "oct 7 at 8am", "oct 7-9", "octobre 7", "ocotber 7", "Octobr 7th"],
)
def test_explicit_date_forms(text):
    assert iso(text) == "2019-10-07"


@pytest.mark.parametrize(
    "text", ["sept 30", "sep 30", "september 30th", "Sept. 30", "sept30", "30 sept",
             "tcdsb open on monday sept 30?", "9/30", "septmber 30"],
)
def test_september_30(text):
    assert iso(text) == "2019-09-30"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("march 3", "2020-03-03"),  # 5 months ahead beats 7 months back
        ("may 5", "2019-05-05"),  # 5 months back beats 7 months ahead
        ("april 1", "2020-04-01"),
        ("jan 15", "2020-01-15"),
        ("aug 30", "2019-08-30"),
        ("oct 7 2018", "2018-10-07"),  # an explicit year wins
        ("10/7/2020", "2020-10-07"),
        ("dec 25", "2019-12-25"),
        ("nov 1st", "2019-11-01"),
        ("october twenty-first", "2019-10-21"),
        ("oct thirty first", "2019-10-31"),
        ("the first of november", "2019-11-01"),
        ("may the 4th", "2019-05-04"),
    ],
)
def test_nearest_year_and_more_dates(text, expected):
    assert iso(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("the 3rd", "2019-10-03"),  # today counts
        ("the 2nd", "2019-11-02"),  # already past: next month
        ("by the 15th", "2019-10-15"),
        ("the 21st", "2019-10-21"),
        ("the 22nd", "2019-10-22"),
    ],
)
def test_the_nth(text, expected):
    assert iso(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Monday October 8", "2019-10-08"),  # weekday and date disagree: trust the date
        ("mon oct 8", "2019-10-08"),
        ("friday the 11th", "2019-10-11"),
        ("mon 10/8", "2019-10-08"),
        ("next monday oct 14", "2019-10-14"),
        ("tuesday, 8 october", "2019-10-08"),
    ],
)
def test_weekday_with_date_trusts_the_date(text, expected):
    assert iso(text) == expected


@pytest.mark.parametrize(
    "text",
    ["feb 30", "is school open feb 30?", "the 32nd", "on the 32nd", "oct 32", "2/30",
     "13/45", "2019-02-30", "2019-13-01", "april 31", "the 0th", "oct 0"],
)
def test_invalid_dates(text):
    assert find_date(text, THU) is None


def test_invalid_date_does_not_hide_a_later_valid_one():
    assert iso("feb 30? no i mean monday") == "2019-10-07"


# --------------------------------------------------------------------------- several dates


@pytest.mark.parametrize(
    "text, expected",
    [
        ("monday or tuesday", "2019-10-07"),
        ("tuesday or monday", "2019-10-08"),
        ("today or tomorrow", "2019-10-03"),
        ("this weekend or monday", "2019-10-07"),
        ("oct 8, not monday", "2019-10-08"),
        ("friday or saturday", "2019-10-04"),
        ("yesterday they said monday", "2019-10-02"),
        ("sat or sun or monday", "2019-10-07"),
    ],
)
def test_first_specific_date_wins(text, expected):
    assert iso(text) == expected


# --------------------------------------------------------------------------- weekends and ranges


@pytest.mark.parametrize(
    "text",
    ["are talks happening this weekend", "will they keep negotiating over the weekend",
     "on the weekend", "this wknd", "the week-end", "next weekend", "WEEKEND?",
     "sat or sun", "saturday and sunday", "sat/sun", "sat & sun", "sun or sat",
     "saturday or even sunday", "sat-sun", "weekends"],
)
def test_weekend(text):
    assert mentions_weekend(text) is True
    assert find_date(text, THU) is None


@pytest.mark.parametrize(
    "text",
    ["saturday", "is school open monday", "sunday", "weekday", "is it about money", "",
     "what day does the job action begin", "i sat down with the kids", "week"],
)
def test_not_weekend(text):
    assert mentions_weekend(text) is False


def test_single_weekend_days_are_days():
    assert iso("saturday") == "2019-10-05"
    assert iso("open sat?") == "2019-10-05"
    assert iso("sun?") == "2019-10-06"
    assert iso("this saturday") == "2019-10-05"


@pytest.mark.parametrize(
    "text", ["mon-fri", "monday to friday", "mon thru wed", "mon to wed", "monday-friday"]
)
def test_weekday_ranges_name_no_single_day(text):
    assert find_date(text, THU) is None


# --------------------------------------------------------------------------- negatives


@pytest.mark.parametrize(
    "text",
    [
        "is it about money", "every month", "monitor the talks", "common sense", "Monica",
        "c'mon", "cmon", "harmony", "demonstrate", "lemon", "moneys",
        "i sat down", "we sat there for hours", "SAT scores", "satisfied", "saturn",
        "the sun is out", "toronto sun says", "sunny", "sunscreen", "sundae", "sundry",
        "wed like to know", "wedding", "newly wed", "fries", "frida", "thunder",
        "tuesdays and thursdays", "mondays", "on fridays",
        "55,000 workers", "$235 million", "93% voted", "15 sick days", "grade 3", "17-day",
        "the 17 day countdown", "5 day strike notice", "416-555-1234", "(905) 555-0199",
        "1-800-555-0000", "call 905.555.1234", "$1.5 billion", "3.5%", "7:30",
        "grade 3/4 split", "1/2 day", "24/7", "50/50", "rated 10/10", "12:00",
        "2019-2020 school year", "in 2019", "may i ask", "you may first check",
        "march for education", "match 5", "the 7th grade", "my 7th grader",
        "the 3rd time", "the first day of the strike", "who was the first to strike",
        "the 5th largest board", "when is the next PA day", "last day of school",
        "what day does the job action begin", "how many days notice", "the day",
        "this week", "next week", "every day", "week", "day", "mon ami", "mon enfant",
        "tomato", "tomboy", "total", "toddy", "yesteryear", "monkey", "fridge", "thirsty",
        "sunday-best", "the 7th of them", "10/7pm", "oct 7%",
    ],
)
def test_no_false_positives(text):
    assert find_date(text, THU) is None


def test_numbers_around_a_real_date_are_ignored():
    text = "about 55,000 workers, $235 million, 93% strike vote, grade 3, 17-day countdown, oct 7?"
    m = find_date(text, THU)
    assert m.day == D(2019, 10, 7)
    assert m.text == "oct 7"


def test_times_after_weekdays_and_dates():
    assert iso("7am monday") == "2019-10-07"
    assert iso("monday 7am") == "2019-10-07"
    assert iso("monday 7 a.m.") == "2019-10-07"
    assert iso("oct 7 8am") == "2019-10-07"
    assert iso("monday, 7 schools") == "2019-10-07"
    assert iso("monday 7th grade trip") == "2019-10-07"


# --------------------------------------------------------------------------- spans


@pytest.mark.parametrize(
    "text, span",
    [
        ("Will Toronto District School Board schools be open on Monday October 7?",
         "Monday October 7"),
        ("peal schools open mon?", "mon"),
        ("is school open next Monday", "next Monday"),
        ("is school open this coming Friday?", "this coming Friday"),
        ("will school be open on the 7th", "the 7th"),
        ("Is Peel open on October 7, 2019?", "October 7, 2019"),
        ("school tmrw?", "tmrw"),
        ("open 2MORROW?", "2MORROW"),
        ("open monday!!", "monday"),
        ("Tues. open?", "Tues"),
        ("open mon. oct 7?", "mon. oct 7"),
        ("is school open 2019-10-07", "2019-10-07"),
        ("10/7 open?", "10/7"),
        ("open the day after tomorrow?", "the day after tomorrow"),
    ],
)
def test_spans(text, span):
    m = find_date(text, THU)
    assert m is not None
    assert m.text == span
    assert text[m.start:m.end] == span
    blanked = text[:m.start] + text[m.end:]
    assert find_date(blanked, THU) is None


def test_spans_with_non_ascii_text():
    for text in ["École: is school open Monday?", "İİİ monday", "ﬀ oct 7",
                 "😀😀 tmrw 😀", "straße mon", "ΣΊΣΥΦΟΣ tuesday"]:
        m = find_date(text, THU)
        assert m is not None, text
        assert text[m.start:m.end] == m.text
        assert m.text.lower() in ("monday", "oct 7", "tmrw", "mon", "tuesday")


def test_date_mention_is_frozen():
    m = find_date("monday", THU)
    assert m == DateMention(day=D(2019, 10, 7), start=0, end=6, text="monday")
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.day = D(2020, 1, 1)  # type: ignore[misc]
    assert not hasattr(m, "__dict__")


def test_today_may_be_a_datetime():
    now = datetime.datetime(2019, 10, 3, 21, 40, tzinfo=datetime.UTC)
    assert find_date("tomorrow", now).day == D(2019, 10, 4)
    assert describe_day(D(2019, 10, 4), now) == "tomorrow, Friday, October 4"


# --------------------------------------------------------------------------- describe_day


@pytest.mark.parametrize(
    "day, today, expected",
    [
        (D(2019, 10, 3), THU, "today, Thursday, October 3"),
        (D(2019, 10, 4), THU, "tomorrow, Friday, October 4"),
        (D(2019, 10, 2), THU, "yesterday, Wednesday, October 2"),
        (D(2019, 10, 7), THU, "Monday, October 7"),
        (D(2019, 9, 30), FRI_BEFORE, "Monday, September 30"),
        (D(2020, 1, 1), D(2019, 12, 31), "tomorrow, Wednesday, January 1, 2020"),
        (D(2020, 1, 6), D(2019, 12, 31), "Monday, January 6, 2020"),
        (D(2019, 12, 30), D(2020, 1, 2), "Monday, December 30, 2019"),
        (D(2020, 2, 29), THU, "Saturday, February 29, 2020"),
    ],
)
def test_describe_day(day, today, expected):
    assert describe_day(day, today) == expected


def test_describe_day_round_trip():
    for text in ["today", "tomorrow", "monday", "oct 7"]:
        m = find_date(text, THU)
        assert describe_day(m.day, THU).endswith(
            f"{m.day.strftime('%A')}, {m.day.strftime('%B')} {m.day.day}"
        )


# --------------------------------------------------------------------------- robustness


def test_edge_inputs_never_raise():
    odd = [
        "", " ", "\x00", "\n\n\t", "?" * 1000, "mon" * 1000, "monday " * 5000,
        "a" * 50_000, "7" * 50_000, "/" * 1000, "1/" * 1000, "the " * 5000,
        "🙂" * 500, "\ud800", "oct", "oct ", "the", "next", "next week", "in", "in 2",
        "2", "2019-", "2019-10-", "10/", "/7", "7th", "th", "'", "the 7", "monday,",
        "mon.", "sat or", "day after", "day after today", "in a", "in a couple",
        "\u202emonday", "ＭＯＮＤＡＹ", "mon\u0301day", "٣ oct", "oct ٣", "½ oct",
        "oct ²",
        "the ٣rd", "۱۰/۷", "İ" * 100 + " monday", "ß" * 100,
    ]
    for text in odd:
        find_date(text, THU)
        mentions_weekend(text)
    assert iso("monday " * 5000) == "2019-10-07"
    assert find_date("a" * 50_000 + " tomorrow", THU).day == D(2019, 10, 4)
    assert find_date("٣ oct", THU) is None  # only ASCII digits are day numbers


def test_non_string_and_calendar_edges_never_raise():
    assert find_date(None, THU) is None  # type: ignore[arg-type]
    assert find_date(123, THU) is None  # type: ignore[arg-type]
    assert mentions_weekend(None) is False  # type: ignore[arg-type]
    assert find_date("tomorrow", D.max) is None
    assert find_date("yesterday", D.min) is None
    assert find_date("monday", D.max) is None
    assert find_date("oct 7", D(9999, 12, 1)).day == D(9999, 10, 7)
    assert find_date("tomorrow", D(9999, 12, 30)).day == D(9999, 12, 31)


def test_fuzz_random_strings_never_raise():
    rng = random.Random(20191003)
    pieces = [
        "mon", "monday", "tmrw", "2", "morrow", "oct", "7", "7th", "th", "the", "of", "/",
        "-", ".", ",", "'", "next", "this", "last", "week", "weekend", "sat", "sun", "or",
        "to", "in", "day", "days", "after", "2019", "10", "31", "32", "00", "feb", "30",
        "may", "a", "am", "pm", ":", "%", "$", "\u2019", "😀", "\x00", "\t", " ", "  ",
        "é", "İ", "ß", "٣", "grade", "first", "twenty", "-first", "yesterday", "tonight",
    ]
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 /-.,:'$%#\n\t\x00😀éİ"
    for _ in range(4000):
        if rng.random() < 0.5:
            text = "".join(rng.choice(pieces) + rng.choice(["", " ", " ", ","])
                           for _ in range(rng.randint(0, 12)))
        else:
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        today = D(2019, 1, 1) + datetime.timedelta(days=rng.randint(0, 730))
        m = find_date(text, today)
        if m is not None:
            assert isinstance(m.day, D)
            assert 0 <= m.start < m.end <= len(text)
            assert text[m.start:m.end] == m.text
            assert abs((m.day - today).days) <= 400
        assert mentions_weekend(text) in (True, False)


def test_cache_stays_bounded(monkeypatch):
    monkeypatch.setattr(vocabulary.Cache, "limit", 50)
    for k in range(500):
        find_date(f"word{k}x foo{k}bar monday", THU)
    assert len(vocabulary.DAY_CACHE) <= 50 + len(vocabulary.vocabulary().day_words) + 1
    assert iso("monday") == "2019-10-07"


# --------------------------------------------------------------------------- French


FRENCH_THU = [
    # asked Thursday 2019-10-03: a weekday is the next such day strictly after today
    ("lundi", "2019-10-07"), ("mardi", "2019-10-08"), ("mercredi", "2019-10-09"),
    ("jeudi", "2019-10-10"), ("vendredi", "2019-10-04"), ("samedi", "2019-10-05"),
    ("dimanche", "2019-10-06"), ("LUNDI", "2019-10-07"),
    # "ce lundi" and "lundi prochain" are the same coming Monday
    ("ce lundi", "2019-10-07"), ("lundi prochain", "2019-10-07"),
    ("ce jeudi", "2019-10-10"), ("vendredi prochain", "2019-10-04"),
    ("mardi prochaine", "2019-10-08"), ("lundi dernier", "2019-09-30"),
    # relative days
    ("demain", "2019-10-04"), ("aujourd'hui", "2019-10-03"), ("aujourd\u2019hui", "2019-10-03"),
    ("aujourdhui", "2019-10-03"), ("hier", "2019-10-02"), ("ce soir", "2019-10-03"),
    ("ce matin", "2019-10-03"), ("apr\u00e8s-demain", "2019-10-05"),
    ("apres demain", "2019-10-05"), ("avant-hier", "2019-10-01"),
    # misspelt
    ("mecredi", "2019-10-09"), ("vendredie", "2019-10-04"), ("dimanch", "2019-10-06"),
    # explicit dates
    ("lundi le 7 octobre", "2019-10-07"), ("le 1er octobre", "2019-10-01"),
    ("mardi 8 octobre", "2019-10-08"),
    # "depuis lundi" (since Monday) is the last Monday; after "mais" (but) the day asked about
    ("en grève depuis lundi", "2019-09-30"), ("depuis mardi dernier", "2019-10-01"),
    ("demain c'est samedi mais lundi??", "2019-10-07"), ("demain, mais vendredi prochain?", "2019-10-04"),
    ("ouvert lundi mais pas mardi?", "2019-10-07"), ("lundi mais", "2019-10-07"),
    # a day and its weekday are one day ("demain vendredi")
    ("pis demain vendredi?", "2019-10-04"), ("demain samedi", "2019-10-04"),  # not the same day: the first
]


@pytest.mark.parametrize("text, expected", FRENCH_THU)
def test_french_days(text, expected):
    assert iso(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("\u00e9cole ouverte lundi?", "2019-10-07"),
        ("est-ce que les \u00e9coles seront ouvertes demain", "2019-10-04"),
        ("la garderie est ouverte ce lundi?", "2019-10-07"),
        ("y a-t-il de l'\u00e9cole aujourd'hui", "2019-10-03"),
        ("ecole fermee mercredi prochain?", "2019-10-09"),
        ("wed - school or no school?", "2019-10-09"),
        ("is the \u00e9cole open lundi", "2019-10-07"),
    ],
)
def test_french_and_franglais_sentences(text, expected):
    assert iso(text) == expected


def test_french_weekday_is_strictly_after_today():
    assert iso("lundi", FRI_BEFORE) == "2019-09-30"
    assert iso("lundi prochain", FRI_BEFORE) == "2019-09-30"
    assert iso("lundi", MON) == "2019-10-14"  # a week later, not today
    assert iso("ce lundi", MON) == "2019-10-14"
    assert iso("vendredi", FRI) == "2019-10-11"
    assert iso("dimanche", SUN) == "2019-10-13"
    assert iso("demain", D(2019, 10, 31)) == "2019-11-01"


def test_french_spans():
    assert find_date("\u00e9cole ouverte lundi prochain?", THU).text == "lundi prochain"
    assert find_date("la garderie ce lundi", THU).text == "ce lundi"
    assert find_date("ouvert aujourd'hui?", THU).text == "aujourd'hui"
    assert find_date("ouvert apr\u00e8s-demain?", THU).text == "apr\u00e8s-demain"


@pytest.mark.parametrize(
    "text",
    ["mon enfant", "mon fils est malade", "faut que j'avertisse mon boss", "mon employeur", "mon \u00e9cole est ferm\u00e9e?", "pour mon gar\u00e7on",
     "est-ce que mon \u00e9cole est ouverte", "c'est quoi la gr\u00e8ve", "ce que je veux savoir",
     "garderie", "les enfants", "domain name", "hierarchy", "lundis", "la semaine prochaine"],
)
def test_french_non_dates(text):
    assert find_date(text, THU) is None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Allo, mon ti-gars va \u00e0 l'\u00e9cole, c'est-tu ferm\u00e9 aujourd'hui?", "2019-10-03"),
        ("mon plus vieux a-tu de l'\u00e9cole demain?", "2019-10-04"),
        ("mon ado est en 9e, l'\u00e9cole est-tu ouverte?", None),
        ("school open mon?", "2019-10-07"),  # English keeps "mon" for Monday
        ("is my school open mon? merci", "2019-10-07"),
        ("london ont. thames valley closed mon?", "2019-10-07"),  # "ont" alone does not make it French
    ],
)
def test_french_mon_is_my(text, expected):
    """In a French message "mon" is "my", whatever noun follows; French shortens Monday "lun."."""
    found = find_date(text, THU)
    assert (found.day.isoformat() if found else None) == expected


@pytest.mark.parametrize(
    "text, expected, found",
    [
        ("\u00e0 matin y'a-tu de l'\u00e9cole?", "2019-10-03", "\u00e0 matin"),
        ("la garderie est-tu ouverte a soir", "2019-10-03", "a soir"),
        ("lundi \u00e0 matin", "2019-10-07", "lundi"),  # the day named first
        ("le matin, la garderie ouvre-tu?", None, None),  # mornings in general
    ],
)
def test_french_a_matin_is_today(text, expected, found):
    """Informal "\u00e0 matin", "\u00e0 soir" are this morning and tonight, as "ce matin", "ce soir"."""
    mention = find_date(text, THU)
    assert ((mention.day.isoformat(), mention.text) if mention else (None, None)) == (expected, found)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("ferm\u00e9 lun?", "2019-10-07"),  # French short weekdays
        ("ouvert ven prochain?", "2019-10-04"),
        ("c ouvert 2main?", "2019-10-04"),  # texted "demain"
        ("ce lundi-l\u00e0, y a-tu de l'\u00e9cole?", "2019-10-07"),
        ("the 2 main schools", None),
        ("la lune", None),
    ],
)
def test_french_short_and_texted_days(text, expected):
    found = find_date(text, THU)
    assert (found.day.isoformat() if found else None) == expected


@pytest.mark.parametrize("text", ["l'\u00e9cole est-tu ouverte en fin de semaine?", "la fin de semaine",
                                  "cette fin-de-semaine", "la garderie pendant la fds"])
def test_french_fin_de_semaine_is_the_weekend(text):
    assert mentions_weekend(text)
    assert find_date(text, THU) is None


def test_the_end_of_something_else_is_no_weekend():
    assert not mentions_weekend("\u00e0 la fin de la gr\u00e8ve")
    assert not mentions_weekend("\u00e0 la fin de la semaine prochaine")


def test_french_weekend_and_ranges():
    assert mentions_weekend("samedi ou dimanche")
    assert mentions_weekend("ce week-end")
    assert find_date("samedi ou dimanche", THU) is None
    assert find_date("du lundi au vendredi", THU) is None


@pytest.mark.parametrize(
    "text, today, expected",
    [
        ("le 7", THU, "2019-10-07"),  # the next 7th from today: this month
        ("est-ce que l'\u00e9cole est ouverte le 8?", THU, "2019-10-08"),
        ("le 3", THU, "2019-10-03"),  # today is the 3rd
        ("le 2", THU, "2019-11-02"),  # the 2nd is past: next month's
        ("le 1er", THU, "2019-11-01"),
        ("le 31", D(2019, 11, 5), "2019-12-31"),  # November has no 31st
        ("ouvert le 7 octobre?", THU, "2019-10-07"),
        ("le 7 octobre", THU, "2019-10-07"),
        ("le 1er novembre", THU, "2019-11-01"),
        ("a partir du 8", THU, "2019-10-08"),
        ("mardi le 8", THU, "2019-10-08"),
        ("jeudi le 10", THU, "2019-10-10"),
        ("mardi 8", THU, "2019-10-08"),  # the 8th is a Tuesday
        ("lundi 8", THU, "2019-10-07"),  # it is not a Monday: the weekday stands
        ("lundi prochain", THU, "2019-10-07"),
        ("demain", THU, "2019-10-04"),
        ("apr\u00e8s-demain", THU, "2019-10-05"),
        ("lundi de la semaine prochaine", MON, "2019-10-14"),
        ("vendredi de la semaine prochaine", THU, "2019-10-11"),  # not tomorrow
        ("vendredi la semaine prochaine", THU, "2019-10-11"),
        ("la semaine prochaine, vendredi", THU, "2019-10-11"),
        ("vendredi cette semaine", THU, "2019-10-04"),
        ("dans 2 jours", THU, "2019-10-05"),
        ("dans deux jours", THU, "2019-10-05"),
        ("cet apr\u00e8s-midi", THU, "2019-10-03"),
        ("le 7 mai", THU, "2019-05-07"),
        ("le 15 f\u00e9vrier", THU, "2020-02-15"),
        ("7 ao\u00fbt", THU, "2019-08-07"),
        ("the 7th", THU, "2019-10-07"),  # English is unchanged
        ("on the 7th", THU, "2019-10-07"),
        ("monday 7", THU, "2019-10-07"),
        ("monday 8", THU, "2019-10-07"),
    ],
)
def test_french_days_of_the_month_and_weeks(text, today, expected):
    assert iso(text, today) == expected


def test_french_day_of_month_spans():
    assert find_date("l'\u00e9cole est ouverte le 7?", THU).text == "le 7"
    assert find_date("mardi le 8 \u00e0 ottawa", THU).text == "mardi le 8"
    assert find_date("ferm\u00e9 lundi de la semaine prochaine?", THU).text == "lundi de la semaine prochaine"


@pytest.mark.parametrize(
    "text",
    ["le 3 enfants", "le 7e", "le 3e \u00e9tage", "le 2 pour 1", "du 7 au 11 octobre", "du 5 %",
     "la semaine prochaine", "semaine prochaine", "dans 2 semaines", "le 10 km", "cette semaine"],
)
def test_french_numbers_that_are_not_days(text):
    assert find_date(text, THU) is None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("are schools open on the 8th in durham", "2019-10-08"),
        ("the 8th in toronto?", "2019-10-08"),
        ("he was the 5th in line", None),
        ("she came 3rd in the class", None),
        ("the 2nd in a row", None),
    ],
)
def test_the_nth_followed_by_in(text, expected):
    assert iso(text) == expected


# --------------------------------------------------------------------------- config/dates.yaml


def _broken_copy(tmp_path, old: str, new: str):
    from pathlib import Path

    text = Path(vocabulary.DATES_FILE).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "dates.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "old, new, problem",
    [
        ("[Friday, fri,", "[Friday, fri, fr1day,", "weekdays[4]: 'fr1day' is not a single word of letters"),
        ("[Friday, fri,", "[Friday, fri, mar,", "months[2]: 'mar' is already in weekdays[4]"),
        ("  - [May, mai]\n", "", "months: expected 12 entries, got 11"),
        ("  yesterday: [", "  yesteday: [", "relative_days: expected exactly the entries today, tomorrow, yesterday"),
        ("spelling_checked: [monday,", "spelling_checked: [mondaze,", "spelling_checked: 'mondaze' is not one of"),
        ("not_months: [octopus,", "not_months: [[octopus],", "not_months: ['octopus'] is not a single word"),
        ("  weekdays: [lundi, mardi, mercredi, jeudi, vendredi, samedi, dimanche]",
         "  weekdays: [lundi, mardi]", "french_names: 'weekdays': expected 7 names, got ['lundi', 'mardi']"),
    ],
)
def test_a_broken_word_list_names_the_file_the_entry_and_the_problem(tmp_path, old, new, problem):
    from knowledge.loading import LoadError

    path = _broken_copy(tmp_path, old, new)
    with pytest.raises(LoadError) as caught:
        vocabulary.load_vocabulary(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and problem in message


def test_the_word_lists_are_read_from_config(tmp_path):
    """A spelling staff add to config/dates.yaml is a day word; the shipped file gives the names replies use."""
    path = _broken_copy(tmp_path, "[Friday, fri,", "[Friday, fri, frdy,")
    added = vocabulary.load_vocabulary(path)
    assert added.day_words["frdy"] == ("wd", 4)
    running = vocabulary.vocabulary()
    assert "frdy" not in running.day_words  # the running bot keeps what it loaded
    assert running.weekday_names[0] == "Monday" and running.month_names[10] == "October"
    assert running.day_words["demain"] == ("rel", 1) and running.month_words["octobre"] == 10
    assert running.after_two["morrow"] == 1


def test_importing_the_dates_reads_no_file():
    """config/dates.yaml is read at the first look-up, not when bot.dates is imported (issue 21)."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import bot.dates, bot.dates.vocabulary as v, bot.dates.parser, bot.dates.formatting\n"
            "assert not v._LEXICON and not v.DAY_CACHE.known, 'read at import'\n"
            "assert bot.dates.find_date('monday', __import__('datetime').date(2019, 10, 3)) is not None\n"
            "assert v._LEXICON and v.DAY_CACHE.known\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2])
