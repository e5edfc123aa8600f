"""What the bot says that is not knowledge, in English and French: config/wording.yaml.

Each entry is a key with an English text and, normally, a French one; texts may
hold {fields} filled in when said. A missing French text falls back to English
(and `load_wording` lists it as a warning); a French text whose {fields} differ
from the English one is an error, because it would fail when said.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from pathlib import Path

from bot.settings import CONFIG_DIR
from knowledge import fields
from knowledge.reading import LoadError, read_yaml, shown

LANGUAGES = ("en", "fr")
WORDING_FILE = CONFIG_DIR / "wording.yaml"  # the shipped catalog (bot.replies.wording)


@dataclass(frozen=True, slots=True)
class Wording:
    texts: dict[str, dict[str, str]]  # key -> language -> text
    warnings: tuple[str, ...] = ()

    def say(self, key: str, language: str = "en", /, **fields: object) -> str:
        """The text for `key` in `language` (English when there is no French), its {fields} filled."""
        entry = self.texts[key]
        text = entry.get(language) or entry["en"]
        return text.format(**fields) if fields else text

    def has_french(self, key: str) -> bool:
        return bool(self.texts.get(key, {}).get("fr"))


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _english(value: object) -> str:
    return fields.text(value) and str(value).strip()


def _french(value: object) -> str:
    """A French text, stripped; an empty one is none (English is used, with a warning)."""
    if not isinstance(value, str):
        raise ValueError(f"expected text, got {shown(value)}")
    return value.strip()


def load_wording(path: str | Path, required: frozenset[str] = frozenset()) -> Wording:
    """Read and validate a wording file; raises LoadError naming every bad entry, and each `required` key
    it does not have (the bot's own file must have every key it shipped with: bot.wording_keys)."""
    path = str(path)
    data = read_yaml(path)
    if not isinstance(data, dict) or not data:
        raise LoadError(path, ["the file must be a mapping of key -> {en: text, fr: text}"])
    problems: list[str] = []
    warnings: list[str] = []
    texts: dict[str, dict[str, str]] = {}
    for key, entry in data.items():
        e = fields.Entry(entry, str(key), problems, needs="texts (en: English, fr: French)")
        english, french = e.get("en", _english), e.get("fr", _french, required=False, default="")
        e.finish()
        if english is None:
            continue
        if not french:
            warnings.append(f"{key}: no French text; English is used")
        elif _fields(french) != _fields(english):
            e.fail(f"'fr': its {{fields}} {sorted(_fields(french))} differ from English {sorted(_fields(english))}")
        try:
            english.format(**dict.fromkeys(_fields(english), ""))
        except (ValueError, IndexError) as exc:
            e.fail(f"'en': not a valid text with {{fields}}: {exc}")
        texts[str(key)] = {"en": english, "fr": french}
    missing = sorted(required - texts.keys())
    if missing:
        problems.append(f"{len(missing)} key(s) the bot says are missing: {', '.join(missing[:5])}"
                        f"{', ...' if len(missing) > 5 else ''}; put them back from the shipped wording.yaml")
    fields.refuse(path, problems)
    return Wording(texts, tuple(warnings))
