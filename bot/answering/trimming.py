"""The last touches of a reply: what a parent needs on a phone, and nothing more.

A news file's source line is kept back (`Context.cited`) for "source?", except on a day's status and on a
board's own word (a staff update, a taught card); the board's full name is left out when the parent typed
its short name. A reply that would not fit a phone's screen loses the full name, or else keeps the first
clause of its supporting lines.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.replies import SOURCE_LABELS, Voice, without_source
from bot.text import normalize

if TYPE_CHECKING:
    from bot.turn import Turn
    from knowledge.model import Board
    from knowledge.snapshot import Knowledge

PHONE_CHARS = 400  # a reply longer than this scrolls on a phone
SHORT_CHARS = 220  # past this, an answer's supporting lines keep their first clause (a day's status excepted)
_CITED = frozenset({"school_status"})  # answers that keep their source line: a day's status names its source


def trim(turn: Turn, texts: list[str]) -> list[str]:
    """The reply texts without what adds nothing for this parent; the source lines kept in the context."""
    if turn.board is not None and _named_by_its_short_name(turn, texts):  # "tdsb ...?": the parent knows the name
        texts = _without_full_name(texts, turn.board, turn.voice)
    if not turn.full and _length(texts) > PHONE_CHARS:
        texts = _to_fit(turn, texts)
    elif not turn.full and _length(texts) > SHORT_CHARS and turn.analysis.intent not in _CITED:
        texts = [_first_clauses(text, turn.board) for text in texts]  # one to three short lines
    kept, cited = without_source(texts)
    if not cited:
        return texts
    turn.context.cited = cited  # "source?" gives it
    taught = turn.card is not None and turn.card.author  # staff's own word: its source says whose
    if turn.full or turn.analysis.intent in _CITED or taught or not _only_news(turn.knowledge, cited):
        return texts
    return kept


def _named_by_its_short_name(turn: Turn, texts: list[str]) -> bool:
    """Whether the message named the board as its short name says it ("tdsb", "peel"), not by a place, in an
    answer giving its full name."""
    mention = turn.analysis.board
    if turn.board is None or mention is None or mention.board_id != turn.board.id or mention.end <= mention.start \
            or not any(turn.board.name in text for text in texts):
        return False
    typed = normalize(turn.question[mention.start:mention.end])
    return bool(typed) and typed in normalize(turn.board.display)


def _without_full_name(texts: list[str], board: Board, voice: Voice) -> list[str]:
    """The texts without the "(TDSB: Toronto District School Board.)" line."""
    line = voice.say("board_full_name", short=board.display, name=board.name)
    return ["\n".join(x for x in text.split("\n") if x != line) for text in texts]


def _length(texts: list[str]) -> int:
    return sum(map(len, texts))


def _to_fit(turn: Turn, texts: list[str]) -> list[str]:
    """A reply past a phone's screen made to fit: without the board's full name (when the message named the
    board) if that is enough, else with its supporting lines cut to their first clause, and then without the
    full name if still too long."""
    named_here = turn.board is not None and turn.analysis.board is not None  # else the name says which board we took
    unnamed = _without_full_name(texts, turn.board, turn.voice) if named_here else texts
    if _length(unnamed) <= PHONE_CHARS:
        return unnamed
    cut = [_first_clauses(text, turn.board) for text in texts]
    if _length(cut) > PHONE_CHARS:  # the pack's note ("Teachers are not part of this job action") goes next
        note = turn.voice.say("pack_note", note="").strip()
        cut = ["\n".join(line for line in text.split("\n") if not line.startswith(note)) for text in cut]
    if _length(cut) <= PHONE_CHARS or not named_here:
        return cut
    return _without_full_name(cut, turn.board, turn.voice)


_CLAUSE = re.compile(r"; (?=\w)|, and (?=the |it |its |they |schools? )")  # "...if talks fail, and the report says"
_CLAUSE_CHARS = 50  # a first clause shorter than this says too little alone
_WHERE_TO_ASK = re.compile(r"(?:check|ask|watch|call|contact|consultez|demandez|vérifiez|verifiez|suivez|appelez)\b",
                           re.IGNORECASE)


def _first_clauses(text: str, board: Board | None = None) -> str:
    """A reply too long for a phone with its supporting lines cut to their first clause ("...may close schools
    but had not decided; it urged parents to..." -> "...had not decided."); the first line and the source
    lines, list items and a line whose later clauses name the parent's board whole."""
    lines = text.split("\n")
    for i, line in enumerate(lines[1:], 1):
        if line.startswith(SOURCE_LABELS) or line.startswith("- "):
            continue  # a source names its date; a list item is one item
        cut = _CLAUSE.search(line, _CLAUSE_CHARS)
        if cut is None:
            continue
        rest = line[cut.end():]
        if board is not None and any(name.lower() in rest.lower() for name in (board.display, board.name)):
            continue  # "...; l'OCDSB offre son programme de jour prolongé": what the parent's board said stays
        if _WHERE_TO_ASK.match(rest):
            continue  # "...; check with your provider and your board": where to ask is the answer's other half
        lines[i] = line[:cut.start()].rstrip(",:") + "."
    return "\n".join(lines)


def _only_news(knowledge: Knowledge, cited: str) -> bool:
    """Whether every source line names news files of a pack: a board's own word (a staff update, a taught card's
    letter) is worth its line, a news file's name is not."""
    news = knowledge.derived.get(_NEWS_FILES)
    if news is None:
        news = knowledge.derived[_NEWS_FILES] = frozenset(s.file for s in knowledge.sources.values() if s.pack)
    for line in cited.split("\n"):
        named = _CITED_NAMES.split(_SOURCE_LABEL.sub("", line), maxsplit=1)[0]
        if any(name.strip() not in news for name in named.split(", ")):
            return False
    return True


_NEWS_FILES = ("news files",)  # the key of a snapshot's set of the packs' news files
_SOURCE_LABEL = re.compile(r"^Sources? ?: ")
_CITED_NAMES = re.compile(r"(?:,|;) (?:as of|au) ")
