"""The last look before "not sure": the one text of the knowledge that speaks of the question's rare words.

A question no intent and no card's phrasings place ("did the union really vote 93%", "who's the minister",
"so who cleans the school?") often names something only a few texts of the knowledge speak of. Each text
that answers at the question's time is a passage: a card (question, answer, details), a fact, a stopped
service, a timeline entry. A word weighs what it is rare among the passages (its inverse document
frequency), so "93" or "minister" weigh much and "strike" little; a question's word that no passage has
weighs as much as a rare one, since it may be what the question is about (or a typo).

The passage that covers the most of the question's weight is found when it covers at least :data:`COVER`
of it and shares a rare word (:data:`RARE`). It answers outright when it shares two rare words; when it
shares one and has every word the question asks with, it is offered as what the reports say on that word
("I'm not sure I understood. What the reports say on "cleans": ..."), since one word may be a coincidence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from bot import answer_memo
from bot.answers import SUPPORT_CHARS, cite
from bot.asked import WEAK, searchable, words_of
from bot.dates.formatting import short_day
from bot.matcher import FILLER
from bot.replies import sentences, shape
from bot.text import named, normalize

if TYPE_CHECKING:
    from bot.replies import Voice
    from knowledge.snapshot import Knowledge

COVER = 0.6  # share of the question's weight a passage must have
WHOLE = 0.99  # ...and to be offered as the nearest text after one word in common: all of it
RARE = 0.12  # a rare word is in at most this share of the passages (and at least in one)
_RARE_WEIGHT = math.log(1 / RARE)  # the weight of a rare word, and of a word no passage has
LEAD_CHARS = 220  # the part of a reply a phone shows first: it must share a word with the question
_KEY = "passages"
# what "who's", "what's", "where's" come to once cut: question words, not subjects
_QUESTION_STEMS = frozenset({"who", "what", "when", "wher", "how", "why", "which", "that", "ther"})
_FILLER = frozenset(words_of(" ".join(FILLER)))  # "any news?" names nothing a text could speak of
# Words that name no subject of their own, as words_of cuts them ("happening" is "happe"): vague words, and common
# words a small knowledge may hold once.
_VAGUE = words_of("""all every some many much more very one yes no ok okay tous toutes tout oui non mais heard hear ya
    please pls thanks thank going gonna go come coming happen happens happening happened think keep way time look see
    back new sure true real ever again first last next day days week guys people someone anyone""")


@dataclass(frozen=True, slots=True)
class Passage:
    kind: str  # card | fact | service | event
    entry: object
    words: frozenset[str]


@dataclass(frozen=True, slots=True)
class Found:
    passage: Passage
    cover: float  # share of the question's weight it has
    sure: bool  # two rare words in common
    word: str  # the question's own word for the heaviest word in common ("cleans")


@dataclass(frozen=True, slots=True)
class _Index:
    passages: tuple[Passage, ...]
    weight: dict[str, float]  # word -> inverse document frequency


_FIELDS = {"card": ("question", "answer", "details"), "fact": ("text",), "service": ("workers", "service"),
           "event": ("text",)}


def _index(knowledge: Knowledge, voice: Voice) -> _Index:
    key = (_KEY, voice.language)
    found = knowledge.derived.get(key)
    if found is None:
        entries = [("card", c) for c in knowledge.cards] + [("fact", f) for f in knowledge.facts] + \
                  [("service", s) for s in knowledge.services] + [("event", e) for e in knowledge.timeline]
        passages = tuple(Passage(kind, entry, words_of(" ".join(searchable(entry, name, voice) for name in _FIELDS[kind])))
                         for kind, entry in entries)
        counts: dict[str, int] = {}
        for passage in passages:
            for word in passage.words:
                counts[word] = counts.get(word, 0) + 1
        total = max(len(passages), 1)
        weight = {word: math.log(total / count) for word, count in counts.items()}
        found = knowledge.derived[key] = _Index(passages, weight)
    return found


def _live(knowledge: Knowledge, at: datetime) -> set[int]:
    """The ids of the entries that answer at `at` (cards not replaced, facts, services and events published)."""
    live = {id(c) for c in knowledge.cards_at(at)}
    live.update(id(f) for f in knowledge.facts if f.published <= at)
    live.update(id(s) for s in knowledge.services_withdrawn(at))
    live.update(id(e) for e in knowledge.events(at))
    return live


def find(knowledge: Knowledge, question: str, at: datetime, voice: Voice, prepared: str = "") -> Found | None:
    """The passage that speaks of the question's rare words, or None. `prepared`: the question as the matcher
    read it (boards and days left out: "yes tdsb please" names nothing a text speaks of), else the question."""
    index = _index(knowledge, voice)
    asked = _asked(prepared or question)
    if not asked:
        return None
    weights = {word: index.weight.get(word, _RARE_WEIGHT) for word in asked}
    total = sum(weights.values())
    rare = {word for word in asked if word in index.weight and weights[word] >= _RARE_WEIGHT}
    if not rare or total <= 0:
        return None
    live = _live(knowledge, at)
    best: tuple[float, int, datetime, Passage] | None = None
    for passage in index.passages:
        if id(passage.entry) not in live or not passage.words & rare:
            continue
        cover = sum(weights[w] for w in asked & passage.words) / total
        key = (cover, -len(passage.words), passage.entry.published, passage)  # ties: the shortest, the newest
        if best is None or key[:3] > best[:3]:
            best = key
    if best is None or best[0] < COVER:
        return None
    passage = best[3]
    shared = sorted(rare & passage.words, key=lambda w: -weights[w])
    sure = len(shared) >= 2
    return Found(passage, best[0], sure, _own_word(question, shared[0]))


def instead_of(knowledge: Knowledge, question: str, at: datetime, voice: Voice, reply: str,
               prepared: str = "") -> Found | None:
    """A passage to answer with instead of `reply`, when the reply's lead shares none of the question's words
    and a passage shares its rare ones ("do i need to pack a lunch" answered with a board's child-care advice)."""
    asked = _asked(prepared or question)
    if not asked or asked & words_of(reply[:LEAD_CHARS]):
        return None
    found = find(knowledge, question, at, voice, prepared)
    return found if found is not None and found.sure else None  # the answer found may say it in other words


def instead_of_not_sure(knowledge: Knowledge, question: str, at: datetime, voice: Voice,
                        prepared: str = "") -> Found | None:
    """A passage to answer with instead of "not sure": one sharing two rare words with the question, else one
    that has every word the question asks with (offered as the nearest text)."""
    found = find(knowledge, question, at, voice, prepared)
    if found is not None and not found.sure and len(found.word) <= 3 and found.word.isalpha():
        return None  # one short word in common is a function word of the other language ("ils ont dit quoi?")
    return found if found is not None and (found.sure or found.cover >= WHOLE) else None


def naming(knowledge: Knowledge, question: str, at: datetime, voice: Voice, prepared: str,
           keywords: tuple[str, ...]) -> Found | None:
    """For a topic the intents leave out ("fonds de grève"): of the passages that name the topic in the
    question's own words (`keywords`, normalised), the one sharing most of the question's words, as sure."""
    used = named(normalize(question, 500), keywords)
    if not used:
        return None
    index, live = _index(knowledge, voice), _live(knowledge, at)
    asked = _asked(prepared or question)
    beside = asked - words_of(" ".join(used))  # the question's other words: one must be in the passage too
    best: tuple[float, Passage] | None = None
    for passage in index.passages:
        if id(passage.entry) not in live or not beside & passage.words:  # "les bus roulent?": not the drivers
            continue
        text = normalize(" ".join(searchable(passage.entry, name, voice) for name in _FIELDS[passage.kind]))
        if named(text, used):
            cover = sum(index.weight.get(word, _RARE_WEIGHT) for word in asked & passage.words)
            if best is None or cover > best[0]:
                best = (cover, passage)
    return Found(best[1], best[0], True, used[0]) if best is not None else None


def names_something(prepared: str) -> bool:
    """Whether a prepared question has a word a text could speak of, longer than a function word ("best pizza
    place in oakville" does; "monavenir ils ont dit quoi" does not)."""
    return any(len(word) > 3 for word in _asked(prepared))


def _asked(text: str) -> frozenset[str]:
    """The words of a question a text could speak of (the dispute's own, vague and filler words left out)."""
    return words_of(text) - WEAK - _VAGUE - _FILLER - _QUESTION_STEMS


def _own_word(question: str, stem: str) -> str:
    """The word of the question that `stem` comes from ("cleans" for "clean")."""
    return next((word for word in question.split() if stem in words_of(word)), stem).strip("?!.,;:\"'()")


def answer(knowledge: Knowledge, found: Found, at: datetime, voice: Voice, question: str) -> tuple[str, str]:
    """The reply from a found passage, and the topic it answers (an intent, or the card's topic)."""
    entry = found.passage.entry
    kind = found.passage.kind
    if kind == "card":
        return answer_memo.card_answer(knowledge, entry, at, voice=voice, question=question), entry.topic
    if kind == "service":
        text = answer_memo.withdrawn_services(knowledge, at, None, question, voice=voice)
        return text or "", "withdrawn_services"
    parts = sentences(voice.text(entry, "text"))
    lead = parts[0] if parts else voice.text(entry, "text")
    if kind == "event":
        lead = f"{short_day(entry.day, voice.language)}{voice.colon}{lead}"
    support = [p for p in parts[1:2] if len(p) <= SUPPORT_CHARS]
    topic = entry.topic if kind == "fact" else "strike_dates"
    return shape(lead, support, cite(knowledge, entry.source, entry.published, voice.language)), topic
