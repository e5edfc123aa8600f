"""Reading staff commands: words, dates, boards; the two errors a command can answer with."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from datetime import date, datetime

from bot import answers
from bot.dates import find_date
from bot.text import normalize
from knowledge.model import TIMELINE_KINDS


@dataclass(frozen=True, slots=True)
class Words:
    """A field of a message that is itself a wording key ("the note", "all boards"): said in the message's language."""

    key: str

    @staticmethod
    def maybe(what: str) -> Words | str:
        """A wording key ("admin_what_note") as Words; other words as they are."""
        return Words(what) if what.startswith("admin_what_") else what


@dataclass(frozen=True, slots=True)
class InLanguages:
    """A field of a message given in each language ({"en": ..., "fr": ...}): said in the reader's."""

    texts: dict[str, str]


class UsageProblem(Exception):
    """The command's words don't fit; the message explains and shows the usage.

    Made from a text, or (:meth:`of`) from a key of config/wording.yaml and its fields, so it is said
    in the language of whoever reads it (:meth:`said`); str() is the English."""

    def __init__(self, text: str = "", /, key: str | None = None, **fields: object):
        self.key, self.fields = key, fields
        super().__init__(self.said("en") if key else text)

    @classmethod
    def of(cls, key: str, /, **fields: object) -> UsageProblem:
        return cls(key=key, **fields)

    def said(self, language: str) -> str:
        if self.key is None:
            return str(self)
        from bot.replies import say

        return say(self.key, language, **{name: _field(value, language) for name, value in self.fields.items()})


def _field(value: object, language: str) -> object:
    if isinstance(value, Words):
        from bot.replies import say

        return say(value.key, language)
    if isinstance(value, InLanguages):
        return value.texts.get(language) or value.texts["en"]
    return value


class Denied(UsageProblem):
    """Not allowed for this user: the message is shown as it is, without the usage."""


STATUS_WORDS = {
    "open": "open",
    "reduced": "open_reduced_services", "open-reduced": "open_reduced_services",
    "open_reduced": "open_reduced_services", "open_reduced_services": "open_reduced_services",
    "closures-possible": "closures_possible", "closures_possible": "closures_possible",
    "possible-closures": "closures_possible", "undecided-closures": "closures_possible",
    "closed": "closed",
    "unknown": "unknown", "undecided": "unknown", "unconfirmed": "unknown",
    "remote": "remote_learning", "online": "remote_learning",
    # French: a staff member writes the status in their language (accents optional)
    "ouvert": "open", "ouverte": "open", "ouverts": "open", "ouvertes": "open",
    "réduit": "open_reduced_services", "réduits": "open_reduced_services",
    "services-réduits": "open_reduced_services", "ouvert-réduit": "open_reduced_services",
    "fermetures-possibles": "closures_possible", "fermeture-possible": "closures_possible",
    "fermé": "closed", "fermée": "closed", "fermés": "closed", "fermées": "closed",
    "fermé-en-personne": "closed_for_in_person", "fermé-aux-élèves": "closed_for_in_person",
    "à-distance": "remote_learning", "distance": "remote_learning", "en-ligne": "remote_learning",
    "apprentissage-à-distance": "remote_learning", "enseignement-à-distance": "remote_learning",
    "inconnu": "unknown", "indécis": "unknown", "non-confirmé": "unknown",
}
STATUS_WORDS.update({normalize(k): v for k, v in list(STATUS_WORDS.items())})
# The status words an error names, per language (the others, a pack's own ids aside, are variants of these).
SHOWN_STATUS_WORDS = {
    "en": ("open", "reduced", "closures-possible", "closed", "closed-for-in-person", "remote-learning", "unknown"),
    "fr": ("ouvert", "réduit", "fermetures-possibles", "fermé", "fermé-en-personne", "à-distance", "inconnu"),
}
# The words for every board, English and French ("/broadcast tous ...").
ALL_WORDS = frozenset({"all", "tous", "toutes"})
# The words before a date in /setstatus, English and French: "from monday", "du lundi", "jusqu'au 8 octobre".
# Compared after normalize(): no accents, straight apostrophes.
FROM_WORDS = frozenset({"from", "du", "de", "des", "depuis"})
UNTIL_WORDS = frozenset({"until", "till", "to", "through", "thru", "au", "a", "jusqu'au", "jusqu'a"})
_FROM_PHRASE = re.compile(r"\b(?:à|a) partir (?:du|de|d')\s*", re.IGNORECASE)
_AT_A_DISTANCE = re.compile(r"^(\S+\s+)(?:à|a)\s+distance\b", re.IGNORECASE)


