"""One message being answered (:class:`Turn`) and what answering gives back (:class:`Answer`).

The core (bot/core.py) makes one Turn per question and hands it, with a :class:`bot.session.Session`,
to bot/answering/pipeline.py, which answers it on a copy and returns an Answer; the core reads the
Answer, never the Turn again. This module imports nothing from the core, so answering does not either.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from bot.conversation import Context
from bot.replies import Voice

if TYPE_CHECKING:
    from bot.analysis import Analysis
    from bot.messages import Incoming
    from knowledge.model import Board, Card
    from knowledge.snapshot import Knowledge


@dataclass(slots=True)
class Turn:
    """One message being answered: the message, what was understood and the user's memory."""

    msg: Incoming
    analysis: Analysis
    today: date
    remembered_board: str | None
    knowledge: Knowledge  # one snapshot per message: every answer in a reply agrees
    board: Board | None = None
    day: date | None = None
    context: Context = field(default_factory=Context)
    full: bool = False  # the whole answer ("more", or a question asking for the list)
    card: Card | None = None  # the answer card chosen for this question
    topic: str | None = None  # what the conversation is now about (None: leave it as it was)
    meta: dict = field(default_factory=dict)  # extra Reply.meta (choices offered)
    voice: Voice = field(default_factory=Voice)  # the reply's language
    hour: int = 12  # the local hour it was asked at
    asked: str = ""  # the question as read, when not the message's text ("is she still..." -> "is ea still...")

    @property
    def question(self) -> str:
        return self.asked or self.msg.text or ""


@dataclass(frozen=True, slots=True)
class Answer:
    """The reply texts for a turn and what they turned out to answer: answering may read the message otherwise
    than the matcher did ("2" picks an offered card, "and tcdsb?" asks the last question again for TCDSB)."""

    texts: tuple[str, ...]  # the reply's texts, none empty, the last one finished ("only in English")
    intent: str  # the intent answered
    confidence: float  # how surely the message was read as that intent
    topic: str | None  # what the conversation is now about, when answering says (None: the intent's, if any)
    board: Board | None  # the board answered about
    day: date | None  # the day answered about
    card: Card | None  # the answer card used
    meta: Mapping[str, object]  # extra Reply.meta (the choices offered, the passage used, the age of the news)
    board_named: str | None  # the board the message names, or that a follow-up read into it ("and the catholic one?")
    weekend: bool  # the message, or the question it follows up, asks about the weekend
