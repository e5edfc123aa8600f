"""The day and month words (config/dates.yaml), validated on load, and the look-ups built from them.

``day_word("tmrw")`` gives ``("rel", 1)``, ``day_word("wendsday")`` ``("wd", 2)``;
``month_of("octobre")`` gives 10. Misspellings are matched by spelling distance and
remembered in bounded caches. The file is read once, at the first look-up (:func:`lexicon`;
nothing is read when this module is imported), and the checked result kept in the user's
cache directory (bot.prepared), so a start-up with an unchanged file reads no YAML.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rapidfuzz.distance import OSA

from bot import prepared
from bot.settings import CONFIG_DIR

DATES_FILE = CONFIG_DIR / "dates.yaml"
RELATIVE_OFFSETS = {"today": 0, "tomorrow": 1, "yesterday": -1}

DayWord = tuple[str, int]  # ("wd", 0..6 from Monday) | ("rel", offset in days) | NOT_A_DAY
NOT_A_DAY: DayWord = ("", 0)


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """What config/dates.yaml says, checked."""

    weekday_names: tuple[str, ...]  # "Monday" .. "Sunday", as replies write them
    month_names: tuple[str, ...]  # "", "January" .. "December"
    day_words: dict[str, DayWord]  # every spelling of a weekday or a relative day
    month_words: dict[str, int]  # every spelling of a month -> 1..12
    after_two: dict[str, int]  # "morrow" -> 1 ("2morrow"), "day" -> 0 ("2day")
    spelling_checked: tuple[str, ...]
    not_days: frozenset[str]
    not_months: frozenset[str]
    weekday_names_fr: tuple[str, ...] = ()  # "lundi" .. "dimanche", as French replies write them
    month_names_fr: tuple[str, ...] = ()  # "", "janvier" .. "décembre"
    month_abbreviations_fr: tuple[str, ...] = ()  # "", "janv." .. "déc." (for "au 2 oct. 2019, 20 h")


_SECTIONS = ("weekdays", "months", "relative_days", "after_two", "spelling_checked", "not_days", "not_months",
             "french_names")
_FRENCH_COUNTS = {"weekdays": 7, "months": 12, "months_short": 12}


def load_vocabulary(path: str | Path = DATES_FILE) -> Vocabulary:
    """Read and check the word lists; LoadError names the file, the entry and the problem (knowledge.fields)."""
    from knowledge import fields  # only when the cache is cold: yaml and the loaders
    from knowledge.reading import read_yaml, shown

    problems: list[str] = []
    data = fields.sections(read_yaml(path), str(path), _SECTIONS, "weekdays, months, relative_days ...", problems)
    owner: dict[str, str] = {}  # word -> the entry that has it

    def words(value, where: str) -> list[str]:
        if not isinstance(value, list) or not value:
            problems.append(f"{where}: expected a non-empty list of words, got {shown(value)}")
            return []
        found = []
        for word in value:
            if not isinstance(word, str) or not word.isalpha():
                problems.append(f"{where}: {shown(word)} is not a single word of letters")
                continue
            word = word.lower()
            if word in owner and owner[word] != where:
                problems.append(f"{where}: {shown(word)} is already in {owner[word]}")
                continue
            owner[word] = where
            found.append(word)
        return found

    def entries(key: str, count: int) -> list[list[str]]:
        value = data.get(key)
        if not isinstance(value, list) or len(value) != count:
            problems.append(f"{key}: expected {count} entries, got {shown(len(value) if isinstance(value, list) else value)}")
            return [[] for _ in range(count)]
        return [words(item, f"{key}[{k}]") for k, item in enumerate(value)]

    def table(key: str, names: tuple[str, ...]) -> dict[str, list[str]]:
        value = data.get(key)
        if not isinstance(value, dict) or set(value) != set(names):
            problems.append(f"{key}: expected exactly the entries {', '.join(names)}")
            value = value if isinstance(value, dict) else {}
        return {name: words(value.get(name), f"{key}.{name}") for name in names}

    weekdays = entries("weekdays", 7)
    months = entries("months", 12)
    relative = table("relative_days", tuple(RELATIVE_OFFSETS))
    day_words: dict[str, DayWord] = {}
    for k, forms in enumerate(weekdays):
        day_words.update((f, ("wd", k)) for f in forms)
    for name, forms in relative.items():
        day_words.update((f, ("rel", RELATIVE_OFFSETS[name])) for f in forms)
    owner.clear()  # the lists below may repeat day words: they are checked on their own
    after_two = {f: RELATIVE_OFFSETS[name] for name, forms in table("after_two", ("tomorrow", "today")).items()
                 for f in forms}
    owner.clear()
    checked = words(data.get("spelling_checked"), "spelling_checked")
    problems.extend(f"spelling_checked: {shown(w)} is not one of the weekday or relative-day words"
                    for w in checked if w not in day_words)
    owner.clear()
    not_days = words(data.get("not_days"), "not_days")
    owner.clear()
    not_months = words(data.get("not_months"), "not_months")
    french = fields.Entry(data.get("french_names"), "french_names", problems, needs="weekdays, months, months_short")
    names = {key: french.get(key, _names(count), default=("",) * count) for key, count in _FRENCH_COUNTS.items()}
    french.finish()
    fields.refuse(str(path), problems)
    return Vocabulary(
        weekday_names=tuple(forms[0].capitalize() for forms in weekdays),
        month_names=("", *(forms[0].capitalize() for forms in months)),
        day_words=day_words,
        month_words={f: k for k, forms in enumerate(months, start=1) for f in forms},
        after_two=after_two,
        spelling_checked=tuple(checked),
        not_days=frozenset(not_days),
        not_months=frozenset(not_months),
        weekday_names_fr=names["weekdays"],
        month_names_fr=("", *names["months"]),
        month_abbreviations_fr=("", *names["months_short"]),
    )


def _names(count: int):
    """The converter of a list of exactly `count` names (french_names: what French replies write)."""
    from knowledge import fields
    from knowledge.reading import shown

    def convert(value) -> tuple[str, ...]:
        found = fields.strings(value) if isinstance(value, list) else ()
        if len(found) != count:
            raise ValueError(f"expected {count} names, got {shown(value)}")
        return tuple(str(w).strip() for w in value)

    return convert


def user_cache_dir() -> Path:
    """Where prepared data that belongs to no database is kept: $XDG_CACHE_HOME/schoolbot or ~/.cache/schoolbot."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "schoolbot"


