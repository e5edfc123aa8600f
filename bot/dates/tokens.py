"""Splitting a message into tokens, keeping where each one is in the original text.

A token is a run of letters, a run of ASCII digits, or one other character; a plain
word is one token. ``touches(j)`` says token j follows token j-1 with no space, which
the patterns use to tell "10/7" from "10 / 7".
"""

from __future__ import annotations

import datetime
import re
from functools import lru_cache

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# the tokens of a whitespace-free chunk: a run of letters, a run of ASCII digits, or one other character
_CHUNK_RE = re.compile(r"[^\W\d_]+|[0-9]+|.", re.DOTALL)
_DIGITS = frozenset("0123456789")


def is_number(t: str) -> bool:
    """An ASCII digit run (the tokenizer never mixes digits with anything else)."""
    return t[:1] in _DIGITS


def lower_keeping_places(text: str) -> str:
    """Lower-case without changing any index (so spans map back to the original)."""
    s = text.lower()
    if len(s) != len(text):  # some character lower-cases to two ("İ"): ASCII only then
        s = text.translate(_ASCII_LOWER)
    return s


class Tokens:
    """The tokens of a lower-cased message, where each starts and ends, and the day it is asked on."""

    __slots__ = ("ends", "n", "starts", "today", "words")

    def __init__(self, text: str, today: datetime.date | None) -> None:
        # find_date and mentions_weekend (and the matcher) split the same text: split it once.
        self.words, self.starts, self.ends = _split(text)
        self.n, self.today = len(self.words), today

    def touches(self, j: int) -> bool:
        """Token j touches token j-1 (no space between)."""
        return 0 < j < self.n and self.starts[j] == self.ends[j - 1]

    def word(self, j: int) -> str:
        """Token j, or "" outside the message."""
        return self.words[j] if 0 <= j < self.n else ""


@lru_cache(maxsize=256)  # only to share one split between the callers of one message
def _split(text: str) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    """The tokens of a lower-cased text with where each starts and ends (shared, so never changed)."""
    words: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    find = text.find
    for chunk in text.split():
        pos = find(chunk, pos)
        if chunk.isalpha():  # the common case: a plain word is one token
            words.append(chunk)
            starts.append(pos)
            pos += len(chunk)
            ends.append(pos)
        else:
            for tok in _CHUNK_RE.findall(chunk):
                words.append(tok)
                starts.append(pos)
                pos += len(tok)
                ends.append(pos)
    return tuple(words), tuple(starts), tuple(ends)
