"""Text indexes the matchers score with: TF-IDF centroids per intent, whole-phrase look-up, the texts
sharing a word with a message, and the views of the intent examples and of the card phrasings."""

from __future__ import annotations

import itertools
import math
from array import array
from collections import Counter, defaultdict
from dataclasses import dataclass

from bot.intent_data import INTENTS


class CentroidIndex:
    """TF-IDF cosine between a message and each intent's centroid of examples.

    The nearest-example score rewards phrasings close to one example; this one
    rewards the words and word pairs that are typical of an intent across all
    its examples, so an unseen phrasing with the right words still scores.

    Each feature keeps its idf, the intents having it (their places in INTENTS, as bytes) and their
    centroid values (an array of doubles): a few contiguous blocks per feature instead of a tuple and a
    float object per intent, which a busy process mostly finds out of the CPU's cache.
    """

    def __init__(self, texts: list[str], intents: list[str]):
        features = [_features(text) for text in texts]
        df = Counter(feature for fs in features for feature in fs)
        n = len(texts)
        idf = {feature: math.log((n + 1) / (count + 1)) + 1 for feature, count in df.items()}
        centroids: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for fs, intent in zip(features, intents, strict=False):
            norm = math.sqrt(sum(idf[f] ** 2 for f in fs)) or 1.0
            for feature in fs:
                centroids[intent][feature] += idf[feature] / norm
        postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for intent, vector in centroids.items():
            norm = math.sqrt(sum(v * v for v in vector.values())) or 1.0
            for feature, value in vector.items():
                postings[feature].append((INTENTS.index(intent), value / norm))
        self.features: dict[str, tuple[float, bytes, array]] = {
            feature: (idf[feature], bytes(i for i, _ in found), array("d", [v for _, v in found]))
            for feature, found in postings.items()
        }

    def cosine(self, text: str) -> dict[str, float]:
        known = self.features
        query = [known[f] for f in _features(text) if f in known]
        scores = [0.0] * len(INTENTS)
        norm = math.sqrt(sum(idf * idf for idf, _, _ in query))
        if not norm:
            return dict(zip(INTENTS, scores, strict=True))
        for idf, intents, values in query:
            share = idf / norm
            for intent, value in zip(intents, values, strict=True):
                scores[intent] += share * value
        return dict(zip(INTENTS, scores, strict=True))


class PhraseIndex:
    """Whole-phrase lookup: which of many short phrases occur in a message's words.

    Same result as searching " phrase " in " message ", but one dictionary
    look-up per n-gram of the message instead of one search per phrase.
    """

    def __init__(self) -> None:
        self.entries: dict[str, list] = {}
        self.starts: dict[str, int] = {}  # a phrase's first word -> the most words such a phrase has

    def add(self, phrase: str, payload) -> None:
        if phrase:
            self.entries.setdefault(phrase, []).append(payload)
            first = phrase.partition(" ")[0]
            self.starts[first] = max(self.starts.get(first, 0), phrase.count(" ") + 1)

    def payloads(self, words: list[str]) -> list:
        """Payloads of every distinct phrase found, in the order found."""
        seen: set[str] = set()
        out = []
        entries, starts, n = self.entries, self.starts, len(words)
        for i, word in enumerate(words):
            longest = starts.get(word)
            if longest is None:  # no phrase starts with this word
                continue
            for k in range(1, min(longest, n - i) + 1):
                key = word if k == 1 else " ".join(words[i : i + k])
                if key in entries and key not in seen:
                    seen.add(key)
                    out.extend(entries[key])
        return out


class WordKeyIndex:
    """Which of many texts share a less common word with a message: the candidates of a fuzzy search.

    A word counts by its first KEY_CHARS letters ("close", "closed", "closing" alike). A key found in
    more than `common_share` of the texts ("is", "school", "strike"), or shorter than two letters,
    selects nothing: texts sharing only such words with a message are not compared with it.
    """

    KEY_CHARS = 4

    def __init__(self, texts: list[str], common_share: float):
        keys = [{word[: self.KEY_CHARS] for word in text.split() if len(word) >= 2} for text in texts]
        share = Counter(key for found in keys for key in found)
        self.postings: dict[str, list[int]] = {}  # a key -> the places of the texts having it
        for place, found in enumerate(keys):
            for key in found:
                if share[key] <= common_share * len(texts):
                    self.postings.setdefault(key, []).append(place)

    def candidates(self, words: list[str], texts: list[str]) -> tuple[list[int] | range, list[str]]:
        """The places and texts (of `texts`, the ones indexed) sharing a key with `words`, in their order,
        so ties rank as in a search over all of them. All of them when no word selects any."""
        found: set[int] = set()
        postings, cut = self.postings, self.KEY_CHARS
        for word in words:
            hit = postings.get(word[:cut])
            if hit is not None:
                found.update(hit)
        if not found:
            return range(len(texts)), texts
        places = sorted(found)
        return places, [texts[i] for i in places]


def _features(text: str) -> set[str]:
    words = text.split()
    return set(words) | {f"{a}_{b}" for a, b in itertools.pairwise(words)}


# The fuzzy signal compares a message only with the examples sharing one of its less common words
# (WordKeyIndex): a key in over EXAMPLES_COMMON_SHARE of the examples ("is", "school", "open", "strike",
# "what") selects none. About 270 of 2,000 examples are compared on average, and the search
# costs about a third. Measured on every evaluation set: the tuning sets read as with all the
# examples; a share of 0.2 compared about 440 and a share of 0.1 cost tuning-set questions.
EXAMPLES_COMMON_SHARE = 0.15


@dataclass(slots=True)
class ExampleView:
    """Intent examples as the fuzzy and centroid signals read them: all of them, or the English ones."""

    sorted_texts: list[str]  # each example's words sorted (token_sort_ratio, sorted once)
    intents: list[str]
    centroids: CentroidIndex
    keys: WordKeyIndex  # which examples the fuzzy search compares with a message


def example_view(texts: list[str], intents: list[str], kept: list[bool]) -> ExampleView:
    texts = [t for t, keep in zip(texts, kept, strict=True) if keep]
    intents = [i for i, keep in zip(intents, kept, strict=True) if keep]
    sorted_texts = [" ".join(sorted(t.split())) for t in texts]
    return ExampleView(sorted_texts, intents, CentroidIndex(texts, intents),
                       WordKeyIndex(sorted_texts, EXAMPLES_COMMON_SHARE))


class PhrasingView:
    """The card phrasings one kind of question is compared with; a text several cards share is scored once.
    Only the phrasings sharing a less common word with the question are compared (`keys`): a key in over
    COMMON_SHARE of them selects none. About 190 of 660 are compared; on the 8,900 replies of
    bench/replies_digest.py none changed (a share of 0.2 changed 31)."""

    __slots__ = ("keys", "places", "texts")
    COMMON_SHARE = 0.3

    def __init__(self, phrasings: list[str], kept: list[bool]):
        places: dict[str, list[int]] = {}  # each text with the places it has among all the phrasings
        for place, text in enumerate(phrasings):
            if kept[place]:
                places.setdefault(text, []).append(place)
        self.texts = list(places)
        self.places = [tuple(found) for found in places.values()]
        self.keys = WordKeyIndex(self.texts, self.COMMON_SHARE)
