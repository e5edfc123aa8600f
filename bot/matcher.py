"""Understanding a message: which intent, for which board and which date.

The pipeline, all on rapidfuzz and plain Python:

1. normalise (lower case, no accents, no control characters, length cap);
2. find the date (``bot.dates``) and the board (``bot.boards``) and blank
   them out, so "is tdsb open monday" and "is peel open oct 7" look alike;
3. expand slang ("r" -> "are") and correct misspelt words against the
   vocabulary of the intent examples;
4. score every intent: fuzzy similarity to its examples plus the weights of
   its keywords found in the message;
5. abstain (``unknown``) when the best score is under ``min_confidence`` or
   the best two intents are closer than ``min_margin``; topics listed as out
   of scope are answered as such, never with the nearest intent.

Examples, keywords, slang and out-of-scope topics live in config/intents.yaml.
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from rapidfuzz import fuzz, process

from bot import intent_rules, sentences
from bot.analysis import Analysis
from bot.boards import BoardFinder, BoardMention
from bot.commands import intent_of, parse
from bot.dates import DateMention, mentions_weekend
from bot.indexes import PhraseIndex, example_view
from bot.intent_data import INTENTS, IntentData, OutOfScope, load_intents
from bot.language import detect
from bot.text import NearestWord, normalize

_EXAMPLE_DAY = date(2019, 10, 3)  # any day: dates in examples are blanked, whichever day they resolve to
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# English endings a word the examples lack may carry on a word they have: ("ing", "") reads "packing" as
# "pack", ("ing", "e") "closing" as "close". Tried before spelling correction.
_ENDINGS = (("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"), ("es", ""), ("s", ""))
_PLURALS = frozenset({"es", "s"})
# French elided words and what they stand for: "l'EPE" reads as "le EPE", "d'autobus" as "de autobus",
# unless slang knows the joined word ("lecole", "quil", "sentendre sur").
_ELIDED = {"l": "le", "d": "de", "qu": "que", "j": "je", "n": "ne", "s": "se", "c": "ce", "m": "me", "t": "tu",
           "jusqu": "jusque", "lorsqu": "lorsque", "puisqu": "puisque"}
_NEGATED = re.compile(r"\b(?:not|no|isnt|isn't|nor)\s+(?:in\s+|at\s+|the\s+)?$")
# Words that carry no question on their own: a message made only of these plus
# a board or a date is about that board or date.
FILLER = frozenset(
    ["a", "an", "and", "the", "in", "on", "at", "for", "of", "to", "is", "it", "its", "are", "was", "be", "what", "whats", "about", "how", "hows", "so", "then", "ok", "okay", "and", "or", "my", "our", "we", "i", "im", "me", "us", "this", "that", "there", "their", "they", "please", "pls", "any", "anything", "news", "update", "updates", "info", "re", "regarding", "school", "schools", "board"]
)


_NEWS_WORDS = frozenset({"news", "update", "updates", "info"})
_LATEST = "whats the latest"
# A message that also names an out-of-scope topic still asks about school only with one of these.
_SCHOOL_WORDS = frozenset(["school", "schools", "class", "classes", "open", "closed", "cancelled", "strike", "striking"])




class IntentMatcher:
    # Weights of the three signals in an intent's score (tuned on the dev set
    # and on questions written apart from the examples).
    EXAMPLE_WEIGHT = 0.5
    CENTROID_WEIGHT = 0.5
    KEYWORD_WEIGHT = 0.35

    def __init__(self, data: IntentData, boards: BoardFinder, *, min_confidence: float, min_margin: float, max_chars: int):
        self.data = data
        self.boards = boards
        self.min_confidence = min_confidence
        self.min_margin = min_margin
        self.max_chars = max_chars
        # Every word the data knows. A slang word ("garderie") counts too: it is
        # never to be read as a misspelt place.
        self._slang_words = frozenset(w for key in data.slang for w in key.split())
        texts = [example for _, example in data.examples]
        texts += [phrase for words in data.keywords.values() for phrase in words]
        texts += [*data.slang, *data.slang.values()]
        texts += [phrase for topic in data.out_of_scope for phrase in topic.keywords]
        vocabulary: set[str] = set(FILLER)
        for text in texts:
            vocabulary.update(w for word in _WORD.findall(normalize(text)) for w in self._unelided(word))
        # Board names and places are not vocabulary: they are blanked before matching.
        vocabulary -= set(boards.named) | set(boards.places)
        # The knowledge's own words are right as written, but never what a misspelt word is corrected into
        # ("jeune" is not the "june" of a date in a card).
        known = {w for text in data.known for word in _WORD.findall(normalize(text)) for w in self._unelided(word)}
        self._speller = NearestWord(w for w in vocabulary if len(w) >= 3 and w.isalpha())
        known -= set(boards.named) | set(boards.places)
        self.vocabulary = frozenset(w for w in vocabulary | known if not w.isdigit())
        boards.protect(self.vocabulary)
        # Multi-word slang ("il y a"): each first word with the most words a phrase starting with it has.
        self._slang_starts: dict[str, int] = {}
        for phrase in data.slang:
            words = phrase.split(" ")
            if len(words) > 1:
                self._slang_starts[words[0]] = max(self._slang_starts.get(words[0], 0), len(words))
        self._words_cached = lru_cache(maxsize=4096)(self._words_uncached)
        # Examples go through the same pipeline as messages.
        self.example_texts: list[str] = []
        self.example_intents: list[str] = []
        not_french: list[bool] = []  # which examples a clearly English message is compared with
        seen = set()
        for intent, example in data.examples:
            processed = self._prepare(normalize(example), _EXAMPLE_DAY)[0]
            if (intent, processed) in seen or not processed:
                continue
            seen.add((intent, processed))
            self.example_texts.append(processed)
            self.example_intents.append(intent)
            not_french.append(detect(example) != "fr")
        # Two views of the examples: all of them for a French or mixed message, and the English
        # and neutral ones for a clearly English message. Slang turns French words into English
        # ones, so a French example ("le bureau public ferme") would otherwise pull English questions.
        everything = [True] * len(self.example_texts)
        self.views = {False: example_view(self.example_texts, self.example_intents, everything),
                      True: example_view(self.example_texts, self.example_intents, not_french)}
        self._score_cached = lru_cache(maxsize=32768)(self._score_uncached)
        self._analysed = lru_cache(maxsize=16384)(self._analyse)
        self._reading = lru_cache(maxsize=16384)(self._read_uncached)
        self._keywords = PhraseIndex()
        for intent, words in data.keywords.items():
            for phrase, weight in words.items():
                self._keywords.add(self._phrase(phrase), (intent, weight))
        self._out_of_scope = PhraseIndex()
        for order, topic in enumerate(data.out_of_scope):
            for phrase in topic.keywords:
                self._out_of_scope.add(self._phrase(phrase), (order, topic))

    # ------------------------------------------------------------ pipeline
    def _correct(self, word: str) -> str:
        """A misspelt word's vocabulary word: one edit away (two for long words), same first letter.

        Kept tight on purpose: an ordinary word missing from the examples
        ("voting") must not become a keyword ("vomiting").
        """
        if word in self.vocabulary or len(word) < 4 or not word.isalpha() or word in self.boards.named \
                or word in self.boards.places:  # a board said beside the one read ("not peel, we're york region")
            return word
        for ending, stem_end in _ENDINGS:  # "packing" is a word ("pack" + "ing"), not a misspelt "parking"
            stem = word[: -len(ending)] + stem_end
            if word.endswith(ending) and len(word) - len(ending) >= 3 and stem in self.vocabulary:
                return stem if ending in _PLURALS else word  # "babysitters" means what "babysitter" does
        return self._speller.find(word) or word

    def _unelided(self, word: str) -> tuple[str, ...]:
        """A word without its apostrophe: French elisions split ("l'epe" -> "le", "epe") unless slang knows them joined."""
        head, _, rest = word.partition("'")
        if not rest:
            return (word,)
        joined = head + rest
        if head not in _ELIDED or joined in self._slang_words:
            return (joined,)
        return (_ELIDED[head], _ELIDED.get(rest, rest))  # "d'l'école": "de le", then "ecole"

    def _tokens(self, text: str) -> list[str]:
        """Words without apostrophes (French elisions split), with multi-word slang ("il y a") replaced."""
        words = [w for word in _WORD.findall(text) for w in self._unelided(word)]
        starts = self._slang_starts
        if starts.keys().isdisjoint(words):
            return words
        slang, out, i = self.data.slang, [], 0
        while i < len(words):  # left to right, the longest phrase first; a replacement is not read again
            for k in range(min(starts.get(words[i], 0), len(words) - i), 1, -1):
                meaning = slang.get(" ".join(words[i : i + k]))
                if meaning is not None:
                    out.extend(meaning.split())
                    i += k
                    break
            else:
                out.append(words[i])
                i += 1
        return out

    def _words(self, text: str, *, correct: bool = True) -> tuple[str, ...]:
        """Words with slang expanded and (unless correct=False) misspellings corrected (cached, so never changed)."""
        return self._words_cached(text, correct)

    def _words_uncached(self, text: str, correct: bool) -> tuple[str, ...]:
        out = []
        slang = self.data.slang
        for word in self._tokens(text):
            replacement = slang.get(word)
            if replacement is None and correct:
                word = self._correct(word)
                replacement = slang.get(word)  # corrected into a slang word ("trouv" -> "trouve"): its meaning
            if replacement is not None:
                out.extend(replacement.split())
            else:
                out.append(word)
        return tuple(out)

    def _phrase(self, text: str) -> str:
        """A keyword prepared exactly like message text, but never 'corrected' into another word."""
        return " ".join(self._words(text, correct=False))

    def prepare(self, norm: str, today: date) -> str:
        """Normalised text as the matcher compares it (boards and dates blanked, slang expanded)."""
        return self._prepare(norm, today)[0]

    def _prepare(
        self, norm: str, today: date, language: str | None = None
    ) -> tuple[str, BoardMention | None, DateMention | None, str]:
        when = sentences.day_asked(norm, today)
        spans = []
        if when is not None:
            spans.append((when.start, when.end))
        board = self.boards.find(norm, language)
        if board is not None and _NEGATED.search(norm[: board.start]):
            # "not TDSB, my kid is in Peel": the board meant is another one.
            spans.append((board.start, board.end))
            board = self.boards.find(norm[: board.start] + " " * (board.end - board.start) + norm[board.end :], language)
        if board is not None:
            spans.append((board.start, board.end))
        blanked = norm
        for start, end in sorted(spans, reverse=True):
            blanked = blanked[:start] + " " + blanked[end:]
        return " ".join(self._words(blanked)), board, when, blanked

    def segments(self, blanked: str) -> list[str]:
        """The prepared sentences of a longer message (none for a short one): bot.sentences.segments."""
        return sentences.segments(blanked, self._words)

    CACHED_CHARS = 500  # messages up to this long are remembered: parents repeat themselves

    def analyse(self, text: str, today: date, language: str | None = None) -> Analysis:
        """What a message asks. `language` is the user's language ("fr"/"en"), used where
        the message itself does not say (a place named in French means the French board).

        All the rest reads the normalised text, so a message that normalises alike ("Is school
        open?" and "is school open?") on the same day in the same language is understood once
        (a copy each time).
        """
        said = detect(text[: self.max_chars])
        language = said or language
        norm = normalize(text, self.max_chars)
        read = self._analyse if len(norm) > self.CACHED_CHARS else self._analysed
        # The bars are part of the key: whoever changes them (a test) gets answers by the new ones. A copy
        # each time: the scores of a reading are shared by every message read alike.
        return read(norm, today, language, said == "en", self.min_confidence, self.min_margin,
                    self.SURE_SCORE).copy()

    def _analyse(self, norm: str, today: date, language: str | None, english: bool, *_bars: float) -> Analysis:
        command = parse(norm) if norm.startswith("/") else None
        if command is not None:  # the intent the command registry gives it (bot.commands)
            intent, argument = intent_of(command.name), command.argument
            if intent is None:  # an unknown command such as /foo
                return Analysis("unknown", 0.0, command=command.name, argument=argument, abstained=True)
            processed, board, when, _ = self._prepare(argument, today, language)
            return Analysis(intent, 1.0, board, when, mentions_weekend(argument),
                            command=command.name, argument=argument, processed=processed, english=english)

        processed, board, when, blanked = self._prepare(norm, today, language)
        weekend = mentions_weekend(norm)
        # What is left to read depends only on these, whichever board or day was named and however
        # the words were spelt: messages differing only there are read once.
        read = self._read_uncached if len(norm) > self.CACHED_CHARS else self._reading  # long ones are not kept
        day_sentence = when is not None and intent_rules.a_sentence_asks_school_that_day(blanked, self._words, FILLER)
        intent, confidence, scores, topic, abstained = read(
            processed, tuple(self.segments(blanked)), board is not None, when is not None, weekend, english,
            day_sentence, *_bars)
        return Analysis(intent, confidence, board, when, weekend, out_of_scope=topic, scores=scores,
                        abstained=abstained, processed=processed, english=english)

    def _read_uncached(self, processed: str, segments: tuple[str, ...], board: bool, when: bool, weekend: bool,
                       english: bool, day_sentence: bool = False, *_bars: float) -> tuple[str, float, dict[str, float], OutOfScope | None, bool]:
        """(intent, confidence, scores, out-of-scope topic, abstained) of a prepared message whose sentences are
        `segments`, naming a board and a day or not (cached: the scores dict is shared, never changed)."""
        topics = self._out_of_scope.payloads(processed.split())
        if topics:
            topic = min(topics, key=lambda found: found[0])[1]  # the first listed topic wins
            mixed = self._school_part(processed, topic, english)
            if mixed is not None:  # "should he take the bus monday or is school cancelled?"
                return mixed[0], mixed[1], {}, topic, False
            return "unknown", 0.0, {}, topic, False

        content = [w for w in processed.split() if w not in FILLER]
        if not content:
            if board and not when:
                return "set_board", 0.9, {}, None, False
            if when or weekend:
                return "school_status", 0.9, {}, None, False
            if _NEWS_WORDS.intersection(processed.split()):  # "any news?", "updates?": as "what's the latest"
                return self._read_uncached(_LATEST, (_LATEST,), False, False, False, english, False, *_bars)
            return "unknown", 0.0, {}, None, True

        scores = self.score_message(processed, list(segments), english)
        day_asked = day_sentence or (when and any(intent_rules.asks_school_that_day(s, FILLER) for s in segments))
        best, best_score, second_score, scores = intent_rules.ranked(
            scores, board=board, when=when, day_asked=day_asked, min_confidence=self.min_confidence,
            min_margin=self.min_margin, words=tuple(processed.split()))
        if best_score < self.min_confidence or (best_score - second_score < self.min_margin
                                                 and best_score < self.SURE_SCORE):
            return "unknown", round(best_score, 3), scores, None, True
        return best, round(best_score, 3), scores, None, False

    # A best score this high answers even when a second intent is as close: "why did the talks end" reads
    # 0.795 as the dispute's issues and 0.776 as the talks, a single mother's long message ending "Are the
    # schools going to close this month or what??" 0.648 as a status and 0.629 as child care; either answers
    # better than "not sure".
    SURE_SCORE = 0.64
    MIXED_BAR = 0.55  # a school question beside an out-of-scope topic must be this clear

    def _school_part(self, processed: str, topic: OutOfScope, english: bool) -> tuple[str, float] | None:
        """The school question asked beside an out-of-scope topic, if one is clearly there.

        Only a separate part of the message counts ("should he take the bus monday
        OR is school cancelled"): the part that names the other topic is its own question.
        """
        phrases = [p for p in (self._phrase(k) for k in topic.keywords) if p]
        parts = [p.strip() for p in re.split(r"\b(?:or|and|but|also)\b", processed) if p.strip()]
        if len(parts) < 2:
            return None
        scores = dict.fromkeys(INTENTS, 0.0)
        for part in parts:
            words = part.split()
            if any(f" {p} " in f" {part} " for p in phrases) or not any(w in _SCHOOL_WORDS for w in words):
                continue
            if not [w for w in words if w not in FILLER]:
                continue
            for intent, value in self.score(part, english).items():
                scores[intent] = max(scores[intent], value)
        ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
        (best, value), (_, second) = ranked[0], ranked[1]
        if best in ("help", "unknown", "set_board") or value < self.MIXED_BAR or value - second < self.min_margin:
            return None
        return best, round(value, 3)

    def score(self, processed: str, english: bool = False) -> dict[str, float]:
        """Each intent's score in 0..1 for an already prepared message (cached: parents repeat themselves).
        `english`: the message is clearly English, so only the English and neutral examples count."""
        return self._score_cached(processed, english)

    def _score_uncached(self, processed: str, english: bool) -> dict[str, float]:
        view = self.views[english]
        example_score = dict.fromkeys(INTENTS, 0.0)
        # token_sort_ratio, with the examples' tokens sorted once up front: word order
        # doesn't matter, and rapidfuzz runs the whole loop natively.
        words = processed.split()
        query = " ".join(sorted(words))
        intents = view.intents
        places, texts = view.keys.candidates(words, view.sorted_texts)
        for _, similarity, at in process.extract(
            # Under 30 there is no real likeness; the cut-off lets rapidfuzz skip early.
            query, texts, scorer=fuzz.ratio, processor=None, limit=60, score_cutoff=30
        ):
            intent = intents[places[at]]
            if similarity > example_score[intent]:
                example_score[intent] = similarity
        centroid = view.centroids.cosine(processed)
        keywords = dict.fromkeys(INTENTS, 0.0)
        for intent, weight in self._keywords.payloads(processed.split()):
            keywords[intent] += weight
        scores = {}
        for intent in INTENTS:
            keyword = keywords[intent]
            scores[intent] = min(
                1.0,
                self.EXAMPLE_WEIGHT * example_score[intent] / 100
                + self.CENTROID_WEIGHT * centroid[intent]
                + self.KEYWORD_WEIGHT * min(keyword, 1.0),
            )
        return scores

    def score_message(self, processed: str, segments: list[str], english: bool = False) -> dict[str, float]:
        """Score the whole message and each of its sentences; an intent keeps its best.

        A question buried in a long message ("hi, ... will her school be open
        monday? thanks") scores as well as the question alone. Pleasantries
        (help) never outrank a real question found elsewhere in the message.
        """
        scores = dict(self.score(processed, english))
        segments = [s for s in segments if s != processed]  # the whole message again cannot raise a score
        if segments:
            social = dict.fromkeys(INTENTS, 0.0)
            for segment in segments:
                part = self.score(segment, english)
                top = max(part, key=part.get)
                target = social if top == "help" else scores
                for intent, value in part.items():
                    if value > target[intent]:
                        target[intent] = value
            substantive = max(v for k, v in scores.items() if k not in ("help", "unknown"))
            if substantive < self.min_confidence:
                # Nothing but pleasantries: let them count.
                for intent, value in social.items():
                    scores[intent] = max(scores[intent], value)
        return scores


__all__ = ["INTENTS", "Analysis", "IntentData", "IntentMatcher", "load_intents"]
