"""The words of a question, against the texts of the knowledge: which item was asked about.

A question and a text share content words (common words left out, each cut to five
letters so "custodians" meets "custodial"); the answers pick the fact, event or service
sharing the most, and a question with "list", "all", "which services"... asks for the whole list.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from bot.text import normalize

if TYPE_CHECKING:
    from bot.replies import Voice

# The common French words, without accents (normalize removes them).
_FRENCH_STOP_WORDS = """le la les l un une des du de d au aux et ou est sont ce c ca qu que qui quoi quand quel quelle quels
    quelles pour par avec dans sur en il ils elle elles on nous vous je j mon ma mes notre nos votre vos leur
    leurs pas ne y a ecole ecoles enfant enfants aussi encore se s sa son ses autre autres eux tu font fait"""
_FRENCH_STOP = frozenset(_FRENCH_STOP_WORDS.split())
_STOP = frozenset(
    ["a", "an", "the", "is", "are", "was", "were", "be", "do", "does", "did", "to", "of", "in", "on", "at", "for", "and", "or", "it", "its", "this", "that", "there", "their", "they", "we", "i", "my", "our", "what", "whats", "when", "who", "why", "how", "which", "will", "would", "can", "could", "should", "any", "anything", "about", "with", "from", "by", "as", "if", "so", "not", "school", "schools", "kid", "kids", "child", "children", "still", "too", "also",
     "them", "you", "your", "me", "us", "he", "she", "him", "her", "his", "these", "those", "has", "have", "had",
     "been", "like", "just", "even", "really", "exactly", "other", "each",
     "work",  # "i work 12 hour shifts" is not about work-to-rule: "rule" says that
     # verbs that say nothing of a subject: "he cant take out books" is not "taking money for school activities"
     "take", "taking", "took", "get", "got", "getting", "make", "made", "need", "needs", "know", "want", "wants",
     "tell", "told", "say", "says", "said", "thing", "things", "something", "someone", "somebody", "lot", "lots",
     "now", "then", "right", "well"]
) | _FRENCH_STOP
_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=4096)
def words_of(text: str) -> frozenset[str]:
    """The content words of a text, cut to five letters so "custodians" meets "custodial"
    (after an "-ing", a plural "-s", an "-ed" and a final "e", so "talking" meets "talks" and "voted" meets
    "voting")."""
    return frozenset(_stem(w)[:5] for w in _WORD.findall(normalize(text)) if w not in _STOP and len(w) > 1)


def _stem(word: str) -> str:
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 4 and word.endswith("ed"):  # "voted" meets "vote" and "voting"
        word = word[:-2]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def overlap(asked: set[str], text: str) -> int:
    return len(asked & words_of(text))


# Stems every text of a dispute shares: a question and a text sharing only these say little ("how much notice do
# they have to give before striking" and "legal strike position" share "strike"; the notice event shares "notice").
WEAK = frozenset({"strik", "greve", "union", "syndi", "cupe", "cup", "scfp", "job", "actio"})  # "cupe" cut: "cup"


def strong_overlap(asked: set[str], text: str) -> int:
    """The telling words a question shares with a text, the dispute's own words left out."""
    return len((asked - WEAK) & words_of(text))


def searchable(entry: object, name: str, voice: Voice) -> str:
    """What a question's words are compared with: the English text, and the French one in French."""
    text = getattr(entry, name, "") or ""
    if voice.french:
        french = (getattr(entry, "fr", None) or {}).get(name)
        if isinstance(french, str):
            text = f"{text} {french}"
    return text


_LIST_WORDS = frozenset({"list", "everything", "complete", "timeline", "liste"})
# "which dates", "all the services", "quelles tâches": these ask for a list only with a plural of listed things
# ("every day", "are all schools closed" do not)
_WHICH_WORDS = frozenset({"all", "every", "which", "what", "toutes", "tous", "quelles", "quels"})
_LISTED = frozenset({"services", "things", "dates", "tasks", "duties", "jobs", "changes", "taches", "choses"})


def asks_for_list(question: str) -> bool:
    """Whether the question asks for the whole list: "list the dates", "what services stopped?"."""
    words = set(_WORD.findall(normalize(question)))
    return bool(words & _LIST_WORDS) or bool(words & _WHICH_WORDS and words & _LISTED)


# Words that put a question in the past ("when did talks break down?"); French: "quand ont-ils", "était".
_PAST_WORDS = frozenset({"did", "was", "were", "happened", "ago", "last", "already", "ete", "etait", "etaient",
                         "ont", "avait", "avaient", "dernier", "derniere"})


_AHEAD_WORDS = frozenset({"when", "quand", "will", "gonna", "going", "va", "vont", "pourrait", "pourraient"})


def asks_when_next(question: str) -> bool:
    """Whether a question asks about something to come: "when can they strike?", "will they strike in
    september?", not "when did talks stop?"."""
    words = set(_WORD.findall(normalize(question)))
    return bool(words & _AHEAD_WORDS) and not words & _PAST_WORDS
