"""One message being answered: the message, what was understood of it and the user's memory.

The core (bot/core.py) makes one :class:`Turn` per question and hands it, with a
:class:`bot.session.Session`, to the modules that answer it. This module imports nothing
from the core, so neither do they.
"""

from __future__ import annotations

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
