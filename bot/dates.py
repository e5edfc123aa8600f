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
  "lundi dernier" (the latest one before today), "aujourd'hui", "ce soir", "ce matin"
  (today), "demain", "apres-demain", "hier", "avant-hier", "1er octobre". "mon" stays
  French "my" before a French noun ("mon enfant", "mon ecole").

The module never raises on any text,
and is quick enough to run on every message: one regex pass splits the text into
tokens, then a small hand-written parser walks them.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from rapidfuzz.distance import OSA

__all__ = ["DateMention", "describe_day", "find_date", "mentions_weekend"]

def _distance(a: str, b: str, cutoff: int) -> int:
    """Edit distance where swapping two neighbouring letters costs one ("monady" -> "monday")."""
    return OSA.distance(a, b, score_cutoff=cutoff)


@dataclass(frozen=True, slots=True)
class DateMention:
    """A day found in a message, with where it was found."""

    day: datetime.date
    start: int  # span in the ORIGINAL text (so the caller can blank it out)
    end: int
    text: str  # the matched substring, text[start:end]


# --------------------------------------------------------------------------- vocabulary

_WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTH_NAMES = (
    "", "January", "February", "March", "April", "May", "June", "July",
    "August", "September", "October", "November", "December",
)

_WEEKDAY_FORMS = (
    ("monday", "mon", "mondy", "monady", "mondya", "munday", "mnday", "moday", "mondey", "lundi"),
    ("tuesday", "tues", "tue", "tuesdy", "tusday", "teusday", "tuseday", "tuesady", "tueday",
     "tuesay", "tusdy", "mardi"),
    ("wednesday", "wed", "weds", "wednes", "wendsday", "wensday", "wednsday", "wedensday",
     "wednessday", "wedsday", "wenesday", "wendesday", "wednseday", "wedneday", "wedday", "mercredi", "mecredi", "mercerdi"),
    ("thursday", "thurs", "thur", "thu", "thrusday", "thurday", "thursdy", "thirsday",
     "thusday", "thrursday", "thurdsay", "thursady", "thuesday", "jeudi"),
    ("friday", "fri", "fryday", "firday", "fridy", "frday", "friady", "fridya", "vendredi", "vendredie"),
    ("saturday", "sat", "saterday", "satruday", "saturdy", "satuday", "satarday", "saturady",
     "sataurday", "satday", "samedi"),
    ("sunday", "sun", "sundy", "sunady", "snday", "sonday", "sundya", "dimanche", "dimance"),
)
_TODAY_FORMS = ("today", "todays", "tday", "tdy", "todya", "tonight", "tonite", "tonights",
                "tonigth", "tonihgt", "tonght", "2nite",
                # French
                "aujourdhui", "aujourdh", "ajd", "auj")
_TOMORROW_FORMS = ("tomorrow", "tomorrows", "tmrw", "tmr", "tmrow", "tmro", "tmrrw", "tmmrw",
                   "tmrws", "tmw", "tmoro", "tmorrow", "tomorow", "tommorow", "tommorrow",
                   "tomorrw", "tomorro", "tomoro", "tomrw", "tomrrow", "tomrow", "tomoz",
                   "tomorrrow", "tomoorow", "tommorw", "tomorroe", "tomrorow",
                   # French
                   "demain", "dmain", "demin")
_YESTERDAY_FORMS = ("yesterday", "yesterdays", "yday", "yest", "ystrdy", "yesterdy", "yestrday",
                    "yesteday", "yesturday", "yesterady",
                    # French
                    "hier")
# what follows an attached "2": "2morrow", "2moro", "2day", "2nite"
_TWO_SUFFIX = {
    "morrow": 1, "moro": 1, "morow": 1, "mrw": 1, "mrow": 1, "mro": 1, "mrrw": 1, "mor": 1,
    "moz": 1, "mora": 1, "morro": 1, "mmorow": 1, "mrrow": 1,
    "day": 0, "nite": 0, "night": 0, "nyt": 0,
}

# token -> ("wd", 0..6) | ("rel", day offset)
_LEX_EXACT: dict[str, tuple[str, int]] = {}
for _k, _forms in enumerate(_WEEKDAY_FORMS):
    for _f in _forms:
        _LEX_EXACT[_f] = ("wd", _k)
for _f in _TODAY_FORMS:
    _LEX_EXACT[_f] = ("rel", 0)
for _f in _TOMORROW_FORMS:
    _LEX_EXACT[_f] = ("rel", 1)
for _f in _YESTERDAY_FORMS:
    _LEX_EXACT[_f] = ("rel", -1)

# Misspellings not listed above are caught by edit distance to these (same first letter,
# at most 1 edit for names of up to 7 letters, 2 for longer ones).
_FUZZY_CANON = (
    ("monday", ("wd", 0)), ("tuesday", ("wd", 1)), ("wednesday", ("wd", 2)),
    ("thursday", ("wd", 3)), ("friday", ("wd", 4)), ("saturday", ("wd", 5)),
    ("sunday", ("wd", 6)), ("today", ("rel", 0)), ("tonight", ("rel", 0)),
    ("mercredi", ("wd", 2)), ("vendredi", ("wd", 4)), ("dimanche", ("wd", 6)),
    ("tomorrow", ("rel", 1)), ("yesterday", ("rel", -1)),
)
_FUZZY_BY_FIRST: dict[str, list[tuple[str, tuple[str, int], int]]] = {}
for _c, _v in _FUZZY_CANON:
    _FUZZY_BY_FIRST.setdefault(_c[0], []).append((_c, _v, 1 if len(_c) <= 7 else 2))
