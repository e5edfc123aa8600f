"""What a question is about (config/subjects.yaml): the group, service or program it names, and how it asks.

The intent says what kind of answer is wanted (a status, a reason, a list); the subject says who or
what the question is about ("custodians", "the EA", "field trips"). The answering uses it to keep a
reply on the question: an answer that never names the subject asked about is about something else.

Read once per file and kept; every test here is a plain function of normalised text.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bot.settings import KnowledgeSettings
from bot.text import normalize
from knowledge import fields
from knowledge.reading import FileRefused, read_bytes, read_yaml

SUBJECTS_FILE = KnowledgeSettings.subjects  # the setting's default: [knowledge] subjects names another
_LANGS = ("en", "fr")
_WORD = re.compile(r"[a-z0-9]+")
QUESTION_KINDS = ("time", "roster", "definition", "open", "duties", "start", "ongoing", "reason", "amount",
                  "duration")
_SECTIONS = ("subjects", "presence", "participation", "children", "another_child", "generic", "question_kinds")


@dataclass(frozen=True, slots=True, eq=False)
class Subject:
    id: str
    words: tuple[str, ...]  # normalised, each a space-separated phrase of plain words
    name: dict[str, str]  # language -> how the bot names it
    where: dict[str, str]  # language -> who to ask (may be empty)

    def named(self, language: str) -> str:
        return self.name.get(language) or self.name["en"]


_LEADING = frozenset({"and", "so", "ok", "but", "then", "well", "et", "pis", "mais", "alors", "ben"})


class Subjects:
    """The subjects of one file, with one pattern each for finding them, presence and participation."""

    def __init__(self, subjects: tuple[Subject, ...], presence: tuple[str, ...], participation: tuple[str, ...],
                 children: frozenset[str], another_child: tuple[str, ...], generic: frozenset[str] = frozenset(),
                 question_kinds: dict[str, tuple[str, ...]] | None = None):
        self.subjects = subjects
        self.presence = presence
        self.participation = participation
        self.children = children
        self.another_child_words = another_child
        self.generic = generic  # content-word stems too general to tie an answer to a question (bot.asked.words_of)
        self.question_kinds = question_kinds or {}
        self._kind_patterns = {kind: _alternation(words) for kind, words in self.question_kinds.items()}
        self._another_pattern = _alternation(another_child)
        self._by_phrase = {w: s for s in reversed(subjects) for w in s.words}  # the file's first subject wins
        self._first_words = frozenset(w.split()[0] for w in self._by_phrase)  # most messages have none: no regex
        self._subject_pattern = _alternation(self._by_phrase)
        self._presence_pattern = _alternation(presence)
        self._participation_pattern = _alternation(participation)
        self.find = lru_cache(maxsize=8192)(self._find)  # parents repeat themselves
        self.asks_for = lru_cache(maxsize=16384)(self._asks_for)  # and the cards' own questions are read again and again

    def __reduce__(self):  # kept prepared between runs: made again from its data
        return Subjects, (self.subjects, self.presence, self.participation, self.children, self.another_child_words,
                          self.generic, self.question_kinds)

    def _find(self, text: str) -> tuple[Subject, ...]:
        """The subjects a text names, in the order it names them (each once): the first is what it asks about."""
        padded = _padded(text)
        if self._first_words.isdisjoint(padded.split()):
            return ()
        found = [self._by_phrase[m.group(1)] for m in self._subject_pattern.finditer(padded)]
        return tuple(dict.fromkeys(found))

    def mentions_apart(self, text: str, asked: tuple[Subject, ...], distance: int) -> bool:
        """Whether a text names an asked subject apart from the others: no other subject within `distance`
        characters of one of its mentions. "custodians, office staff, EAs..." is a roster, not about custodians;
        "custodians no longer clean hallways" is about them."""
        found = [(m.start(), m.end(), self._by_phrase[m.group(1)]) for m in self._subject_pattern.finditer(_padded(text))]
        for start, end, subject in found:
            if subject in asked and not any(other not in asked and s < end + distance and e > start - distance
                                            for s, e, other in found):
                return True
        return False

    def around(self, text: str, asked: tuple[Subject, ...], words: int) -> str | None:
        """The text's plain words around its first mention of an asked subject (`words` on each side), or None."""
        padded = _padded(text)
        for match in self._subject_pattern.finditer(padded):
            if self._by_phrase[match.group(1)] in asked:
                before, after = padded[:match.start()].split(), padded[match.end():].split()
                return " ".join([*before[max(0, len(before) - words):], match.group(1), *after[:words]])
        return None

    def mentions(self, text: str, subject: Subject) -> bool:
        """Whether a text (a reply) names the subject in any of its words."""
        padded = _padded(text)
        return any(f" {w} " in padded for w in subject.words)

    def asks(self, text: str) -> str | None:
        """'presence' when the text asks whether people will be at school ("will the teacher be there?"),
        'participation' when it asks whether they take part ("are teachers on strike?"), else None."""
        padded = _padded(text)
        if self._presence_pattern.search(padded):
            return "presence"
        if self._participation_pattern.search(padded):
            return "participation"
        return None

    def only_children(self, words: list[str]) -> bool:
        """Whether the words only speak of a child ("my other kid", "mon plus vieux"): no question of their own."""
        return all(w in self.children for w in words)

    def _asks_for(self, kind: str, text: str) -> bool:
        """Whether a text asks for that kind of answer (question_kinds: "time", "roster", "definition")."""
        pattern = self._kind_patterns.get(kind)
        return pattern is not None and pattern.search(_padded(text)) is not None

    def opens_with(self, kind: str, text: str) -> bool:
        """Whether a text starts (after "and", "so", "ok"...) with a phrase of that kind ("open": how, why...)."""
        words = _padded(text).split()
        while words and (words[0] in _LEADING or words[:2] in (["what", "about"], ["how", "about"])):
            words = words[2:] if words[0] in ("what", "how") else words[1:]  # "what about teachers, are they...?"
        start = " ".join(words[:3])
        return any(start == p or start.startswith(p + " ") for p in self.question_kinds.get(kind, ()))

    def speaks_of_another_child(self, text: str) -> bool:
        """Whether a text speaks of another child than the one asked about ("my other kid", "mon plus jeune")."""
        return self._another_pattern.search(_padded(text)) is not None


