"""The intent data (config/intents.yaml): intents, their examples and keywords, slang, out-of-scope topics.

Read and validated here; the matcher (bot/matcher.py) prepares and scores with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from bot.text import normalize
from knowledge import fields
from knowledge.reading import read_yaml, shown

INTENTS = (
    "school_status",
    "strike_dates",
    "withdrawn_services",
    "childcare",
    "negotiations",
    "who_is_affected",
    "dispute_issues",
    "work_to_rule",
    "updates_source",
    "subscribe",
    "unsubscribe",
    "set_board",
    "help",
    "unknown",
)


@dataclass(frozen=True, slots=True)
class OutOfScope:
    topic: str
    keywords: tuple[str, ...]
    where: str
    fr: dict[str, str] | None = field(default=None, hash=False, compare=False)  # French topic and where


@dataclass(frozen=True, slots=True)
class IntentData:
    slang: dict[str, str]
    examples: tuple[tuple[str, str], ...]  # (intent, raw example)
    keywords: dict[str, dict[str, float]]  # intent -> keyword -> weight
    out_of_scope: tuple[OutOfScope, ...]
    # Texts whose words are right as written (the active knowledge's): never "corrected" into an example's word
    known: tuple[str, ...] = ()


def load_intents(path: str | Path) -> IntentData:
    """Read and validate config/intents.yaml (knowledge.fields: every problem named by its entry)."""
    path = str(path)
    problems: list[str] = []
    data = fields.sections(read_yaml(path), path, ("slang", "intents", "out_of_scope"), "an 'intents' mapping",
                           problems)
    words = fields.Entry(data, "", problems).get("slang", _SLANG, required=False, default={})
    slang = {normalize(word): normalize(replacement) for word, replacement in words.items()}
    examples: list[tuple[str, str]] = []
    keywords: dict[str, dict[str, float]] = {}
    seen = set()
    for where, intent, raw in fields.keyed(data, "intents", problems, needs="an intent to its examples and keywords"):
        if intent not in INTENTS:
            problems.append(f"{where}: unknown intent; known: {', '.join(INTENTS)}")
            continue
        seen.add(intent)
        e = fields.Entry(raw, where, problems, needs="examples and keywords")
        examples.extend((intent, text) for text in e.get("examples", _EXAMPLES, default=()))
        weights = e.get("keywords", _KEYWORDS, required=False, default={})
        if weights:
            keywords[intent] = {normalize(word): weight for word, weight in weights.items()}
        e.get("description", fields.text, required=False)
        e.finish()
    missing = set(INTENTS) - seen
    if missing and isinstance(data.get("intents"), dict):
        problems.append(f"intents: missing {', '.join(sorted(missing))}")
    topics = []
    for where, raw in fields.entries(data, "out_of_scope", problems, required=False):
        e = fields.Entry(raw, where, problems, needs="topic, keywords and where")
        topic, words = e.get("topic", fields.text), e.get("keywords", fields.strings)
        place, french = e.get("where", fields.text), e.get("fr", _FRENCH, required=False)
        e.finish()
        if topic and words and place:
            topics.append(OutOfScope(topic, tuple(normalize(k) for k in words), place, french))
    fields.refuse(path, problems)
    return IntentData(slang, tuple(examples), keywords, tuple(topics))


def _replacement(value) -> str:
    """A slang word's replacement: any text, even empty (the word is dropped)."""
    if not isinstance(value, str):
        raise ValueError(f"expected the words it stands for (or \"\"), got {shown(value)}")
    return value


def _example(value) -> str:
    """An example question, as written (non-empty text)."""
    fields.text(value)
    return value


_SLANG = fields.mapping_of(None, _replacement, noun="word")  # what parents type -> what the intents' examples say
_EXAMPLES = partial(fields.strings, item=_example, empty=False)
_KEYWORDS = fields.mapping_of(None, fields.number(0, 1), noun="keyword")  # keyword -> weight
_FRENCH = fields.mapping_of(("topic", "where"), noun="French text")


def with_packs(data: IntentData, packs) -> IntentData:
    """The intent data with the active packs' own examples and slang (`intent_examples:`, `slang:` in a pack's
    header) added: a pack's slang never replaces a shipped word's meaning."""
    examples = [(intent, text) for pack in packs for intent, texts in pack.intent_examples for text in texts]
    slang = {normalize(word): normalize(means) for pack in packs for word, means in pack.slang}
    if not examples and not slang:
        return data
    return replace(data, slang={**slang, **data.slang}, examples=data.examples + tuple(examples))


def with_known_texts(data: IntentData, texts: tuple[str, ...]) -> IntentData:
    """The intent data with the words of `texts` (the knowledge parents are answered from) known to the spelling
    corrector: Alberta's "mediation" stays mediation, not the health topic's "medication"."""
    return replace(data, known=data.known + tuple(texts))