# real words (and names) within the edit budget of a day word
_FUZZY_STOP = frozenset((
    "sundry", "sundae", "sundaes", "sunray", "sunrays", "frida", "fridas", "toddy", "tokay",
    "monda", "mondo", "mandy", "monty", "money", "moody", "mondale",
    "tonal", "tonic", "tonics", "thirsty", "thready", "thursby", "satay", "satays",
    "sunda", "sundar", "sunder", "saturn", "yesteryear", "tomboy", "topaz", "tidal",
))

_MONTH_FORMS = (
    ("january", "jan", "janurary", "januray", "janaury", "jaunary", "janary"),
    ("february", "feb", "febuary", "feburary", "febraury", "febrary", "februrary", "febr"),
    ("march", "mar"),
    ("april", "apr", "aprl", "apirl"),
    ("may",),
    ("june", "jun"),
    ("july", "jul"),
    ("august", "aug", "agust", "augst", "auguest"),
    ("september", "sep", "sept", "septmber", "setember", "septemeber", "sepember", "septembre",
     "setpember", "septmeber", "spet"),
    ("october", "oct", "ocotber", "octber", "octobr", "octobre", "ocober", "octobor", "otcober",
     "octo"),
    ("november", "nov", "novmber", "novemeber", "novembre", "novemer", "noveber"),
    ("december", "dec", "decmber", "decemeber", "decembre", "decemer", "deceber"),
)
_MONTH_EXACT: dict[str, int] = {}
for _k, _forms in enumerate(_MONTH_FORMS, start=1):
    for _f in _forms:
        _MONTH_EXACT[_f] = _k
# "march" is left out on purpose: "match 5" must not become March 5.
_MONTH_FUZZY = tuple(
    (_forms[0], _k, 1 if len(_forms[0]) <= 6 else 2)
    for _k, _forms in enumerate(_MONTH_FORMS, start=1)
    if len(_forms[0]) >= 5 and _forms[0] != "march"
)
_MONTH_STOP = frozenset(("octopus", "augment", "decembers", "novembers", "match", "marsh",
                         "mayor", "mayday", "jaguar"))
# month names that are ordinary English words: they need a bare day number, not "first"
_AMBIGUOUS_MONTHS = frozenset(("may", "march", "mar"))
_AMBIG_MONTH_BAD_PREV = frozenset((
    "i", "you", "we", "they", "he", "she", "it", "there", "which", "who", "that", "this",
    "schools", "school", "union", "workers", "board", "boards", "parents", "kids", "teachers",
    "staff", "strike", "province", "government", "cupe",
))
_AMBIG_MONTH_BAD_NEXT = frozenset((
    "more", "of", "percent", "per", "times", "people", "kids", "days", "weeks", "months",
    "years", "hours", "schools", "workers", "staff", "students", "%", "or", "x",
))

_ORD_SUFFIX = frozenset(("st", "nd", "rd", "th", "er"))  # "er": French "1er octobre"
_ORD_UNITS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9,
}
_ORD_WORDS = dict(_ORD_UNITS)
_ORD_WORDS.update({
    "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
    "twentieth": 20, "thirtieth": 30,
})
for _u, _v in _ORD_UNITS.items():
    _ORD_WORDS["twenty" + _u] = 20 + _v
_ORD_WORDS["thirtyfirst"] = 31
_ORD_TENS = {"twenty": 20, "thirty": 30}
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "a": 1,
}

_WEEKEND_WORDS = frozenset((
    "weekend", "weekends", "wknd", "wknds", "wkend", "wkends", "weeknd", "wekend", "weekened",
    "weeekend", "weekned", "wkd",
))

_MODIFIERS = frozenset(("this", "next", "nxt", "last", "past", "coming", "upcoming", "ce"))
# French: "ce matin", "ce soir" (today); after the weekday: "lundi prochain" is the next
# Monday (as "lundi" alone), "lundi dernier" the last one
_FR_PART_OF_TODAY = frozenset(("matin", "soir", "aprem", "midi"))
_FR_NEXT = frozenset(("prochain", "prochaine"))
_FR_LAST = frozenset(("dernier", "derniere", "derni\u00e8re", "passe", "pass\u00e9"))
# "apres-demain" (+2) and "avant-hier" (-2): first word -> (second word, offset)
_FR_TWO_DAYS = {"apres": ("demain", 2), "apr\u00e8s": ("demain", 2), "avant": ("hier", -2)}
_PART_OF_TODAY = frozenset(("morning", "afternoon", "evening", "aft", "arvo", "avo", "eve",
                            "morn", "mornin"))
_PAIR_SEPS = frozenset(("or", "and", "ou", "et", "au", "&", "/", "-", "\u2013", "\u2014", "to", "thru",
                        "through", "n", "+", "till", "til", "until", "vs"))
