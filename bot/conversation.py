"""What the bot remembers of a conversation, and the follow-ups that lean on it ("more", "why?", "is that only
tdsb?", "2", "and tcdsb?"); the short turns that ask nothing are in bot/answering/social_turns.py.

Per user, for a few minutes: the last question's topic, board, date and card,
a question the bot asked ("which board?") and a choice it offered. The
context is a plain dict kept in the user's memory (the store for chats, the
process for ``schoolbot ask``), so it survives a restart and expires by time.

This module only reads text and keeps the context; the core decides what to
answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import lru_cache
from operator import attrgetter

from bot.text import plain_words

CONTEXT_TTL = timedelta(minutes=10)  # follow-ups ("what about tuesday?") lean on the last question this long
PENDING_TTL = timedelta(minutes=30)  # an answer to "which board?" is still taken this long


_EMPTY = (None, False, [], "")  # values a context does not keep


@dataclass(slots=True)
class Context:
    at: str | None = None  # when the last question was answered (ISO)
    topic: str | None = None  # its intent / card topic
    board: str | None = None  # the board it was about
    day: str | None = None  # the day it was about (ISO)
    card: str | None = None  # the card that answered it
    awaiting: str | None = None  # "board" (we asked which board) or "choice" (we offered cards)
    asked: str | None = None  # when we asked (ISO)
    intent: str | None = None  # the intent waiting for a board
    weekend: bool = False
    choices: list[str] = field(default_factory=list)  # card ids offered, in order
    question: str = ""  # the question the choice was offered for
    language: str | None = None  # the user's language ("en", "fr"): chosen, or what they last wrote clearly
    cited: str = ""  # the source lines of the last answer, kept back from it: "source?" gives them
    last: str = ""  # the last question answered, asked again in the language a parent then asks for
    boards: list[str] = field(default_factory=list)  # the boards of the family's children ("my other kid is at tcdsb")

    @classmethod
    def from_memory(cls, stored: dict | None) -> Context:
        if not isinstance(stored, dict):
            return cls()
        if "awaiting" not in stored and "at" not in stored and stored.get("intent"):  # an older "pending" record
            return cls(awaiting="board", asked=stored.get("asked"), intent=stored.get("intent"),
                       day=stored.get("date"), weekend=bool(stored.get("weekend")))
        known = {k: v for k, v in stored.items() if k in _FIELDS}
        try:
            return cls(**known)
        except TypeError:
            return cls()

    def to_memory(self) -> dict | None:
        data = {}
        for name, value in zip(_NAMES, _VALUES(self), strict=True):
            if value is None:
                continue
            kind = type(value)
            if kind is str or kind is bool:  # kept unless "" or False, as `value not in _EMPTY` says for them
                if value:
                    data[name] = value
            elif kind is list:
                if value:
                    data[name] = list(value)
            elif value not in _EMPTY:  # anything else read from memory: the general rule
                data[name] = list(value) if isinstance(value, list) else value
        return data or None

    def _age(self, stamp: str | None, now: datetime) -> timedelta | None:
        try:
            return now - datetime.fromisoformat(stamp) if stamp else None
        except (TypeError, ValueError):
            return None

    def fresh(self, now: datetime) -> bool:
        """Whether the last question is recent enough for a follow-up to lean on."""
        age = self._age(self.at, now)
        return age is not None and timedelta(0) <= age <= CONTEXT_TTL

    def waiting(self, what: str, now: datetime) -> bool:
        """Whether we asked the user something (`what`: "board" or "choice") and it still stands."""
        if self.awaiting != what:
            return False
        age = self._age(self.asked, now)
        ttl = PENDING_TTL if what == "board" else CONTEXT_TTL
        return age is not None and timedelta(0) <= age <= ttl

    def stop_waiting(self) -> None:
        """The user moved on: no question of ours is waiting for an answer any more."""
        self.awaiting = self.asked = self.intent = None
        self.weekend, self.choices, self.question = False, [], ""

    def await_board(self, intent: str, now: datetime, day: date | None, weekend: bool) -> None:
        """We asked "which board?" for `intent` (about `day`): the next message may answer it."""
        self.awaiting, self.intent, self.asked = "board", intent, now.isoformat()
        self.day = day.isoformat() if day else None
        self.weekend = weekend

    def keep_family_board(self, board_id: str, first: str | None) -> None:
        """Remember a board as one of the family's (after `first`, the board the parent had), at most four."""
        boards = [b for b in self.boards if b != board_id]
        if first and first != board_id and first not in boards:
            boards.insert(0, first)
        self.boards = [*boards, board_id][-4:]

    def the_day(self) -> date | None:
        try:
            return date.fromisoformat(self.day) if self.day else None
        except ValueError:
            return None


_FIELDS = frozenset(Context.__slots__)
_NAMES = Context.__slots__
_VALUES = attrgetter(*_NAMES)  # every field's value in one call, in the order of _NAMES


