"""Finding the answer card for a question.

A card is one question parents ask, answered (knowledge/model.py ``Card``).
The index is built once per knowledge snapshot: each card's phrasings (English
and French) and its question go through the matcher's own pipeline (normalise,
slang, spelling, boards and dates blanked), so "r EAs striking tmrw" and the
phrasing "are EAs on strike tomorrow" look alike. A question's score for a card
mixes two signals:

- the best fuzzy similarity (rapidfuzz, word order ignored) to its phrasings;
- the TF-IDF cosine between the question and the card's own words (question,
  answer, details, phrasings), which rewards the rare words that say what the
  card is about ("EAs", "field trips") over the common ones ("is", "strike").

Only cards visible at the question's time and applying to the user's board
count (``Knowledge.cards_at``, ``Card.applies_to``). The index holds no
database handle; the intent matcher stays independent of it.
"""

from __future__ import annotations

import itertools
import math
import re
from array import array
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime
from typing import NamedTuple

from rapidfuzz import fuzz, process

from bot.indexes import PhrasingView
from bot.matcher import FILLER, IntentMatcher
from bot.text import normalize
from knowledge.model import Card
from knowledge.snapshot import Knowledge, Moments

_EXAMPLE_DAY = date(2019, 10, 3)  # dates in phrasings are blanked, whichever day they resolve to

# How the two signals mix (tuned on our own development questions, never on a held-out or blind set; the
# bars a card must clear are in bot/card_choice.py).
FUZZ_WEIGHT = 0.5
TFIDF_WEIGHT = 0.5
BOARD_BONUS = 0.05  # added to a card written for the user's board
# Cards kept per question before the ones not visible at its time are dropped: a chain of cards
# that replace one another ("is it over?" on Sept 29, on Oct 2...) must not crowd out the visible one.
KEPT = 32
# A card about one thing (a group of workers, field trips) is asked with its name in nearly every phrasing: a
# word in MARK_SHARE of a card's English (or French) phrasings and in the phrasings of at most MARK_CARDS cards
# marks it, and a card whose marks are in MARK_COVER of its phrasings answers only a question sharing one of
# its less common words ("are they on strike?" is not about ECEs). Computed when the index is prepared; a
# question pays one set look-up per card it finds.
MARK_SHARE = 0.2
MARK_CARDS = 6
MARK_COVER = 0.8
NAMING_CARDS = 5  # a card's words in the phrasings of at most this many cards: any of them names a marked card


class Match(NamedTuple):  # a tuple: made for every card a question finds, at a third of a dataclass's cost
    card: Card
    score: float


@dataclass(frozen=True, slots=True)
class PreparedCards:
    """The slow part of an index: every card's texts through the matcher's pipeline (picklable, cached)."""

    phrasings: tuple[str, ...]  # prepared, words sorted
    owner: tuple[int, ...]  # phrasing -> card position
    french: tuple[bool, ...]  # phrasing -> whether it is one of the card's French texts
    idf: dict[str, float]
    # feature -> the card positions having it and their weights, as two contiguous arrays: a busy process
    # mostly finds a list of (position, weight) tuples out of the CPU's cache, one object at a time
    postings: dict[str, tuple[array, array]]
    marks: dict[int, frozenset[str]]  # card position -> the words one of which a question must name (cards about one thing)
    # Two views, as for the intent examples: every phrasing for a French or mixed question, the
    # English ones for a clearly English question (French phrasings must not pull English questions).
    views: dict[bool, PhrasingView]  # English question -> the phrasings it is compared with