def _prepared_vocabulary(path: Path = DATES_FILE) -> Vocabulary:
    from knowledge.reading import LoadError, read_bytes

    try:
        key = prepared.digest(b"dates", read_bytes(path), Path(__file__).read_bytes(), sys.version)
    except LoadError:
        return load_vocabulary(path)  # a missing file: the loader says so, naming it
    return prepared.load_or_build(key, lambda: load_vocabulary(path), user_cache_dir(), name="dates")


@dataclass(frozen=True, slots=True)
class Lexicon:
    """The vocabulary the running bot reads, with the tables its spelling look-ups scan."""

    vocabulary: Vocabulary
    days_by_first_letter: dict[str, list[tuple[str, DayWord, int]]]
    months_checked: tuple[tuple[str, int, int], ...]


_LEXICON: list[Lexicon] = []  # the one Lexicon, once read


def lexicon() -> Lexicon:
    """config/dates.yaml's words, read (through the start-up cache) on first use and kept for the process."""
    if not _LEXICON:
        words = _prepared_vocabulary()
        by_letter: dict[str, list[tuple[str, DayWord, int]]] = {}
        for word in words.spelling_checked:
            by_letter.setdefault(word[0], []).append((word, words.day_words[word], _budget(word, 7)))
        # "march" is left out on purpose: "match 5" must not become March 5.
        months = tuple((name.lower(), k, _budget(name, 6)) for k, name in enumerate(words.month_names)
                       if len(name) >= 5 and name != "March")
        _LEXICON.append(Lexicon(words, by_letter, months))
    return _LEXICON[0]


def vocabulary() -> Vocabulary:
    """The day and month words of config/dates.yaml (read on first use)."""
    return lexicon().vocabulary


def _distance(a: str, b: str, cutoff: int) -> int:
    """Edit distance where swapping two neighbouring letters costs one ("monady" -> "monday")."""
    return OSA.distance(a, b, score_cutoff=cutoff)


def _budget(word: str, longest_with_one: int) -> int:
    return 1 if len(word) <= longest_with_one else 2


class Cache:
    """Remembered look-ups, emptied (back to the known words) when it grows past `limit`. The known words
    are made by `known()` at the first look-up not remembered (nothing is read when the module is imported)."""

    limit = 20000

    def __init__(self, known: Callable[[], dict]):
        self._make: Callable[[], dict] | None = known
        self.known: dict = {}
        self.seen: dict = {}

    def ready(self) -> None:
        """Fill in the known words, once (a look-up calls it before working a word out)."""
        if self._make is not None:
            self.known, self._make = self._make(), None
            self.seen.update(self.known)

    def put(self, word: str, value) -> None:
        if len(self.seen) > self.limit:
            self.seen.clear()
            self.seen.update(self.known)
        self.seen[word] = value

    def __len__(self) -> int:
        return len(self.seen)


DAY_CACHE = Cache(lambda: vocabulary().day_words)
MONTH_CACHE = Cache(lambda: vocabulary().month_words)


def _misspelt_day(t: str) -> DayWord:
    n = len(t)
    words = lexicon()
    if n < 5 or n > 11 or t in words.vocabulary.not_days or not t.isascii() or not t.isalpha():
        return NOT_A_DAY
    best = NOT_A_DAY
    best_d = 99
    for canon, val, thr in words.days_by_first_letter.get(t[0], ()):
        if abs(len(canon) - n) > thr:
            continue
        d = _distance(t, canon, thr)
        if d <= thr and d < best_d:
            best, best_d = val, d
    if best[0] == "wd" and t[-1] == "s":  # "mondays", "fridays": every week, not one day
        return NOT_A_DAY
    return best


def day_word(t: str) -> DayWord:
    """A weekday ("wd", 0..6) or a relative day ("rel", offset), misspellings included; else NOT_A_DAY."""
    r = DAY_CACHE.seen.get(t)
    if r is None:
        DAY_CACHE.ready()
        r = DAY_CACHE.known.get(t) or _misspelt_day(t)
        DAY_CACHE.put(t, r)
    return r


def month_of(t: str) -> int:
    """The month 1..12 a word names, misspellings included; 0 if none."""
    m = MONTH_CACHE.seen.get(t)
    if m is None:
        MONTH_CACHE.ready()
        m = MONTH_CACHE.known.get(t, 0)
        n = len(t)
        words = lexicon()
        if not m and 5 <= n <= 11 and t not in words.vocabulary.not_months and t.isascii() and t.isalpha():
            best_d = 99
            for canon, k, thr in words.months_checked:
                if canon[0] != t[0] or abs(len(canon) - n) > thr:
                    continue
                d = _distance(t, canon, thr)
                if d <= thr and d < best_d:
                    m, best_d = k, d
        MONTH_CACHE.put(t, m)
    return m
