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


def questions_per_hour(store, since: date, boards: frozenset[str] | None, by: str) -> list[tuple[str, str, int]]:
    """(hour "YYYY-MM-DDTHH" on the bot's clock, topic or board, count) of the questions since a day; `by` is
    "intent" or "board"; only `boards` when given (None: every question)."""
    column = {"intent": "intent", "board": "COALESCE(board, '')"}[by]
    scope = "" if boards is None else f" AND board IN ({', '.join('?' * len(boards))})"
    store.flush_questions()
    rows = store.conn.execute(
        f"SELECT substr(at, 1, 13) AS hour, {column}, COUNT(*) FROM question_log WHERE day >= ?{scope} "
        "GROUP BY hour, 2 ORDER BY hour", (since.isoformat(), *sorted(boards or ())))
    return [(hour, key, n) for hour, key, n in rows]
