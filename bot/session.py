"""What the answering modules may ask of the bot answering a message, and nothing more.

The core (bot/core.py, :class:`bot.core.Bot`) hands the answering package (bot/answering/) a
:class:`Session` with each :class:`bot.turn.Turn`: the bot's reading aids (subjects, boards, the
answer cards), and the few things an answer changes or reads about the user (their board, their
chat's subscriptions, the pick logged for staff). Answering imports this protocol, never the core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.boards import BoardFinder
    from bot.cards import CardIndex
    from bot.messages import Incoming
    from bot.subjects import Subjects
    from bot.turn import Turn
    from knowledge.model import Card
    from knowledge.snapshot import Knowledge


class Session(Protocol):
    @property
    def dry_run(self) -> bool:
        """Answer, but change nothing (no board remembered, no subscription, no log)."""

    @property
    def subjects(self) -> Subjects:
        """What a question is about (config/subjects.yaml)."""

    @property
    def boards(self) -> BoardFinder:
        """The boards a message names."""

    def card_index(self, knowledge: Knowledge) -> CardIndex:
        """The answer cards of this knowledge snapshot."""

    def remember_board(self, msg: Incoming, board_id: str | None) -> None:
        """Keep the user's board (None: forget it)."""

    def subscribed(self, msg: Incoming) -> bool:
        """Whether the message's chat follows any board."""

    def subscribe(self, msg: Incoming, board_id: str, language: str) -> bool:
        """Subscribe the message's chat to a board (or all); False if it already was."""

    def unsubscribe(self, msg: Incoming, board_id: str | None) -> list[str]:
        """Stop the chat's subscriptions to a board (None: all); the boards stopped."""

    def log_pick(self, turn: Turn, number: int, card: Card) -> None:
        """Record which offered card the user picked, in the question log staff read."""