_RANGE_SEPS = frozenset(("-", "\u2013", "\u2014", "to", "au", "thru", "through", "till", "til",
                         "until"))
_APOSTROPHES = frozenset(("'", "\u2019", "`", "\u2018"))

# short weekday forms that are also ordinary words: (bad previous word, bad next word)
_SHORT_CONTEXT: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "sat": (
        frozenset(("i", "we", "they", "he", "she", "you", "who", "it", "kids", "kid", "just",
                   "had", "has", "have", "was", "were", "been", "then", "cat", "dog", "u",
                   "ive", "weve", "theyve", "finally", "still", "once", "never")),
        frozenset(("down", "around", "through", "there", "here", "idle", "empty", "outside",
                   "inside", "beside", "back", "alone", "together", "quietly", "exam",
                   "exams", "test", "tests", "score", "scores", "prep", "nav", "still",
                   "waiting", "silently", "up")),
    ),
    "sun": (
        frozenset(("the", "toronto", "ottawa", "calgary", "edmonton", "winnipeg", "vancouver",
                   "london", "a", "under", "hot", "bright", "setting", "rising", "midnight",
                   "morning", "summer", "winter", "some", "more", "much", "of")),
        frozenset(("life", "media", "news", "newspaper", "reported", "reports", "says", "is",
                   "was", "shine", "shines", "shining", "screen", "hat", "hats", "burn", "rise",
                   "set", "sets", "light", "protection", "tan", "damage", "exposure",
                   "glasses", "block", "room", "dried")),
    ),
    "wed": (
        frozenset(("get", "got", "getting", "gets", "newly", "be", "been")),
        frozenset(("like", "love", "need", "have", "be", "rather", "better", "want", "prefer",
                   "appreciate", "get", "go", "do", "know", "never", "probably", "still",
                   "also", "just", "all", "both", "only", "really", "definitely", "lose",
                   "miss", "send", "keep", "take", "pay", "find", "hear", "see", "call",
                   "couple", "couples")),
    ),
    "mon": (
        frozenset(("c", "ya", "yah", "yeah", "hey",
                   # French: "pour mon ...", "avec mon ...", "et mon ..."
                   "pour", "avec", "dans", "selon", "chez", "de", "et", "que", "sur", "par",
                   "sans", "est", "a", "\u00e0")),
        frozenset(("enfant", "enfants", "fils", "fille", "ami", "amie", "dieu", "pere",
                   "p\u00e8re", "mari", "chum", "\u00e9cole", "ecole", "cher", "coeur",
                   "fr\u00e8re", "frere", "petit", "b\u00e9b\u00e9", "bebe", "garcon",
                   "gar\u00e7on", "gars", "travail", "horaire", "bureau", "patron", "conjoint",
                   "\u00e9poux", "epoux", "copain", "prof", "professeur", "enseignant",
                   "enseignante", "\u00e9ducatrice", "educatrice", "quartier", "courriel",
                   "abonnement", "conseil", "avis", "c\u00f4t\u00e9", "cote", "service",
                   "cousin", "neveu", "oncle", "grand", "plus", "seul", "\u00e9l\u00e8ve",
                   "eleve", "coll\u00e8gue", "collegue")),
    ),
}

# what may not follow "the 7th" when it is to be a date
_NTH_BAD_NEXT = frozenset((
    "grade", "grades", "grader", "graders", "gr", "grd", "floor", "period", "time", "times",
    "place", "year", "years", "day", "days", "week", "weeks", "month", "months", "century",
    "anniversary", "birthday", "inning", "hour", "hours", "percentile", "round", "attempt",
    "try", "class", "row", "street", "st", "ave", "avenue", "person", "kid", "child",
    "student", "teacher", "school", "board", "edition", "generation", "largest", "biggest",
    "most", "best", "worst", "smallest", "one", "ones", "of", "line", "team", "level",
    "semester", "term", "strike", "meeting", "session", "offer", "contract", "deal", "bday",
    "b", "consecutive", "straight", "amendment", "reading", "draft", "step",
))
# after "the 7th in": these make it a rank ("the 5th in line", "3rd in the class"), not a day
_NTH_BAD_AFTER_IN = frozenset(("line", "a", "the", "class", "row", "grade", "my", "his", "her", "our", "their"))
# words before a bare number that make it a count, a grade or a label, not a day
_NUM_BAD_PREV = frozenset((
    "grade", "grades", "gr", "grd", "rated", "rating", "score", "scored", "room", "rm", "bus",
    "route", "no", "number", "#", "ch", "chapter", "page", "pg", "step", "level", "unit",
    "ratio", "mark", "marks", "got", "gave", "about", "over", "under", "than", "only", "just",
    "nearly", "almost", "x", "version", "v", "class", "kids", "ages", "age", "aged", "top",
    "bill", "$",
))
# after "1/2": a fraction, not January 2
_FRACTION_NEXT = frozenset((
    "day", "days", "of", "hr", "hrs", "hour", "hours", "off", "price", "time", "cup", "cups",
    "tsp", "tbsp", "way", "split", "class", "inch", "inches", "km", "mile", "miles", "kg",
    "lb", "lbs", "pay", "staff", "majority", "strength", "mark",
))
# after a day number: a time or a quantity, not a day
_DAYNUM_BAD_NEXT = frozenset((
    "am", "pm", "oclock", "percent", "pct", "%", "million", "billion", "thousand", "hundred",
    "k", "m", "hrs", "hr", "h", "min", "mins", "minutes", "hours", "hour", "sec", "secs",
    "seconds", "ish",
))
_ON_WORDS = frozenset(("on", "by", "until", "till", "til", "before", "after", "since", "from",
                       "for", "starting", "thru", "through", "begins", "ends", "effective"))

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# the tokens of a whitespace-free chunk: a run of letters, a run of ASCII digits, or one
# other character
_CHUNK_RE = re.compile(r"[^\W\d_]+|[0-9]+|.", re.DOTALL)

