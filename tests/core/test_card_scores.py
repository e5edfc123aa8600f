"""The card index scores a phrasing that several cards share once: the same cards, scores and order as scoring each."""

from __future__ import annotations

import json
import math
from datetime import date
from pathlib import Path

from rapidfuzz import fuzz, process

from bot import cards
from bot.text import normalize


def _scored_one_by_one(index: cards.CardIndex, ready: cards.PreparedCards, processed: str, english: bool) -> tuple:
    """The index's scores with every phrasing scored where it stands, shared or not (English ones only
    for an English question, and those sharing a less common word with it: which ones those are is
    taken from the index's own word keys, tested in test_word_keys.py)."""
    fuzzy: dict[int, float] = {}
    processed = cards._now_said_once(processed)
    query = " ".join(sorted(w for w in processed.split() if w not in cards._WEAK))
    view = index._views[english]
    compared = set(view.keys.candidates(query.split(), view.texts)[1])
    places = [at for at, french in enumerate(ready.french) if not (english and french) and ready.phrasings[at] in compared]
    for _, similarity, at in process.extract(query, [ready.phrasings[at] for at in places], scorer=fuzz.ratio,
                                             processor=None, limit=12, score_cutoff=45):
        owner = ready.owner[places[at]]
        fuzzy[owner] = max(fuzzy.get(owner, 0.0), similarity / 100)
    features = {f for f in cards._features(processed) if f in ready.idf}
    norm = math.sqrt(sum(ready.idf[f] ** 2 for f in features)) or 1.0
    cosine: dict[int, float] = {}
    for feature in features:
        weight = ready.idf[feature] / norm
        for i, value in zip(*ready.postings[feature], strict=True):
            cosine[i] = cosine.get(i, 0.0) + weight * value
    asked = {cards._singular(w) for w in processed.split()}
    raw = [(i, cards.FUZZ_WEIGHT * fuzzy.get(i, 0.0) + cards.TFIDF_WEIGHT * cosine.get(i, 0.0))
           for i in set(fuzzy) | set(cosine) if i not in ready.marks or asked & ready.marks[i]]
    scored = sorted(((i, round(value, 4)) for i, value in raw), key=lambda pair: pair[1], reverse=True)
    return tuple(scored[:cards.KEPT])


def test_shared_phrasings_change_nothing(bot, store):
    index = bot.card_index(store.knowledge())
    ready = cards.prepare_cards(index.cards, bot.matcher)
    assert len(index._views[False].texts) < len(ready.phrasings)  # some texts are shared
    assert len(index._views[True].texts) < len(index._views[False].texts)  # French phrasings left out
    texts = ["what about the zorblax helpers", "is there a deal", "will my child's EA be at school"]
    for name in ("answers_dev.jsonl", "en_dev2.jsonl", "fr_dev2.jsonl", "generic_dev.jsonl"):
        path = Path(__file__).parents[1] / "data" / name
        texts += [json.loads(line)["text"] for line in path.read_text().splitlines() if line.strip()]
    for text in texts:
        processed = bot.matcher.prepare(normalize(text), date(2019, 10, 3))
        if processed.strip():
            for english in (False, True):
                assert index._score_uncached(processed, english) == _scored_one_by_one(index, ready, processed, english), text


def test_questions_kept_as_one_score_alike(bot, store):
    """The candidates are kept per the words the scores read (weak words and "right now" aside, and the words
    naming a marked card): every question read alike scores alike."""
    index = bot.card_index(store.knowledge())
    texts = ["is there a deal", "so is there a deal", "ok is there a deal please", "is there a deal right now",
             "is there a deal now", "are EAs working", "are the EAs working", "are they working", "pls are they working",
             "are the custodians cleaning", "so are the custodians cleaning", "what about the zorblax helpers"]
    for name in ("answers_dev.jsonl", "en_dev2.jsonl", "fr_dev2.jsonl"):
        path = Path(__file__).parents[1] / "data" / name
        for line in path.read_text().splitlines():
            if line.strip():
                text = json.loads(line)["text"]
                texts += [text, f"so {text}", f"ok {text} please", f"{text} right now"]
    read: dict[tuple, tuple] = {}
    for text in texts:
        processed = bot.matcher.prepare(normalize(text), date(2019, 10, 3))
        for english in (False, True):
            said = cards._now_said_once(processed).split()
            key = (" ".join(w for w in said if w not in cards._WEAK),
                   index._marked.intersection(cards._singular(w) for w in said), english)
            scores = index._score_uncached(processed, english)
            assert read.setdefault(key, scores) == scores, text
            assert index._candidates(processed, english) == index._candidates_uncached(processed, english), text
    assert len(read) < len(texts) * 2  # some questions were read alike