def prepare_cards(cards: list[Card], matcher: IntentMatcher) -> PreparedCards:
    """Prepare the cards' phrasings, questions and words (English and French) for matching."""
    phrasings: list[str] = []
    owner: list[int] = []
    french: list[bool] = []
    documents: list[set[str]] = []
    for index, card in enumerate(cards):
        english_texts = [card.question, *card.phrasings]
        fr = card.fr or {}
        texts = [*english_texts, fr.get("question") or "", *(fr.get("phrasings") or ())]
        seen = set()
        for number, text in enumerate(texts):
            key = " ".join(sorted(prepare(matcher, text).split()))
            if key and key not in seen:
                seen.add(key)
                phrasings.append(key)
                owner.append(index)
                french.append(number >= len(english_texts))
        words = " ".join(prepare(matcher, t) for t in texts)
        documents.append(_features(words))
    # A card that only brings another's answer up to date (asked the same ways) counts once with it in how
    # common a word is: newer news on one question does not make its words look common.
    versions = _versions(cards)
    used: dict[str, set[str]] = {}
    for doc, first in zip(documents, versions, strict=True):
        for feature in doc:
            used.setdefault(feature, set()).add(first)
    n = len(set(versions))
    idf = {f: math.log((n + 1) / (len(firsts) + 1)) + 1 for f, firsts in used.items()}
    postings: dict[str, tuple[array, array]] = {}
    for index, doc in enumerate(documents):
        norm = math.sqrt(sum(idf[f] ** 2 for f in doc)) or 1.0
        for feature in doc:
            cards_of, weights = postings.setdefault(feature, (array("I"), array("d")))
            cards_of.append(index)
            weights.append(idf[feature] / norm)
    asked_about = [set() if card.boards else {_singular(w) for text in (card.question, (card.fr or {}).get("question") or "")
                                              for w in prepare(matcher, text).split()} for card in cards]
    marks = _marks(phrasings, owner, french, _chains(cards), asked_about)
    views = {False: PhrasingView(phrasings, [True] * len(phrasings)),
             True: PhrasingView(phrasings, [not fr for fr in french])}
    return PreparedCards(tuple(phrasings), tuple(owner), tuple(french), idf, postings, marks, views)


def _versions(cards: list[Card]) -> list[str]:
    """Each card's first card among those it updates with the same phrasings (the same question, newer news)."""
    return _firsts(cards, same_phrasings=True)


def _chains(cards: list[Card]) -> list[str]:
    """Each card's first card of its chain: the cards that replace one another answer one question."""
    return _firsts(cards, same_phrasings=False)


def _firsts(cards: list[Card], *, same_phrasings: bool) -> list[str]:
    """Each card's oldest card back along `replaces` (only through cards asked the same ways, if
    `same_phrasings`); a card replacing one not among `cards` is the first of its chain."""
    by_id = {c.id: c for c in cards}
    firsts = []
    for card in cards:
        first, seen = card, {card.id}
        while first.replaces in by_id and first.replaces not in seen:
            older = by_id[first.replaces]
            if same_phrasings and older.phrasings != first.phrasings:
                break
            first = older
            seen.add(first.id)
        firsts.append(first.id)
    return firsts


def _marks(phrasings: list[str], owner: list[int], french: list[bool], chains: list[str],
           asked_about: list[set[str]]) -> dict[int, frozenset[str]]:
    """The words naming what each card is about (in English and in French), for the cards whose phrasings
    nearly all name it. A word's spread counts the chains of cards (`chains`: each card's first) using it;
    a mark is a word of the card's own question (`asked_about`: empty for a card told apart by its boards)."""
    said: dict[int, list[tuple[bool, set[str]]]] = {}
    for text, index, fr in zip(phrasings, owner, french, strict=True):
        said.setdefault(index, []).append((fr, {_singular(w) for w in text.split()}))
    used: dict[str, set[str]] = {}
    for index, texts in said.items():
        for words in texts:
            for word in words[1]:
                used.setdefault(word, set()).add(chains[index])
    spread = {word: len(firsts) for word, firsts in used.items()}
    marks = {}
    for index, texts in said.items():
        named: set[str] = set()
        for language in (False, True):
            own = [words for fr, words in texts if fr is language]
            share = Counter(w for words in own for w in words)
            named.update(w for w, n in share.items()
                         if n >= MARK_SHARE * len(own) and spread[w] <= MARK_CARDS and w in asked_about[index])
        if named and sum(1 for _, words in texts if words & named) >= MARK_COVER * len(texts):
            # Any of the card's own less common words names it ("janitor", "concierge" for custodians).
            marks[index] = frozenset(w for _, words in texts for w in words if spread[w] <= NAMING_CARDS)
    return marks


