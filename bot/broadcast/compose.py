"""What a broadcast says: the header naming the board and the time, and the checks on the author's text."""

from __future__ import annotations

from datetime import datetime

from knowledge.model import ALL_BOARDS


class BroadcastError(ValueError):
    """A broadcast that cannot be made (too long, empty, nobody to send to); the message says why."""


def board_title(knowledge, board_id: str) -> str:
    """How a broadcast names its board: "Toronto District School Board (TDSB)"."""
    if board_id == ALL_BOARDS:
        return "all Ontario school boards"
    board = knowledge.board(board_id)
    return f"{board.name} ({board.id.upper()})" if board else board_id


def broadcast_text(board_name: str, at: datetime, body: str) -> str:
    """Exactly what recipients get: a header naming the board and the time, then the text, plain."""
    from bot.answers import when_published

    return (f"Official update for {board_name}, {when_published(at)}:\n\n{body}\n\n"
            "(You get this because you subscribed. Send /unsubscribe to stop.)")


def check_broadcast(body: str, max_chars: int) -> None:
    """Raise BroadcastError with a clear message when the text is empty or too long."""
    if not body or not body.strip():
        raise BroadcastError("The broadcast text is empty. Usage: /broadcast BOARD|all TEXT")
    if len(body) > max_chars:
        raise BroadcastError(
            f"The broadcast text is {len(body):,} characters long; the limit is {max_chars:,} "
            f"([limits] broadcast_max_chars). Please shorten it by {len(body) - max_chars:,} characters. Nothing was sent."
        )
    if "\x00" in body:
        raise BroadcastError("The broadcast text contains a NUL character. Nothing was sent.")
