"""Regions: where a dispute happens (a province, a state, a district), as data.

A region file has a `region:` header and the region's `boards:` (docs/packs.md,
"A new region"). The header says the region's time zone ("tomorrow" is
tomorrow there), its languages (the first is the default: a message whose
language is unclear is answered in it) and the words its parents use: what a
board is called, the ministry parents are sent to for what the reports do not
cover, and the examples the bot's prompts suggest. A pack names its region
(`region: alberta`); a pack without one belongs to the region shipped with the
bot (`[knowledge] region`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from knowledge.fields import Entry, ident, refuse, sections, strings, text, url
from knowledge.model import Board
from knowledge.reading import LoadError, read_yaml, shown

LANGUAGES = ("en", "fr")
EXAMPLES_MAX = 4  # names a prompt suggests ("for example ...")
_WORDS = ("name", "board_word", "ministry", "examples", "example_question", "everywhere")  # each with an _fr twin
HEADER_KEYS = ("id", "timezone", "languages", "ministry_website") + tuple(
    k for word in _WORDS for k in (word, f"{word}_fr"))


@dataclass(frozen=True, slots=True, eq=False)  # one object per snapshot; compared (and cached) by identity
class Region:
    id: str
    name: str
    timezone: str = "UTC"
    languages: tuple[str, ...] = ("en",)  # the first is the default language
    board_word: str = "school board"
    ministry: str = "the education ministry"
    ministry_website: str = ""
    examples: tuple[str, ...] = ()
    example_question: str = "is school open monday?"
    everywhere: str = ""  # "province-wide" ("toute la province"): what holds for every board; default "<name>-wide"
    fr: dict = field(default_factory=dict)  # the French of name, board_word, ministry, examples, example_question

    @property
    def language(self) -> str:
        """The default language: messages whose language is unclear are answered in it."""
        return self.languages[0]

    def words(self, language: str) -> dict[str, str]:
        """The region's words in `language`, as config/wording.yaml's {region_...} fields take them."""
        def word(name: str):
            value = self.fr.get(name) if language == "fr" else None
            return value or getattr(self, name)

        open_quote, close_quote = ("« ", " »") if language == "fr" else ('"', '"')
        examples = [f"{open_quote}{e}{close_quote}" for e in word("examples")]
        joiner = " ou " if language == "fr" else " or "
        listed = (", ".join(examples[:-1]) + joiner + examples[-1]) if len(examples) > 1 else "".join(examples)
        ministry = word("ministry")
        where = f"{ministry} ({self.ministry_website})" if self.ministry_website else ministry
        everywhere = word("everywhere") or (f"tout le territoire ({word('name')})" if language == "fr"
                                            else f"{word('name')}-wide")
        return {"region_name": word("name"), "region_board": word("board_word"), "region_ministry": where,
                "region_everywhere": everywhere, "region_everywhere_title": everywhere[:1].upper() + everywhere[1:],
                "region_examples": listed or f"{open_quote}{word('board_word')}{close_quote}",
                "region_question": f"{open_quote}{word('example_question')}{close_quote}"}


# What the bot's wording says when no region is known (a database without one): nothing of any place.
NOWHERE = Region("", "your region")


def region_key(name: str) -> str:
    """The id a pack's `region:` names: "Ontario" and "ontario" are the same region."""
    return "-".join(str(name).casefold().split())


def read_region(raw: Any, path: str, problems: list[str]) -> Region | None:
    """The validated `region:` header of a region file (problems are collected, naming the key)."""
    e = Entry(raw, "region", problems, needs="fields (id, name, timezone, languages, ...)")
    if not isinstance(raw, dict):
        return None
    values: dict[str, Any] = {
        "id": e.get("id", ident), "name": e.get("name", text), "timezone": e.get("timezone", _zone),
        "languages": e.get("languages", _languages), "ministry_website": e.get("ministry_website", url, required=False),
    }
    fr: dict[str, Any] = {}
    for word in _WORDS:
        convert = _examples if word == "examples" else text
        if word != "name":
            values[word] = e.get(word, convert, required=False)
        value = e.get(f"{word}_fr", convert, required=False)
        if value:
            fr[word] = value
    e.finish(HEADER_KEYS)
    if any(values[k] is None for k in ("id", "name", "timezone", "languages")):
        return None
    if "fr" in values["languages"] and values["languages"][0] == "fr" and not fr.get("example_question"):
        e.fail("French is its first language: give 'example_question_fr' (and the other _fr words)")
    return Region(**{k: v for k, v in values.items() if v is not None}, fr=fr)


def load_region(path: str | Path) -> tuple[Region, tuple[Board, ...]]:
    """Read and validate a region file: its header and its boards (raises LoadError listing every problem)."""
    from knowledge.loading import read_boards  # the boards' own checks (aliases, short names)

    path = str(path)
    data = read_yaml(path)
    if not isinstance(data, dict) or "region" not in data:
        raise LoadError(path, ["a region file starts with a 'region:' header (docs/packs.md, \"A new region\")"])
    problems: list[str] = []
    sections(data, path, ["region", "boards"], "a 'region:' header and 'boards'", problems)
    region = read_region(data["region"], path, problems)
    refuse(path, problems)
    boards = read_boards(data, path)
    return region, boards


def is_region_file(path: str | Path) -> bool:
    """Whether a file is a region file (its top level has 'region:'); unreadable files are not."""
    try:
        data = read_yaml(str(path))
    except LoadError:
        return False
    return isinstance(data, dict) and "region" in data


def region_to_json(region: Region) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(region).items()}


def region_from_json(data: dict) -> Region:
    data = dict(data)
    fr = {k: (tuple(v) if isinstance(v, list) else v) for k, v in (data.pop("fr", None) or {}).items()}
    known = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k in HEADER_KEYS}
    return Region(**known, fr=fr)


def _zone(value: Any) -> str:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    name = text(value)
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{shown(name)} is not a time zone: use an IANA name such as America/Edmonton") from None
    return name


def _languages(value: Any) -> tuple[str, ...]:
    found = strings(value)
    bad = [v for v in found if v not in LANGUAGES]
    if bad or not found or len(set(found)) != len(found):
        raise ValueError(f"{shown(list(found))} must list {' and/or '.join(LANGUAGES)}, each once, the default first")
    return found


def _examples(value: Any) -> tuple[str, ...]:
    found = strings(value)
    if len(found) > EXAMPLES_MAX or any(len(e) > 40 for e in found):
        raise ValueError(f"at most {EXAMPLES_MAX} names of at most 40 characters each")
    return found