_ORDINALS = {"1": 1, "one": 1, "first": 1, "1st": 1, "premier": 1, "premiere": 1, "un": 1,
             "2": 2, "two": 2, "second": 2, "2nd": 2, "deuxieme": 2, "deux": 2, "the other": 2}
_PICK = re.compile(r"^(?:(?:option|number|no|choice|#)\s*)?(?:the\s+|le\s+|la\s+)?(\w+)(?:\s+one|\s+please|\s+pls)?$")


@lru_cache(maxsize=16384)  # parents repeat themselves
def picked(norm: str) -> int | None:
    """1 or 2 when the message picks an offered choice: "1", "the first", "2 please", "#2"."""
    text = plain_words(norm.replace("#", " # ")).replace(" # ", " #")
    text = text.replace("#", "").strip()
    match = _PICK.match(text)
    if match is None:
        return None
    return _ORDINALS.get(match.group(1))


_MORE = {"more", "tell me more", "more please", "more info", "more information", "more details", "details",
         "the details", "full list", "the full list", "go on", "what else", "anything else", "plus",
         "en savoir plus", "plus de details", "details please", "show me more", "the rest", "give me more",
         "can you tell me more", "more pls", "keep going", "continue", "list them", "list", "all of them",
         "the whole list", "everything"}
_WHY = {"why", "why is that", "why not", "how come", "why so", "but why", "and why", "pourquoi", "whys that",
        "why is it", "whats the reason", "what is the reason", "reason", "why though", "why tho"}
_CONFIRMED = {"is that confirmed", "is it confirmed", "confirmed", "is that official", "is it official",
              "official", "are you sure", "for sure", "is that for sure", "is this confirmed", "is that certain",
              "is it certain", "is that final", "is it final", "really", "sure", "c'est confirme", "est ce confirme",
              "is that definite", "is it definite", "definitely", "100%", "is that 100%", "for real", "fr",
              "seriously", "no way", "are you serious", "is that true", "is it true", "true", "vraiment",
              "c'est vrai", "c'est sur", "pour vrai", "serieux", "t'es sur", "es tu sur"}


_SOURCE = {"source", "sources", "your source", "what source", "whats the source", "what is the source",
           "whats your source", "what is your source", "where did you hear that", "where did you get that",
           "where is that from", "wheres that from", "where does that come from", "says who", "link", "proof",
           "how do you know", "how do you know that", "according to who", "according to whom", "who said that",
           "who says", "la source", "ta source", "votre source", "quelle source", "c'est quoi ta source",
           "c'est quoi la source", "d'ou ca vient", "d'ou vient cette information", "selon qui", "qui a dit ca",
           "ta source c'est quoi", "votre source c'est quoi", "la source c'est quoi", "c'est quoi vos sources",
           "where did you get this", "where did u get that", "where did you hear this", "who said", "who said this",
           "what's your source", "source pls", "source please", "sources please", "t'as pris ca ou",
           "vous avez pris ca ou", "ca vient d'ou", "qui dit ca"}


# "is that only tdsb?", "is it everywhere?", "c'tu juste à Toronto?": whether the last answer holds elsewhere.
_SCOPE = re.compile(
    r"^(?:(?:but|and|so|ok|et|mais|pis)\s+)?(?:(?:is|was|does)\s+(?:that|this|it)|that|this|it|c'est|c'tu|ca|est ce)?\s*"
    r"(?:(?:the\s+)?(?:only|just|juste|seulement|uniquement)(?:\s+\S+){1,3}|(?:for\s+|in\s+)?(?:everywhere|every board|all boards"
    r"|all of ontario|the whole province|whole province|province wide|across ontario|all over|partout|toute la province"
    r"|tous les conseils|everyone)\b.{0,20}|.{0,40}\b(?:or|ou) (?:everywhere|all boards|the whole province|partout)\b.{0,10}"
    r"|.{0,40}\b(?:the whole province|whole province|province wide|all of ontario|toute la province)\b.{0,40}"
    r"|.{0,40}\b(?:or|ou) (?:just|only|juste|seulement) (?:some|certain|certaines|certains|a few|quelques)\b.{0,30})$"
)
# "is it the same in catholic schools", "is it like this in all of toronto or just my school": the last answer
# elsewhere (a scope question, unless it names a board: then the last question there).
_SAME_ELSEWHERE = re.compile(
    r"^(?:(?:but|and|so|ok|et|mais|pis)\s+)?(?:(?:is|was) (?:it|that|this) |it's |its |c'est |est ce )?"
    r"(?:the same|like this|like that|pareil|la meme chose) (?:in|at|for|with|everywhere|dans|a|pour|partout)\b.{0,50}$")


_EVERYWHERE = re.compile(r"\b(?:everywhere|every board|all boards|whole province|province wide|all of ontario|across ontario"
                         r"|partout|toute la province|tous les conseils|all of \w+|every school|all schools|some schools"
                         r"|toutes les ecoles|certaines ecoles|certains conseils)\b")