_NO = ("", 0)  # cache marker for "not a day word"
_LEX_CACHE: dict[str, tuple[str, int]] = dict(_LEX_EXACT)
_MONTH_CACHE: dict[str, int] = dict(_MONTH_EXACT)
_CACHE_LIMIT = 20000

# sentinels for spans that name no single day
_INVALID = "invalid"  # looked like a date but is not one ("feb 30")
_SPAN = "span"  # "sat or sun", "mon to fri"


# --------------------------------------------------------------------------- helpers


_DIGITS = frozenset("0123456789")


def _isnum(t: str) -> bool:
    """An ASCII digit run (the tokenizer never mixes digits with anything else)."""
    return t[:1] in _DIGITS


def _lower(text: str) -> str:
    """Lower-case without changing any index (so spans map back to the original)."""
    s = text.lower()
    if len(s) != len(text):  # some character lower-cases to two ("İ"): ASCII only then
        s = text.translate(_ASCII_LOWER)
    return s


def _fuzzy_lex(t: str) -> tuple[str, int]:
    n = len(t)
    if n < 5 or n > 11 or t in _FUZZY_STOP or not t.isascii() or not t.isalpha():
        return _NO
    best = _NO
    best_d = 99
    for canon, val, thr in _FUZZY_BY_FIRST.get(t[0], ()):
        if abs(len(canon) - n) > thr:
            continue
        d = _distance(t, canon, thr)
        if d <= thr and d < best_d:
            best, best_d = val, d
    if best[0] == "wd" and t[-1] == "s":  # "mondays", "fridays": every week, not one day
        return _NO
    return best


def _lex(t: str) -> tuple[str, int]:
    r = _LEX_CACHE.get(t)
    if r is None:
        r = _LEX_EXACT.get(t) or _fuzzy_lex(t)
        if len(_LEX_CACHE) > _CACHE_LIMIT:
            _LEX_CACHE.clear()
            _LEX_CACHE.update(_LEX_EXACT)
        _LEX_CACHE[t] = r
    return r


def _month_of(t: str) -> int:
    m = _MONTH_CACHE.get(t)
    if m is None:
        m = _MONTH_EXACT.get(t, 0)
        n = len(t)
        if not m and 5 <= n <= 11 and t not in _MONTH_STOP and t.isascii() and t.isalpha():
            best_d = 99
            for canon, k, thr in _MONTH_FUZZY:
                if canon[0] != t[0] or abs(len(canon) - n) > thr:
                    continue
                d = _distance(t, canon, thr)
                if d <= thr and d < best_d:
                    m, best_d = k, d
        if len(_MONTH_CACHE) > _CACHE_LIMIT:
            _MONTH_CACHE.clear()
            _MONTH_CACHE.update(_MONTH_EXACT)
        _MONTH_CACHE[t] = m
    return m


def _nearest_year(month: int, day: int, today: datetime.date) -> datetime.date | None:
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


def _day_of_month(day: int, today: datetime.date) -> datetime.date | None:
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


def _weekday_date(wd: int, today: datetime.date, mode: str | None) -> datetime.date:
    if mode == "next":  # that weekday in the next calendar week
        return today + datetime.timedelta(days=7 - today.weekday() + wd)
    if mode == "thisweek":  # "friday this week": that weekday in the current calendar week
        return today + datetime.timedelta(days=wd - today.weekday())
    if mode == "last":  # the latest one strictly before today
        return today - datetime.timedelta(days=(today.weekday() - wd) % 7 or 7)
    return today + datetime.timedelta(days=(wd - today.weekday()) % 7 or 7)


def _as_date(value) -> datetime.date:
    if isinstance(value, datetime.datetime):
        return value.date()
    return value


_TRIGGERS = frozenset(
    set(_LEX_EXACT) | set(_MONTH_EXACT) | set(_ORD_WORDS) | set(_ORD_TENS) | set(_MODIFIERS)
    | {"the", "day", "in"} | set(_FR_TWO_DAYS) | {"aujourd"}
)
# token -> whether a date pattern can start at it (digits are checked separately)
_INTEREST: dict[str, bool] = dict.fromkeys(_TRIGGERS, True)


def _interest(t: str) -> bool:
    v = t in _TRIGGERS or bool(_lex(t)[0]) or bool(_month_of(t))
    if len(_INTEREST) > _CACHE_LIMIT:
        _INTEREST.clear()
        _INTEREST.update(dict.fromkeys(_TRIGGERS, True))
    _INTEREST[t] = v
    return v


# --------------------------------------------------------------------------- the parser


