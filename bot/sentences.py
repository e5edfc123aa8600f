"""The sentences of a message: which of them ask, and which day a message asks about.

A long message mixes what a parent heard with what they ask ("I read that CUPE served notice. Will the
after-school program run?"); the matcher scores the asking sentences beside the whole message, and takes the day
named in the question over a day named in what they heard.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from bot.dates import DateMention, find_date

# A sentence and what ends it: punctuation, a dash, or a word that starts a new thought.
SENTENCE = re.compile(r"(.+?)([.?!;,:\n]+|\s-\s|\b(?:but|also|anyway|btw)\b|$)")
SPLIT = re.compile(r"[.?!;,:\n]|\s-\s|\b(?:but|also|anyway|btw)\b")  # what ends a sentence, but the end
ENDS = ".?!;,:\n "
QUESTION_WORDS = frozenset(
    ["is", "are", "will", "would", "can", "could", "when", "what", "whats", "where", "why", "how", "who", "which", "do", "does", "did", "should", "shall", "has", "have", "any"]
)
# A question asking only whether the sentence before it is true, as prepared ("is that real??", "is true?").
IS_IT_TRUE = frozenset({"is true", "true", "is that true", "is it true", "is this true", "is that real", "is it real",
                         "is this real", "real", "really", "for real", "is that right", "is it right", "right",
                         "is that so", "c'est vrai", "est-ce vrai", "est ce vrai", "vrai", "c'tu vrai", "it is true",
                         "it is real", "is it really true"})


# Who said a claim a parent asks about, as prepared ("someone on facebook said the strike is cancelled", "my
# neighbour heard on the radio they reached a deal"): the claim is what is asked.
RUMOUR = re.compile(r"^(?:\S+\s+){0,7}?(?:says|said|saying|posted|posting|heard|hear|told me|tells me|is saying"
                     r"|are saying)\s+(?:that\s+|on the \w+\s+)?")
_QUESTION_SENTENCE = re.compile(r"[^.?!]*\?+")
_SENTENCE_END = re.compile(r"[.?!]")
_NARRATIVE_TODAY = re.compile(r"(?:this morning|ce matin|earlier today|plus tot aujourd'hui|today)")
_NEXT_DAYS = re.compile(r"(?:on |this |next |ce |lundi|mardi|mercredi|jeudi|vendredi)?\s*(?:monday|tuesday|wednesday"
                        r"|thursday|friday|mon|tues?|wed|thu(?:rs)?|fri|tomorrow|tmrw|tmr|demain|lundi|mardi|mercredi"
                        r"|jeudi|vendredi)")


def day_asked(norm: str, today: date) -> DateMention | None:
    """The day a message asks about: the first named in a sentence that asks ("the talks fell apart today.
    is school open tomorrow?" asks about tomorrow), else the first named anywhere."""
    first = find_date(norm, today)
    if first is not None and first.day < today:
        # "there was a deal last night, is school open today?": a day gone by tells what happened; a later one is asked
        later = find_date(norm[first.end:], today)
        if later is not None and later.day >= today:
            return DateMention(later.day, later.start + first.end, later.end + first.end, later.text)
    if first is not None and first.day == today and _NARRATIVE_TODAY.fullmatch(first.text.strip()):
        # "i heard on the radio this morning they might close the schools on monday": Monday is asked
        later = find_date(norm[first.end:], today)
        if later is not None and later.day > today and _NEXT_DAYS.fullmatch(later.text.strip()):
            return DateMention(later.day, later.start + first.end, later.end + first.end, later.text)
    if first is None or "?" not in norm:
        return first  # no day, or no question: the first day named
    end = _SENTENCE_END.search(norm, first.end)
    if end is None or end.group() == "?":
        return first  # the first day named is in the question
    for sentence in _QUESTION_SENTENCE.finditer(norm):
        found = find_date(sentence.group(), today)
        if found is not None:
            at = sentence.start()
            return DateMention(found.day, found.start + at, found.end + at, found.text)
    return first


def segments(blanked: str, words_of: Callable[[str], tuple[str, ...]]) -> list[str]:
    """The prepared sentences (`words_of` prepares a text's words) of a longer message (none for a short one).

    When some sentences are questions (a "?" or a question word first), only those are returned: "I read that
    CUPE served notice. Will the after-school program run?" asks about child care, not notice. A question asking
    only whether the sentence before it is true ("... strike Monday. Is true?") stands for that sentence.
    """
    if len(blanked) < 20:
        return []
    if SPLIT.search(blanked.rstrip(ENDS)) is None:  # one sentence: the whole message
        words = words_of(blanked)
        return [" ".join(words)] if len(words) >= 2 else []
    questions, others = [], []
    said = ""  # the sentence before, which "is that true?" asks about
    for match in SENTENCE.finditer(blanked):
        words = words_of(match.group(1))
        if not words:
            continue
        asked = match.group(2).startswith("?") or words[0] in QUESTION_WORDS
        if asked and said and " ".join(words) in IS_IT_TRUE:
            questions.append(RUMOUR.sub("", said, count=1) or said)  # the claim, not who said it
        elif len(words) >= 2:
            (questions if asked else others).append(" ".join(words))
        said = " ".join(words) if len(words) >= 2 else said
    return questions or others
