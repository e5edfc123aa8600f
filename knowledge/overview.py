"""What the staff web page counts: subscribers per board, questions per board and the latest questions.

Read-only queries over the subscriptions and the question log (the question log's batch is written first,
so a question asked a second ago is counted).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from knowledge.model import ALL_BOARDS


@dataclass(frozen=True, slots=True)
class Asked:
    """One logged question."""

    at: str  # ISO time, the bot's clock
    board: str | None
    text: str
    intent: str
    confidence: float | None


def subscribers_per_board(store) -> dict[str, int]:
    """Active subscribed chats per board ('all' for those subscribed to every board)."""
    rows = store.conn.execute("SELECT board, COUNT(*) FROM subscriptions WHERE active = 1 GROUP BY board")
    return {board: n for board, n in rows}


def questions_per_board(store, day: date) -> dict[str | None, int]:
    """Questions logged on `day` per board (None: no board named or remembered)."""
    store.flush_questions()
    rows = store.conn.execute("SELECT board, COUNT(*) FROM question_log WHERE day = ? GROUP BY board",
                              (day.isoformat(),))
    return {board: n for board, n in rows}


def latest_questions(store, board: str, limit: int = 20) -> list[Asked]:
    """The latest questions about one board (or, for 'all', about any), newest first."""
    store.flush_questions()
    where, args = ("", ()) if board == ALL_BOARDS else (" WHERE board = ?", (board,))
    rows = store.conn.execute(f"SELECT at, board, text, intent, confidence FROM question_log{where} "
                              "ORDER BY id DESC LIMIT ?", (*args, limit))
    return [Asked(*row) for row in rows]