class _Parser:
    """Walks the token list. Every ``_x`` method either returns None (no match at this
    token) or ``(start_token, end_token_exclusive, result)`` where result is a date,
    ``_INVALID`` or ``_SPAN``."""

    __slots__ = ("E", "S", "T", "n", "today")

    def __init__(self, s: str, today: datetime.date | None) -> None:
        T: list[str] = []
        S: list[int] = []
        E: list[int] = []
        pos = 0
        find = s.find
        for chunk in s.split():
            pos = find(chunk, pos)
            if chunk.isalpha():  # the common case: a plain word is one token
                T.append(chunk)
                S.append(pos)
                pos += len(chunk)
                E.append(pos)
            else:
                for tok in _CHUNK_RE.findall(chunk):
                    T.append(tok)
                    S.append(pos)
                    pos += len(tok)
                    E.append(pos)
        self.T, self.S, self.E, self.n, self.today = T, S, E, len(T), today

    # -- small utilities

    def _att(self, j: int) -> bool:
        """Token j touches token j-1 (no space between)."""
        return 0 < j < self.n and self.S[j] == self.E[j - 1]

    def _tok(self, j: int) -> str:
        return self.T[j] if 0 <= j < self.n else ""

    def _daynum(self, i: int, left_ok: bool):
        """Token i as a day of the month: (value, next token, had "th") or None."""
        T, n = self.T, self.n
        t = T[i]
        if len(t) > 2 or not _isnum(t):
            return None
        if not left_ok and self._att(i):
            p = T[i - 1]
            if p.isalnum() or p in "$.,/-:#+'\u2019_\u20ac\u00a3%":
                return None
        v = int(t)
        if v < 1 or v > 31:
            return None
        j = i + 1
        ordinal = False
        if j < n and T[j] in _ORD_SUFFIX and self._att(j):
            ordinal = True
            j += 1
        if j < n:
            nt = T[j]
            if self._att(j):
                if nt in (":", "%", "/", "_") or nt[0].isalnum():
                    return None
                if nt in (".", ",", "-") and j + 1 < n and self._att(j + 1):
                    after = T[j + 1]
                    if nt == "-":
                        if not _isnum(after):  # "7-day", "7th-grade"
                            return None
                    elif _isnum(after):  # "7.5", "55,000"
                        return None
            if nt in _DAYNUM_BAD_NEXT:
                return None
            if nt in ("a", "p") and self._tok(j + 1) == "." and self._tok(j + 2) == "m":
                return None  # "7 a.m."
            if nt == "o" and self._tok(j + 1) in _APOSTROPHES:
                return None  # "7 o'clock"
        return v, j, ordinal

    def _year(self, k: int) -> tuple[int | None, int]:
        """An optional year after a month and day: "oct 7, 2019", "oct 7 '19"."""
        T, n = self.T, self.n
        j = k
        if j < n and T[j] == ",":
            j += 1
        if j < n:
            t = T[j]
            y = None
            end = j + 1
            if len(t) == 4 and _isnum(t):
                y = int(t)
            elif t in _APOSTROPHES and j + 1 < n and self._att(j + 1):
                t2 = T[j + 1]
                if len(t2) == 2 and _isnum(t2):
                    y = 2000 + int(t2)
                    end = j + 2
            if y is not None and self.today is not None and abs(y - self.today.year) <= 10:
                if end < n and self._att(end):
                    nt = T[end]
                    if nt[0].isalnum() or nt in (":", "%", "/", "-", "_"):
                        return None, k
                return y, end
        return None, k

    def _make(self, start: int, end: int, month: int, day: int, year: int | None):
        if year is not None:
            try:
                return start, end, datetime.date(year, month, day)
            except (ValueError, OverflowError):
                return start, end, _INVALID
        d = _nearest_year(month, day, self.today)
        return start, end, (d if d is not None else _INVALID)

    # -- patterns

    def _month_day(self, i: int, start: int):
        """"oct 7", "October 7th, 2019", "oct. 7", "oct7", "october the 7th", "oct first"."""
        T, n = self.T, self.n
        t = T[i]
        month = _month_of(t)
        if not month:
            return None
        j = i + 1
        if j < n and T[j] == "." and self._att(j):
            j += 1
        if j < n and T[j] == ",":
            j += 1
        if j < n and T[j] == "the":
            j += 1
        if j >= n:
            return None
        d = T[j]
        if _isnum(d):
            r = self._daynum(j, left_ok=True)
            if r is None:
                return None
            day, k, ordinal = r
            if t in _AMBIGUOUS_MONTHS and not ordinal and (self._tok(i - 1) in _AMBIG_MONTH_BAD_PREV
                    or self._tok(k) in _AMBIG_MONTH_BAD_NEXT):
                return None  # "they may 2x it", "march 5 km"
        elif t in _AMBIGUOUS_MONTHS:
            return None  # "you may first ..."
        else:
            r = self._ordinal_word(j)
            if r is None:
                return None
            day, k = r
        year, k = self._year(k)
        return self._make(start, k, month, day, year)

    def _ordinal_word(self, j: int):
        """"seventh", "twenty-first", "twenty first": (day, next token) or None."""
        T, n = self.T, self.n
        t = T[j]
        v = _ORD_WORDS.get(t)
        if v is not None:
            return v, j + 1
        tens = _ORD_TENS.get(t)
        if tens is not None:
            k = j + 1
            if k < n and T[k] == "-":
                k += 1
            if k < n and T[k] in _ORD_UNITS:
                v = tens + _ORD_UNITS[T[k]]
                if v <= 31:
                    return v, k + 1
        return None

    def _day_month(self, i: int, start: int, left_ok: bool = False):
        """"7 October", "7th of oct", "7 oct 2019" (i is the number)."""
        T, n = self.T, self.n
        if not left_ok and self._tok(i - 1) in _NUM_BAD_PREV:
            return None  # in "grade 3 oct 7" the 3 is a grade, not the 3rd of October
        r = self._daynum(i, left_ok)
        if r is None:
            return None
        day, k, _ordinal = r
        if k < n and T[k] == "of":
            k += 1
        if k >= n:
            return None
        month = _month_of(T[k])
        if not month:
            return None
        k += 1
        if k < n and T[k] == "." and self._att(k):
            k += 1
        year, k = self._year(k)
        return self._make(start, k, month, day, year)

    def _ordword_month(self, i: int, start: int):
        """"seventh of october", "the first of may"."""
        T, n = self.T, self.n
        r = self._ordinal_word(i)
        if r is None:
            return None
        day, k = r
        had_of = k < n and T[k] == "of"
        if had_of:
            k += 1
        if k >= n:
            return None
        month = _month_of(T[k])
        if not month or (T[k] in _AMBIGUOUS_MONTHS and not had_of):
            return None
        k += 1
        if k < n and T[k] == "." and self._att(k):
            k += 1
        year, k = self._year(k)
        return self._make(start, k, month, day, year)

    def _nth(self, i: int, start: int, left_ok: bool = False):
        """"the 7th": this month if not yet past, else next month. Needs the suffix."""
        r = self._daynum(i, left_ok)
        if r is None or not r[2]:
            return None
        day, k, _ = r
        if self._tok(k) in _NTH_BAD_NEXT:
            return None
        if self._tok(k) == "in" and self._tok(k + 1) in _NTH_BAD_AFTER_IN:  # "the 5th in line", not "the 8th in durham"
            return None
        d = _day_of_month(day, self.today)
        return start, k, (d if d is not None else _INVALID)

    def _numeric(self, i: int, start: int):
        """"10/7", "10/07/2019", "10/7/19" (month first) and ISO "2019-10-07"."""
        T, n = self.T, self.n
        t = T[i]
        if self._att(i):
            p = T[i - 1]
            if p.isalnum() or p in "$.,/-:#+'\u2019_\u20ac\u00a3%":
                return None
        if self._tok(i - 1) in _NUM_BAD_PREV and start == i:
            return None
        if len(t) == 4:  # ISO year-month-day
            if i + 4 >= n:
                return None
            sep = T[i + 1]
            if sep not in ("-", "/", ".") or T[i + 3] != sep:
                return None
            mo, dd = T[i + 2], T[i + 4]
            if not (_isnum(mo) and _isnum(dd) and len(mo) <= 2 and len(dd) <= 2):
                return None
            if not all(self._att(j) for j in range(i + 1, i + 5)):
                return None
            k = i + 5
            if k < n and self._att(k):
                nt = T[k]
                if _isnum(nt) or (nt in ("-", "/", ".") and self._att(k + 1)
                                  and _isnum(self._tok(k + 1))):
                    return None
                if nt[0].isalpha() and not nt.startswith("t"):  # "2019-10-07T09:00" is fine
                    return None
            return self._make(start, k, int(mo), int(dd), int(t))
        if len(t) > 2 or i + 2 >= n or T[i + 1] != "/":
            return None
        d = T[i + 2]
        if not (_isnum(d) and len(d) <= 2 and self._att(i + 1) and self._att(i + 2)):
            return None
        mo, dd = int(t), int(d)
        k = i + 3
        year = None
        if k + 1 < n and T[k] == "/" and self._att(k) and self._att(k + 1) and _isnum(T[k + 1]):
            yt = T[k + 1]
            if len(yt) == 4:
                year = int(yt)
            elif len(yt) == 2:
                year = 2000 + int(yt)
            else:
                return None
            k += 2
        if k < n:
            nt = T[k]
            if self._att(k):
                if nt[0].isalnum() or nt in ("/", "%", ":", "_"):
                    return None
                if nt in (".", ",", "-") and self._att(k + 1) and _isnum(self._tok(k + 1)):
                    return None
            if nt in _FRACTION_NEXT:
                return None
        if not (1 <= mo <= 12 and 1 <= dd <= 31):
            return None  # "24/7", "50/50": not a date at all
        return self._make(start, k, mo, dd, year)

    def _date_part(self, k: int):
        """An explicit date right after a weekday ("monday, oct 7th", "mon the 7th")."""
        T, n = self.T, self.n
        if k < n and T[k] == ",":
            k += 1
        if k >= n:
            return None
        t = T[k]
        if t in ("the", "le"):  # "monday the 7th", "lundi le 7 octobre"
            if k + 1 < n:
                nt = T[k + 1]
                if _isnum(nt):
                    return self._day_month(k + 1, k, True) or self._nth(k + 1, k, True)
                return self._ordword_month(k + 1, k)
            return None
        if _isnum(t):
            return (self._numeric(k, k) or self._day_month(k, k, True)
                    or self._nth(k, k, True))
        if t.isalpha():
            return self._month_day(k, k) or self._ordword_month(k, k)
        return None

    def _weekday_at(self, j: int) -> int | None:
        """Token j as a weekday (with the checks that keep "c'mon", "i sat", "the sun" out)."""
        if j >= self.n:
            return None
        T = self.T
        t = T[j]
        kind, wd = _lex(t)
        if kind != "wd":
            return None
        if self._att(j) and T[j - 1] in _APOSTROPHES:
            return None  # "c'mon"
        if j + 2 < self.n and T[j + 1] == "-" and self._att(j + 1) and self._att(j + 2):
            nt = T[j + 2]
            if nt[0].isalpha() and _lex(nt)[0] != "wd":
                return None  # "sun-dried", "monday-ish"
        ctx = _SHORT_CONTEXT.get(t)
        if ctx is not None:
            if j > 0 and T[j - 1] in ctx[0]:
                return None
            if j + 1 < self.n and T[j + 1] in ctx[1]:
                return None
        return wd

    def _weekday(self, start: int, j: int, wd: int, mode: str | None):
        """A weekday at token j, after a modifier starting at ``start`` (if any)."""
        T, n = self.T, self.n
        k = j + 1
        if k < n and T[k] == "." and self._att(k):
            k += 1
        r = self._date_part(k)
        if r is not None:  # an explicit date wins over the weekday
            return start, r[1], r[2]
        end = j + 1
        if mode in (None, "this") and k < n and (T[k] in _FR_NEXT or T[k] in _FR_LAST):
            # French "lundi prochain" is the coming Monday; "lundi dernier" the last one
            return start, k + 1, _weekday_date(wd, self.today, "last" if T[k] in _FR_LAST else None)
        if k < n and k + 1 < n and T[k + 1] in ("week", "wk"):
            w = T[k]
            if w == "next":
                mode, end = "next", k + 2
            elif w == "this" and mode is None:
                mode, end = "thisweek", k + 2
            elif w == "last":
                mode, end = "last", k + 2
        if mode is None and k < n and T[k] in _PAIR_SEPS:
            sep = T[k]
            m = k + 1
            if m < n and T[m] in ("on", "even", "maybe"):
                m += 1
            wd2 = self._weekday_at(m)
            if wd2 is not None and ({wd, wd2} == {5, 6} or sep in _RANGE_SEPS):
                return start, m + 1, _SPAN  # "sat or sun", "mon to fri"
        return start, end, _weekday_date(wd, self.today, mode)

    def _modified(self, i: int):
        """"this monday", "next fri", "last tuesday", "this coming wed", "next week monday",
        "this morning"."""
        T, n = self.T, self.n
        t = T[i]
        j = i + 1
        if j >= n:
            return None
        nt = T[j]
        if t == "ce":  # French "ce lundi", "ce soir", "ce matin"
            if nt in _FR_PART_OF_TODAY:
                return i, j + 1, self.today
            if _lex(nt)[0] != "wd":
                return None
            mode = "this"
        elif t == "this":
            if nt in _PART_OF_TODAY:
                return i, j + 1, self.today
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
                if k < n and T[k] in _APOSTROPHES:
                    k += 2
                if k < n and T[k] in ("on", ",", "-"):
                    k += 1
                wd = self._weekday_at(k)
                if wd is not None:
                    return i, k + 1, _weekday_date(wd, self.today, "next")
                return None
        elif t in ("last", "past"):
            mode = "last"
        else:  # coming, upcoming
            mode = "this"
        wd = self._weekday_at(j)
        if wd is None:
            return None
        return self._weekday(i, j, wd, None if mode == "this" else mode)

    def _relative_phrase(self, i: int):
        """"the day after tomorrow", "day before yesterday", "in 2 days", "3 days from now"."""
        T, _n = self.T, self.n
        t = T[i]
        j = i + 1 if t == "the" else i
        if self._tok(j) == "day" and self._tok(j + 1) in ("after", "before"):
            kind, off = _lex(self._tok(j + 2))
            if kind == "rel" and off != 0:
                sign = 1 if T[j + 1] == "after" else -1
                if (sign == 1) == (off == 1):
                    return i, j + 3, self.today + datetime.timedelta(days=2 * off)
        if t == "in":  # "in 2 days", "in two days", "in a couple of days"
            w = self._tok(i + 1)
            k = i + 2
            if w == "a" and self._tok(k) == "couple":
                num = 2
                k += 2 if self._tok(k + 1) == "of" else 1
            elif _isnum(w) and len(w) <= 2:
                num = int(w)
            else:
                num = _NUMBER_WORDS.get(w, 0)
            unit = self._tok(k)
            if num and unit in ("day", "days") and (num > 1 or unit == "day") \
                    and self._tok(k + 1) not in ("notice", "of", "strike", "off"):
                return i, k + 1, self.today + datetime.timedelta(days=num)
        if _isnum(t) and len(t) <= 2 and self._tok(i + 1) in ("day", "days") \
                and self._tok(i + 2) == "from" and self._tok(i + 3) in ("now", "today") \
                and not self._att(i):
            return i, i + 4, self.today + datetime.timedelta(days=int(t))
        return None

    def at(self, i: int):
        """The longest date pattern starting at token i, or None."""
        T = self.T
        t = T[i]
        c = t[0]
        if _isnum(c):
            if t == "2" and self._att(i + 1) and not self._att(i):
                off = _TWO_SUFFIX.get(self._tok(i + 1))
                if off is not None:  # "2morrow", "2day", "2nite"
                    return i, i + 2, self.today + datetime.timedelta(days=off)
            r = self._numeric(i, i)
            if r is not None:
                return r
            if len(t) <= 2:
                r = self._day_month(i, i) or self._relative_phrase(i)
                if r is not None:
                    return r
                if self._tok(i - 1) in _ON_WORDS:
                    return self._nth(i, i)
            return None
        if not c.isalpha():
            return None
        if t in _MODIFIERS:
            r = self._modified(i)
            if r is not None:
                return r
        elif t == "the":
            nt = self._tok(i + 1)
            if _isnum(nt):
                return self._day_month(i + 1, i, True) or self._nth(i + 1, i, True)
            if nt == "day":
                return self._relative_phrase(i)
            return self._ordword_month(i + 1, i) if nt in _ORD_WORDS or nt in _ORD_TENS else None
        elif t in ("day", "in"):
            return self._relative_phrase(i)
        elif t == "aujourd":  # "aujourd'hui" (the tokenizer splits at the apostrophe)
            if self._tok(i + 1) in _APOSTROPHES and self._tok(i + 2) == "hui" \
                    and self._att(i + 1) and self._att(i + 2):
                return i, i + 3, self.today
            return None
        elif t in _FR_TWO_DAYS:  # "apres-demain", "apres demain", "avant-hier"
            word, off = _FR_TWO_DAYS[t]
            k = i + 2 if self._tok(i + 1) == "-" else i + 1
            if self._tok(k) == word:
                return i, k + 1, self.today + datetime.timedelta(days=off)
            return None
        kind, val = _lex(t)
        if kind == "wd":
            if self._weekday_at(i) is None:
                return None
            return self._weekday(i, i, val, None)
        if kind == "rel":
            return i, i + 1, self.today + datetime.timedelta(days=val)
        if t in _ORD_WORDS or t in _ORD_TENS:
            return self._ordword_month(i, i)
        return self._month_day(i, i)

    def first(self):
        i = 0
        n = self.n
        T = self.T
        get = _INTEREST.get
        while i < n:
            t = T[i]
            f = get(t)
            if f is None:
                f = _isnum(t[0]) or _interest(t)
            if not f:
                i += 1
                continue
            r = self.at(i)
            if r is None:
                i += 1
                continue
            if isinstance(r[2], datetime.date):
                return r
            i = max(r[1], i + 1)
        return None

    def weekend(self) -> bool:
        T, n = self.T, self.n
        for i in range(n):
            t = T[i]
            if t in _WEEKEND_WORDS:
                return True
            if t == "week" and i + 1 < n:
                k = i + 2 if T[i + 1] == "-" else i + 1
                if self._tok(k) in ("end", "ends"):
                    return True
            kind, wd = _lex(t)
            if kind == "wd" and wd >= 5 and self._weekday_at(i) is not None:
                k = i + 1
                if k < n and T[k] == "." and self._att(k):
                    k += 1
                if k < n and T[k] in _PAIR_SEPS:
                    m = k + 1
                    if m < n and T[m] in ("on", "even", "maybe"):
                        m += 1
                    wd2 = self._weekday_at(m)
                    if wd2 is not None and {wd, wd2} == {5, 6}:
                        return True
        return False