def cards_key(cards: list[Card]) -> str:
    """Everything of the cards that `prepare_cards` reads, as text for a cache key."""
    return repr([(c.id, c.question, c.phrasings, c.answer, c.details, sorted((c.fr or {}).items())) for c in cards])


class CardIndex:
    """Every card of one knowledge snapshot, prepared for matching."""

    def __init__(self, knowledge: Knowledge, matcher: IntentMatcher, prepared: PreparedCards | None = None):
        self.knowledge = knowledge
        self.cards: list[Card] = list(knowledge.cards)
        ready = prepared if prepared is not None else prepare_cards(self.cards, matcher)
        self._views = ready.views
        self._owner = ready.owner
        self._idf = ready.idf
        self._postings = ready.postings
        self._marks = ready.marks
        self._marked = frozenset().union(*self._marks.values())  # every word that names a marked card
        self._read: dict[tuple[str, frozenset[str], bool], tuple[Match, ...]] = {}  # see _candidates
        # Which cards are visible changes only at these moments: one look-up per span between them.
        self._moments = Moments(t for c in self.cards for t in (c.published, c.valid_until, c.retracted) if t is not None)
        self._visible_in: dict[int, frozenset[str]] = {}
        self._found: dict[tuple[str, bool, int, str | None], tuple[Match, ...]] = {}  # text, English, span, board

    def _visible(self, at: datetime) -> frozenset[str]:
        span = self._moments.after(at)
        visible = self._visible_in.get(span)
        if visible is None:
            visible = self._visible_in[span] = frozenset(c.id for c in self.knowledge.cards_at(at))
        return visible

    def _score_uncached(self, processed: str, english: bool) -> tuple[tuple[int, float], ...]:
        """(card index, score) for the cards worth a look, best first (cached per prepared text).
        `english`: the question is clearly English, so only English phrasings count."""
        if not self.cards or not processed.strip():
            return ()
        fuzzy: dict[int, float] = {}
        processed = _now_said_once(processed)
        query = " ".join(sorted(w for w in processed.split() if w not in _WEAK))  # as the phrasings were prepared
        view = self._views[english]
        spots, texts = view.keys.candidates(query.split(), view.texts)
        found = process.extract(query, texts, scorer=fuzz.ratio, processor=None, limit=12, score_cutoff=45)
        # The best 12 phrasings as if shared texts stood at each of their places (ties: the earlier first).
        best = [(similarity, place) for _, similarity, at in found for place in view.places[spots[at]]]
        if len(best) > len(found):
            best.sort(key=_best_first)
            del best[12:]
        owners = self._owner
        for similarity, place in best:
            owner = owners[place]
            fuzzy[owner] = max(fuzzy.get(owner, 0.0), similarity / 100)
        idf, postings = self._idf, self._postings
        features = {f for f in _features(processed) if f in idf}
        norm = math.sqrt(sum(idf[f] ** 2 for f in features)) or 1.0
        cosine: dict[int, float] = {}
        add = cosine.get
        for feature in features:
            weight = idf[feature] / norm
            for index, value in zip(*postings[feature], strict=True):
                cosine[index] = add(index, 0.0) + weight * value
        asked = {_singular(w) for w in processed.split()}
        marks = self._marks
        fuzzy_of = fuzzy.get
        raw = [
            (index, FUZZ_WEIGHT * fuzzy_of(index, 0.0) + TFIDF_WEIGHT * add(index, 0.0))
            for index in set(fuzzy) | set(cosine)
            if index not in marks or not asked.isdisjoint(marks[index])
        ]
        if len(raw) > KEPT:
            # Only a score that rounds to the KEPT-th best or higher can be kept; rounding keeps the order,
            # and the scores left out round lower than that, so none is worth rounding.
            last = round(sorted([value for _, value in raw], reverse=True)[KEPT - 1], 4)
            raw = [pair for pair in raw if pair[1] > last - 0.0001]
        scored = [(index, round(value, 4)) for index, value in raw]
        scored.sort(key=lambda pair: pair[1], reverse=True)
        return tuple(scored[:KEPT])

    def find(self, processed: str, at: datetime, board: str | None, english: bool = False) -> list[Match]:
        """The cards for a prepared question that answer at `at` for `board`, best first
        (`english`: the question is clearly English)."""
        key = (processed, english, self._moments.after(at), board)
        found = self._found.get(key)
        if found is None:
            if len(self._found) >= 8192:
                self._found.clear()
            found = self._found[key] = self._find(processed, english, at, board)
        return list(found)

    def _candidates(self, processed: str, english: bool) -> tuple[Match, ...]:
        """The cards worth a look (cached per what the scores read of the question: its words but the weak
        ones, after "right now" reads "now", and those of its words that name a marked card)."""
        said = _now_said_once(processed)
        words = said.split()
        key = (" ".join([w for w in words if w not in _WEAK]), self._marked.intersection(map(_singular, words)), english)
        found = self._read.get(key)
        if found is None:
            if len(self._read) >= 8192:
                self._read.clear()
            found = self._read[key] = self._candidates_uncached(processed, english)
        return found

    def _candidates_uncached(self, processed: str, english: bool) -> tuple[Match, ...]:
        """The cards worth a look, best first, before the question's time and board choose among them (cached)."""
        cards = self.cards
        found = [
            # A card written for the user's own board is the more specific answer.
            Match(cards[i], round(score + (BOARD_BONUS if cards[i].boards else 0.0), 4))
            for i, score in self._score_uncached(processed, english)
        ]
        found.sort(key=_score, reverse=True)  # stable: what filtering first, then sorting, would give
        return tuple(found)

    def _find(self, processed: str, english: bool, at: datetime, board: str | None) -> tuple[Match, ...]:
        candidates = self._candidates(processed, english)
        if not candidates:
            return ()
        visible = self._visible(at)
        found = []
        for match in candidates:
            if match.card.id in visible and match.card.applies_to(board):
                found.append(match)
                if len(found) == 8:
                    break
        return tuple(found)


