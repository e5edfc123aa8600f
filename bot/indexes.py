"""Text indexes the intent matcher scores with: TF-IDF centroids per intent, and whole-phrase look-up."""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict

from bot.intent_data import INTENTS


class CentroidIndex:
    """TF-IDF cosine between a message and each intent's centroid of examples.

    The nearest-example score rewards phrasings close to one example; this one
    rewards the words and word pairs that are typical of an intent across all
    its examples, so an unseen phrasing with the right words still scores.
    """

    def __init__(self, texts: list[str], intents: list[str]):
        features = [_features(text) for text in texts]
        df = Counter(feature for fs in features for feature in fs)
        n = len(texts)
        self.idf = {feature: math.log((n + 1) / (count + 1)) + 1 for feature, count in df.items()}
        centroids: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for fs, intent in zip(features, intents, strict=False):
            norm = math.sqrt(sum(self.idf[f] ** 2 for f in fs)) or 1.0
            for feature in fs:
                centroids[intent][feature] += self.idf[feature] / norm
        self.postings: dict[str, list[tuple[str, float]]] = defaultdict(list)
        for intent, vector in centroids.items():
            norm = math.sqrt(sum(v * v for v in vector.values())) or 1.0
            for feature, value in vector.items():
                self.postings[feature].append((intent, value / norm))

    def cosine(self, text: str) -> dict[str, float]:
        idf, postings = self.idf, self.postings
        query = {f: idf[f] for f in _features(text) if f in idf}
        scores = dict.fromkeys(INTENTS, 0.0)
        norm = math.sqrt(sum(v * v for v in query.values()))
        if not norm:
            return scores
        for feature, weight in query.items():
            share = weight / norm
            for intent, value in postings[feature]:
                scores[intent] += share * value
        return scores


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


def _features(text: str) -> set[str]:
    words = text.split()
    return set(words) | {f"{a}_{b}" for a, b in itertools.pairwise(words)}
