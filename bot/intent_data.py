"""The intent data (config/intents.yaml): intents, their examples and keywords, slang, out-of-scope topics.

Read and validated here; the matcher (bot/matcher.py) prepares and scores with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bot.text import normalize
from knowledge.reading import LoadError, read_yaml, shown, unknown_sections

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
    """Read and validate config/intents.yaml."""
    path = str(path)
    data = read_yaml(path)
    problems: list[str] = []
    if not isinstance(data, dict) or not isinstance(data.get("intents"), dict):
        raise LoadError(path, ["the file must be a mapping with an 'intents' mapping"])
    problems += unknown_sections(data, ("slang", "intents", "out_of_scope"))
    slang: dict[str, str] = {}
    raw_slang = data.get("slang") or {}
    if not isinstance(raw_slang, dict):
        problems.append("slang: must be a mapping of word -> replacement")
        raw_slang = {}
    for word, replacement in raw_slang.items():
        if not isinstance(replacement, str) or not str(word).strip():
            problems.append(f"slang[{shown(word)}]: the replacement must be text, got {shown(replacement)}")
            continue
        slang[normalize(str(word))] = normalize(replacement)
    examples: list[tuple[str, str]] = []
    keywords: dict[str, dict[str, float]] = {}
    for intent, body in data["intents"].items():
        where = f"intents.{intent}"
        if intent not in INTENTS:
            problems.append(f"{where}: unknown intent; known: {', '.join(INTENTS)}")
            continue
        if not isinstance(body, dict):
            problems.append(f"{where}: must be a mapping with examples and keywords")
            continue
        extra = set(body) - {"examples", "keywords", "description"}
        if extra:
            problems.append(f"{where}: unknown field(s) {', '.join(sorted(map(str, extra)))}")
        raw_examples = body.get("examples") or []
        if not isinstance(raw_examples, list) or not raw_examples:
            problems.append(f"{where}.examples: must be a non-empty list")
            raw_examples = []
        for index, example in enumerate(raw_examples):
            if not isinstance(example, str) or not example.strip():
                problems.append(f"{where}.examples[{index}]: must be non-empty text, got {shown(example)}")
            else:
                examples.append((intent, example))
        raw_keywords = body.get("keywords") or {}
        if not isinstance(raw_keywords, dict):
            problems.append(f"{where}.keywords: must be a mapping of word -> weight")
            raw_keywords = {}
        for word, weight in raw_keywords.items():
            if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not 0 < weight <= 1:
                problems.append(f"{where}.keywords[{shown(word)}]: weight must be a number in (0, 1], got {shown(weight)}")
                continue
            keywords.setdefault(intent, {})[normalize(str(word))] = float(weight)
    missing = set(INTENTS) - set(data["intents"])
    if missing:
        problems.append(f"intents: missing {', '.join(sorted(missing))}")
    topics = []
    for index, raw in enumerate(data.get("out_of_scope") or []):
        where = f"out_of_scope[{index}]"
        if not isinstance(raw, dict) or not raw.get("topic") or not raw.get("keywords") or not raw.get("where"):
            problems.append(f"{where}: needs topic, keywords (a list) and where")
            continue
        if not isinstance(raw["keywords"], list):
            problems.append(f"{where}.keywords: must be a list")
            continue
        french = raw.get("fr")
        if french is not None and (not isinstance(french, dict) or set(french) - {"topic", "where"}
                                   or not all(isinstance(v, str) and v.strip() for v in french.values())):
            problems.append(f"{where}.fr: must map topic and/or where to French text")
            continue
        topics.append(OutOfScope(str(raw["topic"]), tuple(normalize(str(k)) for k in raw["keywords"]), str(raw["where"]),
                                 {str(k): str(v) for k, v in french.items()} if french else None))
    if problems:
        raise LoadError(path, problems)
    return IntentData(slang, tuple(examples), keywords, tuple(topics))


def with_packs(data: IntentData, packs) -> IntentData:
    """The intent data with the active packs' own examples and slang (`intent_examples:`, `slang:` in a pack's
    header) added: a pack's slang never replaces a shipped word's meaning."""
    examples = [(intent, text) for pack in packs for intent, texts in pack.intent_examples for text in texts]
    slang = {normalize(word): normalize(means) for pack in packs for word, means in pack.slang}
    if not examples and not slang:
        return data
    return IntentData({**slang, **data.slang}, data.examples + tuple(examples), data.keywords, data.out_of_scope,
                      data.known)


def with_known_texts(data: IntentData, texts: tuple[str, ...]) -> IntentData:
    """The intent data with the words of `texts` (the knowledge parents are answered from) known to the spelling
    corrector: Alberta's "mediation" stays mediation, not the health topic's "medication"."""
    return IntentData(data.slang, data.examples, data.keywords, data.out_of_scope, data.known + tuple(texts))