def _score(match: Match) -> float:
    return match.score


def _best_first(pair: tuple[float, int]) -> tuple[float, int]:
    return -pair[0], pair[1]


def prepare(matcher: IntentMatcher, text: str) -> str:
    """A card text through the matcher's pipeline, without the words that carry no question."""
    processed = _now_said_once(matcher.prepare(normalize(text), _EXAMPLE_DAY))
    return " ".join(w for w in processed.split() if w not in _WEAK)


_NOW = re.compile(r"\b(?:right now|currently|at the moment)\b")


def _now_said_once(processed: str) -> str:
    """'Right now', 'currently', 'at the moment' (French "présentement", "en ce moment" reach here as
    "right now") all say "now": one word, so that when a question is asked weighs as little as one word."""
    return _NOW.sub("now", processed) if "now" in processed or "current" in processed or "moment" in processed else processed


_WEAK = FILLER - {"what", "whats", "how", "is", "are", "school", "schools", "news"}


def _features(text: str) -> set[str]:
    words = [_singular(w) for w in text.split() if w not in _WEAK]
    return set(words) | {f"{a}_{b}" for a, b in itertools.pairwise(words)}


def _singular(word: str) -> str:
    """'eas' and 'ea', 'kids' and 'kid', 'trips' and 'trip' count as one word (both sides fold alike)."""
    return word[:-1] if len(word) > 2 and word.endswith("s") and not word.endswith("ss") else word