def _alternation(phrases) -> re.Pattern:
    """One pattern finding any of the phrases as whole words in a padded text (longest first)."""
    ordered = sorted(phrases, key=len, reverse=True)
    parts = [re.escape(p[:-2]) + r"(?= $)" if p.endswith(" $") else re.escape(p) + "(?= )" for p in ordered]
    return re.compile(r"(?<= )(" + "|".join(parts) + ")")


def _plain(text: str) -> str:
    return " ".join(_WORD.findall(normalize(text)))


@lru_cache(maxsize=4096)
def _padded(text: str) -> str:
    return f" {_plain(text)} "


def _stripped(value: object) -> str:
    return fields.text(value) and str(value).strip()


_NAMES = fields.mapping_of(_LANGS, _stripped, required=("en",), noun="language")  # language -> text


def _phrases(raw: object) -> tuple[str, ...]:
    """A non-empty list of words or phrases (or a mapping of language -> list: all of them count), normalised.
    A phrase ending in " $" counts only at the end of the message ("is the teacher there")."""
    if isinstance(raw, dict):
        raw = [p for lang, items in raw.items() if lang in _LANGS and isinstance(items, list) for p in items]
    if not isinstance(raw, list) or not raw or not all(isinstance(p, str) and _plain(p) for p in raw):
        raise ValueError("must be a non-empty list of words or phrases")
    return tuple(dict.fromkeys(_plain(p) + (" $" if p.rstrip().endswith(" $") else "") for p in raw))


def load_subjects(path: str | Path = SUBJECTS_FILE) -> Subjects:
    """Read and validate a subjects file; a wrong one raises LoadError naming each entry and problem."""
    path = str(path)
    problems: list[str] = []
    data = fields.sections(read_yaml(path), path, _SECTIONS, "a 'subjects' mapping", problems)
    subjects = []
    for where, ident, body in fields.keyed(data, "subjects", problems, needs="a subject to its words and name"):
        e = fields.Entry(body, where, problems, needs="words and name")
        words, name = e.get("words", _phrases, default=()), e.get("name", _NAMES, default={})
        subjects.append(Subject(ident, words, name, e.get("where", _NAMES, required=False, default={})))
        e.finish()
    top = fields.Entry(data, "", problems)
    presence, participation, children, another, generic = (
        top.get(key, _phrases, default=()) for key in ("presence", "participation", "children", "another_child", "generic"))
    kinds = data.get("question_kinds")
    if not isinstance(kinds, dict) or set(kinds) != set(QUESTION_KINDS):
        problems.append(f"question_kinds: must map each of {', '.join(QUESTION_KINDS)} to a list of words")
        kinds = {}
    kinds_entry = fields.Entry(kinds, "question_kinds", problems)
    question_kinds = {str(k): kinds_entry.get(k, _phrases, default=()) for k in kinds}
    fields.refuse(path, problems)
    from bot.asked import words_of

    stems = frozenset(w for phrase in generic for w in words_of(phrase))
    return Subjects(tuple(subjects), presence, participation, frozenset(w for c in children for w in c.split()), another,
                    stems, question_kinds)


@lru_cache(maxsize=4)
def subjects_from(path: str) -> Subjects:
    """The subjects of a file, read once per process and kept prepared between runs (no YAML read at start-up)."""
    from bot import prepared
    from bot.dates.vocabulary import user_cache_dir

    try:  # the file through the one safe reader (a FIFO or a huge file refused), then load_subjects says why
        key = prepared.digest(b"subjects", read_bytes(path), Path(__file__).read_bytes(), sys.version)
    except (OSError, FileRefused):
        return load_subjects(path)
    return prepared.load_or_build(key, lambda: load_subjects(path), user_cache_dir(), name="subjects")