def staff_words(argument: str) -> str:
    """Two French phrases made one word before the note: "à partir de lundi" -> "du lundi",
    "tdsb à distance" -> "tdsb à-distance". The note (after the first colon) is kept as written."""
    head, colon, note = argument.partition(":")
    return _FROM_PHRASE.sub("du ", _AT_A_DISTANCE.sub(r"\1à-distance", head)) + colon + note

PHASE_WORDS = {
    "work-to-rule": "work_to_rule", "work_to_rule": "work_to_rule", "wtr": "work_to_rule",
    "full-strike": "full_strike", "full_strike": "full_strike", "strike": "full_strike",
}
EVENT_WORDS = {
    "talks": "bargaining", "bargaining": "bargaining",
    "deal": "deal", "agreement": "deal",
    "called-off": "called_off", "called_off": "called_off", "calledoff": "called_off",
    "strike-notice": "strike_notice", "notice": "strike_notice",
    "strike": "full_strike_start", "full-strike": "full_strike_start",
    "work-to-rule": "work_to_rule_start",
    "strike-vote": "strike_vote", "vote": "strike_vote",
    "other": "other",
}
EVENT_WORDS.update({kind: kind for kind in TIMELINE_KINDS})
EVENT_WORDS.update({  # French (accents optional)
    "négociations": "bargaining", "pourparlers": "bargaining", "entente": "deal", "accord": "deal",
    "annulation": "called_off", "préavis": "strike_notice", "préavis-de-grève": "strike_notice",
    "grève": "full_strike_start", "grève-générale": "full_strike_start", "grève-du-zèle": "work_to_rule_start",
    "vote-de-grève": "strike_vote", "loi-adoptée": "law_passed", "loi-abrogée": "law_repealed",
    "écoles-fermées": "schools_closed", "réouverture": "schools_reopen", "retour-au-travail": "return_to_work",
    "autre": "other",
})
EVENT_WORDS.update({normalize(k): v for k, v in list(EVENT_WORDS.items())})
# The event words an error names, per language.
SHOWN_EVENT_WORDS = {
    "en": ("talks", "deal", "called-off", "strike-notice", "strike", "work-to-rule", "strike-vote", "law-passed",
           "law-repealed", "schools-closed", "schools-reopen", "return-to-work", "other"),
    "fr": ("négociations", "entente", "annulation", "préavis", "grève", "grève-du-zèle", "vote-de-grève", "loi-adoptée",
           "loi-abrogée", "écoles-fermées", "réouverture", "retour-au-travail", "autre"),
}


def tokens(text: str) -> list[re.Match]:
    return list(re.finditer(r"\S+", text))


def word(token: str) -> str:
    return token.lower().rstrip(":,;.")


def rest(argument: str, found: list[re.Match], index: int) -> str:
    """The text from token `index` on, verbatim but for a leading ':' or '-' separator."""
    if index >= len(found):
        return ""
    text = argument[found[index].start():]
    if text[:1] in (":", "-", "\u2014") and (len(text) == 1 or text[1].isspace()):
        text = text[1:]
    return text.strip()


def parse_date_phrase(found: list[re.Match], index: int, today: date) -> tuple[date, int] | None:
    """A date made of the next 1-4 tokens ("monday", "oct 7", "the 7th of october", "9" after "du"): (day, tokens used)."""
    best = None
    for count in (1, 2, 3, 4):
        if index + count > len(found):
            break
        words = [found[i].group(0) for i in range(index, index + count)]
        words[-1] = words[-1].rstrip(":,;")
        phrase = " ".join(words)
        for said in (phrase, "le " + phrase) if words[0].isdigit() else (phrase,):  # "du 9 au 15": the 9th
            day = find_date(said, today)
            if day is not None and day.start == 0 and day.end == len(said):
                best = (day.day, count)
                break
    return best


def ends_with_colon(found: list[re.Match], index: int) -> bool:
    return index > 0 and found[index - 1].group(0).endswith(":")


def number(argument: str, default: int, low: int, high: int, what: str = "admin_what_number") -> int:
    """A whole number from `low` to `high` (`what`: the wording key naming it, "a number of days")."""
    try:
        return max(low, min(high, int(argument or default)))
    except ValueError:
        raise UsageProblem.of("admin_not_a", given=repr(argument), what=Words.maybe(what)) from None


def when(moment: datetime, language: str = "en") -> str:
    return answers.when_published(moment, language)


def compact(value, limit: int = 160) -> str:
    if value is None:
        return "-"
    text = value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def entry_dict(entry) -> dict | None:
    if entry is None:
        return None
    return {k: (v.isoformat() if isinstance(v, (date, datetime)) else v) for k, v in asdict(entry).items()}