# --------------------------------------------------------------------------- public API


def find_date(text: str, today: datetime.date) -> DateMention | None:
    """The first specific day ``text`` names, worked out from ``today``; None if none.

    Never raises: anything odd (not a string, a date at the edge of the calendar) gives
    None.
    """
    if not isinstance(text, str) or not text:
        return None
    try:
        today = _as_date(today)
        parser = _Parser(_lower(text), today)
        r = parser.first()
        if r is None:
            return None
        start, end = parser.S[r[0]], parser.E[r[1] - 1]
        return DateMention(day=r[2], start=start, end=end, text=text[start:end])
    except Exception:  # never let a chat message break the bot
        return None


def mentions_weekend(text: str) -> bool:
    """True when the text speaks of the weekend as a span: "this weekend", "on the
    weekend", "over the wknd", "sat or sun", "saturday and sunday"."""
    if not isinstance(text, str) or not text:
        return False
    try:
        return _Parser(_lower(text), None).weekend()
    except Exception:
        return False


def describe_day(day: datetime.date, today: datetime.date) -> str:
    """"today, Thursday, October 3", "tomorrow, Friday, October 4", "Monday, October 7",
    "Wednesday, January 1, 2020" (the year only when it is not today's year)."""
    day = _as_date(day)
    today = _as_date(today)
    text = f"{_WEEKDAY_NAMES[day.weekday()]}, {_MONTH_NAMES[day.month]} {day.day}"
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
