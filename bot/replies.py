"""The shape and the fixed wording of replies.

Answer first: the first sentence answers the question (a phone's notification
preview shows about 160 characters), then at most two supporting lines, then
the source and as-of time. The rest waits for "more".
"""

from __future__ import annotations

import re
import sys
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bot import prepared
from bot.wording import WORDING_FILE, Wording, load_wording
from bot.wording_keys import SHIPPED_KEYS
from knowledge.reading import LoadError, read_bytes
from knowledge.regions import NOWHERE, Region

PREVIEW_CHARS = 160
MAX_SUPPORT = 2

# A capital letter's period is an initial ("Lester B. Pearson", "U.S."), not a sentence's end.
_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\b[A-Z]\.)\s+(?=[A-ZÀ-ÖØ-Ý\"'(«])")


# ------------------------------------------------------------------ languages
@lru_cache(maxsize=1)
def wording() -> Wording:
    """The catalog of what the bot says (config/wording.yaml), read once, kept prepared like the dates."""
    from bot.dates.vocabulary import user_cache_dir

    try:
        key = prepared.digest(b"wording", read_bytes(WORDING_FILE), Path(__file__).read_bytes(), sys.version)
    except LoadError:
        return load_wording(WORDING_FILE, SHIPPED_KEYS)  # the loader says what is wrong, naming the file
    return prepared.load_or_build(key, lambda: load_wording(WORDING_FILE, SHIPPED_KEYS), user_cache_dir(),
                                  name="wording")


# The region of the message being answered: its words fill the catalog's {region_...} fields (the examples a
# prompt suggests, what a board is called, where to look). Set per message by Bot.respond (a context variable:
# each asyncio task answering a message has its own).
_REGION: ContextVar[Region] = ContextVar("region", default=NOWHERE)
# The first active pack's example questions (its `examples:` / `examples_fr:`), by language, for the greeting.
_EXAMPLES: ContextVar[dict[str, tuple[str, ...]]] = ContextVar("examples", default={})


def use_region(region: Region, pack: object | None = None) -> None:
    """The region, and the first active pack (its examples), of the message being answered."""
    _REGION.set(region)
    _EXAMPLES.set({"en": tuple(getattr(pack, "examples", ())), "fr": tuple(getattr(pack, "examples_fr", ()))})


def fill_region(text: str, language: str = "en") -> str:
    """A data text's {region_...} fields (config/intents.yaml's places to look) in the region's words."""
    if "{region_" not in text:
        return text
    for name, value in _REGION.get().words(language).items():
        text = text.replace("{" + name + "}", value)
    return text


def say(key: str, language: str = "en", /, **fields: object) -> str:
    """The catalog's text for `key` in `language` (English when it has no French), its {fields} filled, and
    its {region_...} fields from the region of the message being answered."""
    catalog = wording()
    if "{region_" in catalog.texts[key]["en"]:
        fields = {**_REGION.get().words(language), **fields}
    return catalog.say(key, language, **fields)


@dataclass(slots=True)
class Voice:
    """The language of one reply, and whether a knowledge text in it had to be given in English."""

    language: str = "en"
    untranslated: bool = False

    @property
    def french(self) -> bool:
        return self.language == "fr"

    @property
    def colon(self) -> str:
        """': ' in English, ' : ' in French (a space before the colon)."""
        return " : " if self.language == "fr" else ": "

    def say(self, key: str, /, **fields: object) -> str:
        return say(key, self.language, **fields)

    def text(self, entry: object, name: str) -> str:
        """A knowledge entry's text `name` in this language: its `fr` text, else English (noted once)."""
        english = getattr(entry, name, "") or ""
        if self.language != "fr" or not english:
            return english
        french = (getattr(entry, "fr", None) or {}).get(name)
        if isinstance(french, str) and french.strip():
            return french.strip()
        self.untranslated = True
        return english

    def finish(self, text: str) -> str:
        """The reply text, with one line saying some of it is only in English (when it is)."""
        if self.untranslated and self.language == "fr":
            return f"{text}\n{say('only_in_english', 'fr')}"
        return text


ENGLISH = Voice()

_STAFF_SOURCE = re.compile(r"^(\S+) (staff update|update \(province admin\))$")


def source_name(source: str, language: str = "en") -> str:
    """A source as readers see it: a staff update's label ("TDSB staff update", stored in English) in their language."""
    found = _STAFF_SOURCE.match(source) if language != "en" else None
    if found is None:
        return source
    tag = say("source_province_tag", language) if found[1] == "Province-wide" else found[1]
    return say("source_staff" if found[2] == "staff update" else "source_province_admin", language, tag=tag)


def sentences(text: str) -> list[str]:
    """The sentences of a text ("Sept. 30", "8 a.m." and "Lester B. Pearson" do not end one)."""
    return list(_sentences(text))


@lru_cache(maxsize=4096)  # the knowledge's texts, split again and again
def _sentences(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in _SENTENCE_END.split(" ".join(text.split())) if s.strip())


def first_sentence(text: str) -> str:
    parts = sentences(text)
    return parts[0] if parts else ""


def rest_sentences(text: str) -> str:
    return " ".join(sentences(text)[1:])


def shape(lead: str, support: list[str] | tuple[str, ...] = (), source: str = "") -> str:
    """Answer, at most two supporting lines, the source line."""
    lines = [lead, *[s for s in support if s][:MAX_SUPPORT]]
    if source:
        lines.append(source)
    return "\n".join(line for line in lines if line)


SOURCE_LABELS = ("Source: ", "Sources: ", "Source : ", "Sources : ")


def without_source(texts: list[str]) -> tuple[list[str], str]:
    """The texts without their "Source: ..." lines, and those lines (for a later "source?")."""
    if not any("Source" in text for text in texts):
        return texts, ""
    kept, cited = [], []
    for text in texts:
        lines = text.split("\n")
        cited += [line for line in lines if line.startswith(SOURCE_LABELS)]
        kept.append("\n".join(line for line in lines if not line.startswith(SOURCE_LABELS)))
    return kept, "\n".join(dict.fromkeys(cited))


# --------------------------------------------------------------- fixed texts
def help_text(language: str, commands: tuple[str, ...]) -> str:
    """The full help: what to ask (the region's example), then the commands' lines (bot.commands.help_text)."""
    return _help_text(language, commands, _REGION.get())


@lru_cache(maxsize=8)  # the commands and the wording are fixed
def _help_text(language: str, commands: tuple[str, ...], region: Region) -> str:
    return say("help_about", language) + "\n\n" + say("help_commands", language) + "\n" + "\n".join(commands)


def unknown_text(language: str = "en") -> str:
    return say("unknown", language)


def ask_board_text(language: str = "en") -> str:
    return say("ask_board", language)


def welcome(subscribed: bool, language: str = "en") -> str:
    return say("welcome" if subscribed else "welcome_subscribe", language)


def acknowledged(language: str = "en") -> str:
    """One short line for "ok", "k", "d'accord": never the help, never "not sure"."""
    return say("acknowledged", language)


def hello(language: str = "en") -> str:
    """The greeting: the region's example question, and the pack's second example (its first is most often the
    same kind of status question), else config/wording.yaml's hello_example."""
    examples = _EXAMPLES.get().get(language, ())
    if len(examples) > 1:
        example = f"« {examples[1]} »" if language == "fr" else f'"{examples[1]}"'
    else:
        example = say("hello_example", language)
    return say("hello", language, example=example)


def goodbye(language: str = "en") -> str:
    return say("goodbye", language)


def offer(questions: list[str], language: str = "en", *, buttons: bool = False) -> str:
    """'Do you mean: 1. ... 2. ...?' for the questions of the cards offered (with buttons: 'tap one')."""
    listed = "\n".join(f"{n}. {q.rstrip('?').rstrip()}?" for n, q in enumerate(questions, 1))
    return say("offer_buttons" if buttons else "offer", language, listed=listed)


# ------------------------------------------------------------ platform words
_WORDS = {
    # language -> platform -> (whose admins manage a shared chat, the shared chat, a one-to-one chat)
    "en": {"discord": ("server", "channel", "DM"), "": ("group", "group", "private chat")},
    "fr": {"discord": ("serveur", "salon", "message privé"), "": ("groupe", "groupe", "conversation privée")},
}


def _platform_words(platform: str, language: str) -> tuple[str, str, str]:
    words = _WORDS.get(language, _WORDS["en"])
    return words.get(platform, words[""])


def admins_word(platform: str, language: str = "en") -> str:
    """Whose admins manage a shared chat: 'group' (Telegram), 'server' (Discord)."""
    return _platform_words(platform, language)[0]


def group_word(platform: str, language: str = "en") -> str:
    """What a shared chat is called: 'group' (Telegram), 'channel' (a Discord server's channel)."""
    return _platform_words(platform, language)[1]


def private_word(platform: str, language: str = "en") -> str:
    """What a one-to-one chat is called: 'private chat' (Telegram), 'DM' (Discord)."""
    return _platform_words(platform, language)[2]