def asks_everywhere(norm: str) -> bool:
    """Whether a scope question asks about everywhere ("is it the whole province or just toronto?"): it stands
    on its own, where "only tdsb?" needs an answer before it."""
    return follow_up_kind(norm) in ("scope", "same") and _EVERYWHERE.search(plain_words(norm)) is not None


_LEADING_REACTIONS = frozenset({"ok", "so", "huh", "hmm", "oh", "well", "but", "and", "wait", "ah", "um", "uh", "k",
                                "okay", "et", "mais", "pis", "bon", "ben"})
_ABOUT_WHAT = re.compile(r" (?:about|for|of|pour|sur) (?:that|this|it|the \w+|\w+)(?: \w+)?$")


@lru_cache(maxsize=16384)  # parents repeat themselves
def follow_up_kind(norm: str) -> str | None:
    """'more', 'why', 'confirmed', 'source', 'scope' or 'same' (the last answer elsewhere) when the message is only
    that kind of follow-up."""
    plain = plain_words(norm)
    if len(plain) <= 60 and _SCOPE.match(plain):
        return "scope"
    if len(plain) <= 70 and _SAME_ELSEWHERE.match(plain):
        return "same"
    words = plain.split()
    while len(words) > 1 and words[0] in _LEADING_REACTIONS:  # "huh ok. source?", "ok so why"
        words = words[1:]
    text = " ".join(words)
    if text not in _CONFIRMED and _ABOUT_WHAT.sub("", text) in _CONFIRMED:
        return "confirmed"  # "are you sure about peel": the last answer, which spoke of it
    if text in _MORE:
        return "more"
    if text in _SOURCE:
        return "source"
    if text in _WHY:
        return "why"
    if text in _CONFIRMED or plain_words(norm.replace("%", " percent")) in {"is that 100 percent", "100 percent"}:
        return "confirmed"
    head, mark, rest = norm.partition("?")
    if mark and "?" not in rest and len(plain) <= 120 and follow_up_kind(head) == "confirmed":
        return "confirmed"  # "t'es sûr? ma voisine dit que c'est déjà annoncé": doubt, and why
    return None


_CONTINUES = re.compile(
    r"^(?:(?:ok|okay|ben|bon)\s+)?(?:and|what about|how about|et|pis|faque|same for|same question for|what of"
    r"|and what about|and for)\b"
)


@lru_cache(maxsize=16384)  # parents repeat themselves
def continues(norm: str) -> bool:
    """Whether the message leans on the last question: "and tcdsb?", "what about tuesday?", "pis la garderie?"."""
    return bool(_CONTINUES.match(plain_words(norm)))


# ------------------------------------------------------------------ language
_ASKS_FRENCH = re.compile(
    r"^(?:(?:bonjour|salut|allo|hi|hello)\s+)?(?:(?:est ce que )?(?:vous )?(?:parlez|parles|parle)(?: vous| tu)? (?:le )?francais"
    r"|(?:can|could) you (?:speak|answer|reply|write|talk)(?: to me)? (?:in )?french"
    r"|do you speak french|(?:in|en) francais(?: (?:svp|stp|s'il vous plait|please|pls))?"
    r"|(?:please )?(?:answer|reply|speak|write|talk)(?: to me)? in french(?: please| pls)?|french(?: please| pls)"
    r"|(?:repondez|reponds|repondre|ecrivez|parlez)(?: moi| nous)? en francais(?: (?:svp|stp|s'il vous plait))?"
    r"|francais (?:svp|stp|s'il vous plait|please))"
    r"(?: (?:pas|not) (?:en |in )?(?:anglais|english)(?: (?:svp|stp|please))?)?$"  # "en français svp, pas en anglais"
)
_ASKS_ENGLISH = re.compile(
    r"^(?:(?:bonjour|salut|hi|hello)\s+)?(?:(?:do|can|could) you (?:speak|answer|reply|write|talk)(?: to me)? (?:in )?english"
    r"|(?:in|en) (?:english|anglais)(?: (?:please|pls|svp|stp|s'il vous plait))?"
    r"|(?:please )?(?:answer|reply|speak|write|talk)(?: to me)? in english(?: please| pls)?|english(?: please| pls)"
    r"|(?:est ce que )?(?:vous )?(?:parlez|parles|parle)(?: vous| tu)? (?:l')?anglais"
    r"|(?:repondez|reponds|repondre|ecrivez|parlez)(?: moi| nous)? en anglais(?: (?:svp|stp|s'il vous plait))?)$"
)


def language_request(norm: str) -> str | None:
    """'fr' or 'en' when the whole message asks for a language: "parlez-vous français?", "in English please"."""
    text = plain_words(norm.replace("-", " "))
    text = text.replace(" s il vous plait", " s'il vous plait")
    if _ASKS_FRENCH.match(text):
        return "fr"
    if _ASKS_ENGLISH.match(text):
        return "en"
    return None
