"""Text helpers: normalising what users type, and making outgoing text plain and splittable."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from rapidfuzz import process
from rapidfuzz.distance import OSA

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
_SPACES = re.compile(r"\s+")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"})


def storable(text: str | None) -> str:
    """Text every part of the bot can store and print: called once where a message enters (Bot.respond).

    A lone surrogate (half of an emoji, from a broken client) becomes U+FFFD and a
    pair written as two halves becomes its character; NUL is dropped. Such text
    would otherwise fail to encode when it is logged or sent, far from where it came in.
    """
    if not text:
        return ""
    if "\x00" in text:
        text = text.replace("\x00", "")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def normalize(text: str, limit: int | None = None) -> str:
    """Lower-case, accent-free, single-spaced text for matching.

    Control characters and zero-width/bidi marks become spaces; accents are
    dropped (français -> francais). Emoji and other symbols are kept; the
    matchers ignore what isn't a word.
    """
    if limit is not None and len(text) > limit:
        text = text[:limit]
    return _normalize(text) if len(text) <= 500 else _normalized(text)


@lru_cache(maxsize=16384)  # a message is normalised by several readers, and parents repeat themselves
def _normalize(text: str) -> str:
    return _normalized(text)


def _normalized(text: str) -> str:
    text = text.translate(_QUOTES)
    text = _CONTROL.sub(" ", text)
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _SPACES.sub(" ", text.lower()).strip()


def plain(text: str) -> str:
    """Outgoing text with control characters removed (keeps newlines and tabs).

    Replies are always sent with no parse mode and no mentions allowed, so no
    markup escaping is needed here; this only makes sure nothing invisible or
    terminal-controlling goes out.
    """
    return _CONTROL.sub("", text.replace("\r\n", "\n")).strip()


def split_text(text: str, limit: int) -> list[str]:
    """Split text into chunks of at most `limit` characters.

    Prefers paragraph breaks, then line breaks, then sentence ends, then
    spaces; cuts mid-word only when a single word is longer than the limit.
    Nothing is lost except the white space at the cut.
    """
    if limit < 1:
        raise ValueError("limit must be positive")
    text = text.strip()
    chunks: list[str] = []
    while len(text) > limit:
        window = text[: limit + 1]
        cut = -1
        for pattern in ("\n\n", "\n", ". ", "! ", "? ", "; ", ", ", " "):
            at = window.rfind(pattern, 0, limit)
            if at > limit // 3:
                cut = at + (1 if pattern.strip() and pattern[0] in ".!?;," else 0)
                break
        if cut <= 0:
            cut = limit
        chunks.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    if text:
        chunks.append(text)
    return chunks


class NearestWord:
    """Corrects a misspelt word to a known one: the closest word with the same first letter,
    at most one edit away (two for words of 8+ letters), transpositions counting as one
    ("tdbs" -> "tdsb", "peal" -> "peel", "scool" -> "school").
    """

    def __init__(self, words: Iterable[str]):
        self.by_letter: dict[str, list[str]] = {}
        for word in sorted(set(words)):
            if word:
                self.by_letter.setdefault(word[0], []).append(word)
        self.find = lru_cache(maxsize=16384)(self._find)

    def _find(self, word: str) -> str | None:
        candidates = self.by_letter.get(word[:1])
        if not candidates:
            return None
        limit = 1 if len(word) < 8 else 2
        found = process.extractOne(word, candidates, scorer=OSA.distance, score_cutoff=limit)
        return found[0] if found else None


_PUNCT = re.compile(r"[^\w\s']+")


@lru_cache(maxsize=16384)  # each reading of a short turn starts from it, and parents repeat themselves
def plain_words(norm: str) -> str:
    """A normalised message's words, punctuation but apostrophes taken out: "ok, thx!!" -> "ok thx"."""
    return " ".join(_PUNCT.sub(" ", norm).split())


def named(text: str, keywords: tuple[str, ...]) -> tuple[str, ...]:
    """The `keywords` (normalised phrases) that a normalised `text` has as whole words (punctuation beside a
    word is no part of it: "fonds de greve??" names "fonds de greve"; "$25" is still "$25")."""
    padded, plain = f" {text} ", f" {plain_words(text)} "
    return tuple(keyword for keyword in keywords if f" {keyword} " in padded or f" {keyword} " in plain)
