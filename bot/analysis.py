"""What the matcher understood of one message: its intent and how sure, the board and day it names, and
the words it was compared by (bot/matcher.py makes it; answering reads it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.boards import BoardMention
from bot.dates import DateMention
from bot.intent_data import OutOfScope


@dataclass(slots=True)
class Analysis:
    intent: str
    confidence: float
    board: BoardMention | None = None
    date: DateMention | None = None
    weekend: bool = False
    out_of_scope: OutOfScope | None = None
    command: str | None = None  # "/board" etc. when the message was a command
    argument: str = ""  # the command's argument text
    scores: dict[str, float] = field(default_factory=dict)
    abstained: bool = False
    processed: str = ""
    english: bool = False  # the message itself is clearly English: French examples and phrasings are not compared

    def copy(self) -> Analysis:
        """A copy the caller may change (answering overrules the intent) without changing the cached one."""
        return Analysis(self.intent, self.confidence, self.board, self.date, self.weekend, self.out_of_scope,
                        self.command, self.argument, dict(self.scores), self.abstained, self.processed, self.english)
