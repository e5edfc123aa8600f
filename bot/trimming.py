"""The last touches of a reply: what a parent needs on a phone, and nothing more.

A news file's source line is kept back (`Context.cited`) for "source?", except on a day's status and on a
board's own word (a staff update, a taught card); the board's full name is left out when the parent typed
its short name. And one reading of the message: a short one the matcher could not place that names a day is
a status question in a hurry.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.replies import Voice, without_source
from bot.text import normalize

if TYPE_CHECKING:
    from bot.core import Turn
    from knowledge.model import Board
    from knowledge.snapshot import Knowledge

_CITED = frozenset({"school_status"})  # answers that keep their source line: a day's status names its source


def trim(turn: Turn, texts: list[str]) -> list[str]:
    """The reply texts without what adds nothing for this parent; the source lines kept in the context."""
    if _named_by_its_short_name(turn, texts):
        texts = _without_full_name(texts, turn.board, turn.voice)  # "tdsb ...?": the parent knows the name
    kept, cited = without_source(texts)
    if not cited:
        return texts
    turn.context.cited = cited  # "source?" gives it
    taught = turn.card is not None and turn.card.author  # staff's own word: its source says whose
    if turn.full or turn.analysis.intent in _CITED or taught or not _only_news(turn.knowledge, cited):
        return texts
    return kept


_OFF_TOPIC_MARGIN = 0.05
_HURRIED_WORDS = 16  # a message naming a day, not understood, this short: a status question in a hurry


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


def hurried_status(turn: Turn) -> bool:
    """Whether a message the matcher could not place (not one it read as off-topic) names a day in a few words:
    it asks for that day's status ("just saw news, strike monday?? brampton"); a long one may ask anything."""
    analysis = turn.analysis
    return (analysis.intent == "unknown" and analysis.abstained and turn.card is None and not turn.meta.get("choices")
            and analysis.out_of_scope is None and not analysis.command and analysis.date is not None
            and len(turn.question.split()) <= _HURRIED_WORDS
            # the off-topic examples nearly as close as the best intent: "whats for lunch in the cafeteria today"
            and analysis.scores.get("unknown", 0.0) < max(analysis.scores.values(), default=0.0) - _OFF_TOPIC_MARGIN)
