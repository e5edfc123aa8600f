"""Scoring the matcher on labelled questions (the devset format)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from bot.core import Bot
from bot.matcher import INTENTS
from bot.messages import Incoming


@dataclass
class Result:
    text: str
    expected: dict
    intent: str
    board: str | None
    date: str | None
    confidence: float


@dataclass
class Report:
    results: list[Result] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.results)

    def accuracy(self, key: str) -> float:
        if not self.results:
            return 0.0
        return sum(getattr(r, key) == r.expected.get(key) for r in self.results) / self.total

    def per_intent(self) -> dict[str, tuple[float, float, float, int]]:
        table = {}
        for intent in INTENTS:
            tp = sum(r.intent == intent and r.expected["intent"] == intent for r in self.results)
            predicted = sum(r.intent == intent for r in self.results)
            support = sum(r.expected["intent"] == intent for r in self.results)
            precision = tp / predicted if predicted else 0.0
            recall = tp / support if support else 0.0
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
            if support or predicted:
                table[intent] = (precision, recall, f1, support)
        return table

    def macro_f1(self) -> float:
        rows = [row for row in self.per_intent().values() if row[3]]
        return sum(row[2] for row in rows) / len(rows) if rows else 0.0

    def confusions(self, top: int = 10) -> list[tuple[tuple[str, str], int]]:
        pairs = Counter((r.expected["intent"], r.intent) for r in self.results if r.intent != r.expected["intent"])
        return pairs.most_common(top)

    def errors(self) -> list[Result]:
        return [r for r in self.results if r.intent != r.expected["intent"] or r.board != r.expected.get("board")
                or r.date != r.expected.get("date")]

    def render(self, show_errors: int = 0) -> str:
        lines = [
            f"questions: {self.total}",
            f"intent accuracy: {self.accuracy('intent'):.3f}",
            f"intent macro-F1: {self.macro_f1():.3f}",
            f"board accuracy:  {self.accuracy('board'):.3f}",
            f"date accuracy:   {self.accuracy('date'):.3f}",
            "",
            f"{'intent':<20} {'prec':>6} {'recall':>6} {'F1':>6} {'n':>5}",
        ]
        for intent, (p, r, f, n) in sorted(self.per_intent().items(), key=lambda kv: kv[1][2]):
            lines.append(f"{intent:<20} {p:6.2f} {r:6.2f} {f:6.2f} {n:5d}")
        confusions = self.confusions()
        if confusions:
            lines += ["", "worst confusions (expected -> got: count):"]
            lines += [f"  {a} -> {b}: {n}" for (a, b), n in confusions]
        if show_errors:
            lines += ["", "errors:"]
            for r in self.errors()[:show_errors]:
                lines.append(
                    f"  {r.text!r}: got {r.intent}/{r.board}/{r.date} ({r.confidence:.2f}), "
                    f"want {r.expected['intent']}/{r.expected.get('board')}/{r.expected.get('date')}"
                )
        return "\n".join(lines)


def answer_one(bot: Bot, index: int, text: str, now: datetime, board: str | None):
    """Answer one question as a fresh user who set `board` earlier."""
    user_id = f"ask-{index}"
    if board:
        bot.memory.set_user("cli", user_id, board=board)
    return bot.respond(Incoming("cli", user_id, user_id, text, now))


def evaluate(bot: Bot, rows: Iterable[dict]) -> Report:
    report = Report()
    for index, row in enumerate(rows):
        now = datetime.fromisoformat(row["now"])
        response = answer_one(bot, index, row["text"], now, row.get("user_board"))
        report.results.append(
            Result(row["text"], row, response.intent, response.board,
                   response.date.isoformat() if response.date else None, response.confidence)
        )
    return report


def read_jsonl(path: str) -> list[dict]:
    rows = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not valid JSON: {exc}") from None
            if not isinstance(row, dict) or "text" not in row or "now" not in row or "intent" not in row:
                raise ValueError(f"{path}:{number}: needs at least text, now and intent")
            rows.append(row)
    return rows
