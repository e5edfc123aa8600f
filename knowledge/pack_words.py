"""A pack's own words for the matcher: how parents of this dispute ask (`intent_examples:`) and the words they
use for things the intents already know (`slang:`), both in the pack's header (docs/packs.md, "The header").

They are added to config/intents.yaml's examples and slang while the pack is active, so what is specific to a
dispute ("the parent payment", "is it happening", "ATA") is data of its pack, not of the shipped intents.
"""

from __future__ import annotations

from typing import Any

from knowledge.fields import _text
from knowledge.reading import shown

MAX_EXAMPLES = 150  # example questions in one pack, all intents together
MAX_SLANG = 100
EXAMPLE_CHARS = 200


def read_intent_examples(raw: Any, intents: tuple[str, ...], problems: list[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(intent, examples) pairs of `intent_examples:` (a mapping of intent -> list of questions)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        problems.append("pack.intent_examples: must map an intent to a list of example questions")
        return ()
    found, count = [], 0
    for intent, examples in raw.items():
        where = f"pack.intent_examples.{intent}"
        if intent not in intents:
            problems.append(f"{where}: {shown(intent)} is not an intent; known: {', '.join(intents)}")
            continue
        if not isinstance(examples, list) or not examples:
            problems.append(f"{where}: must be a list of example questions")
            continue
        texts = []
        for example in examples:
            try:
                text = _text(example)
            except ValueError as exc:
                problems.append(f"{where}: {exc}")
                continue
            if len(text) > EXAMPLE_CHARS:
                problems.append(f"{where}: {shown(text)} has {len(text)} characters; at most {EXAMPLE_CHARS}")
                continue
            texts.append(text)
        count += len(texts)
        found.append((str(intent), tuple(texts)))
    if count > MAX_EXAMPLES:
        problems.append(f"pack.intent_examples: {count} examples; at most {MAX_EXAMPLES}")
    return tuple(found)


def read_slang(raw: Any, problems: list[str]) -> tuple[tuple[str, str], ...]:
    """(word, replacement) pairs of `slang:` (a mapping of what parents type -> the words the intents use)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        problems.append("pack.slang: must map a word parents type to the words it means (ata: union)")
        return ()
    if len(raw) > MAX_SLANG:
        problems.append(f"pack.slang: {len(raw)} words; at most {MAX_SLANG}")
    found = []
    for word, means in raw.items():
        try:
            found.append((_text(str(word)).lower(), _text(means).lower() if means != "" else ""))
        except (TypeError, ValueError) as exc:
            problems.append(f"pack.slang.{word}: {exc}")
    return tuple(found)
