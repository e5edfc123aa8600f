"""A pack's own words for the matcher: how parents of this dispute ask (`intent_examples:`) and the words they
use for things the intents already know (`slang:`), both in the pack's header (docs/packs.md, "The header").

They are added to config/intents.yaml's examples and slang while the pack is active, so what is specific to a
dispute ("the parent payment", "is it happening", "ATA") is data of its pack, not of the shipped intents.
"""

from __future__ import annotations

from typing import Any

from knowledge import fields
from knowledge.reading import shown

MAX_EXAMPLES = 150  # example questions in one pack, all intents together
MAX_SLANG = 100
EXAMPLE_CHARS = 200


def _example(value: Any) -> str:
    found = fields.text(value)
    if len(found) > EXAMPLE_CHARS:
        raise ValueError(f"{shown(found)} has {len(found)} characters; at most {EXAMPLE_CHARS}")
    return found


def read_intent_examples(header: dict, intents: tuple[str, ...],
                         problems: list[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(intent, examples) pairs of the header's `intent_examples:` (a mapping of intent -> list of questions)."""
    found, count = [], 0
    for where, intent, examples in fields.keyed(header, "intent_examples", problems, required=False,
                                                where="pack.intent_examples",
                                                needs="an intent to a list of example questions"):
        if intent not in intents:
            problems.append(f"{where}: {shown(intent)} is not an intent; known: {', '.join(intents)}")
            continue
        try:
            texts = fields.strings(examples, _example, empty=False)
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            continue
        count += len(texts)
        found.append((intent, texts))
    if count > MAX_EXAMPLES:
        problems.append(f"pack.intent_examples: {count} examples; at most {MAX_EXAMPLES}")
    return tuple(found)


def read_slang(header: dict, problems: list[str]) -> tuple[tuple[str, str], ...]:
    """(word, replacement) pairs of the header's `slang:` (a mapping of what parents type -> the words the intents
    use)."""
    words = fields.keyed(header, "slang", problems, required=False, where="pack.slang",
                         needs="a word parents type to the words it means (ata: union)")
    if len(words) > MAX_SLANG:
        problems.append(f"pack.slang: {len(words)} words; at most {MAX_SLANG}")
    found = []
    for where, word, means in words:
        try:
            found.append((fields.text(word).lower(), fields.text(means).lower() if means != "" else ""))
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
    return tuple(found)
