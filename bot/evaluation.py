"""Scoring the bot on labelled questions (the devset format).

Each line: text, now, intent (and optionally user_board, board, date). Also:
- "reply_has": words the reply must contain, each "a|b" for alternatives,
  compared without case or accents;
- "context": earlier messages the same user sent first, in order (the last
  line's text is the one scored);
- "lang": the language of the question (reported per language).

Files of conversations (lines with "turns") are scored by bot.conversation_eval.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.core import Bot
from bot.language import detect
from bot.matcher import INTENTS
from bot.messages import Incoming
from bot.replies import PREVIEW_CHARS
from bot.text import normalize
from knowledge.reading import read_text

PLATFORM = "cli"  # the platform of the users evaluations make up


def alternatives(items: Iterable[object] | None) -> list[list[str]]:
    """Checked words ("a|b": either), each item as its normalised alternatives (no case, no accents)."""
    return [[normalize(a) for a in str(item).split("|") if a.strip()] for item in items or []]


def new_user(bot: Bot, user_id: str, board: str | None) -> None:
    """Make `user_id` a user who set `board` earlier (nothing to do when None)."""
    if board:
        bot.memory.set_user(PLATFORM, user_id, board=board)


@dataclass
class Result:
    text: str
    expected: dict
    intent: str
    board: str | None
    date: str | None
    confidence: float
    reply: str = ""

    def _wanted(self) -> list[list[str]]:
        return alternatives(self.expected.get("reply_has"))

    def has_words(self, limit: int | None = None) -> bool | None:
        """Whether every reply_has item is in the reply (in its first `limit` characters); None: no check."""
        wanted = self._wanted()
        if not wanted:
            return None
        reply = normalize(self.reply[:limit] if limit else self.reply)
        return all(any(a in reply for a in alternatives) for alternatives in wanted)


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

    def _rate(self, limit: int | None = None) -> tuple[float, int]:
        checked = [r.has_words(limit) for r in self.results]
        checked = [c for c in checked if c is not None]
        return (sum(checked) / len(checked) if checked else 0.0), len(checked)

    def reply_words(self) -> tuple[float, int]:
        """Share of the questions with reply_has whose reply has all the words (and how many had them)."""
        return self._rate()

    def up_front(self) -> tuple[float, int]:
        """The same, counting only the first PREVIEW_CHARS characters (what a phone preview shows)."""
        return self._rate(PREVIEW_CHARS)

    def median_length(self) -> float:
        lengths = [len(r.reply) for r in self.results if r.reply]
        import statistics  # only for a whole set: `ask` answers one question through this module

        return statistics.median(lengths) if lengths else 0.0

    def per_language(self) -> dict[str, tuple[float, int]]:
        out = {}
        for lang in sorted({r.expected.get("lang") for r in self.results if r.expected.get("lang")}):
            rows = [r for r in self.results if r.expected.get("lang") == lang]
            out[lang] = (sum(r.intent == r.expected["intent"] for r in rows) / len(rows), len(rows))
        return out

    def replies_in_french(self) -> tuple[float, int]:
        """Share of the French questions ("lang": "fr") whose reply bot.language reads as French (and how many)."""
        rows = [r for r in self.results if r.expected.get("lang") == "fr"]
        if not rows:
            return 0.0, 0
        return sum(detect(r.reply) == "fr" for r in rows) / len(rows), len(rows)

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
        labelled = all("intent" in r.expected for r in self.results)
        lines = [f"questions: {self.total}"]
        if labelled:
            lines += [
                f"intent accuracy: {self.accuracy('intent'):.3f}",
                f"intent macro-F1: {self.macro_f1():.3f}",
                f"board accuracy:  {self.accuracy('board'):.3f}",
                f"date accuracy:   {self.accuracy('date'):.3f}",
            ]
        else:  # a set scored on its replies only (written from the news, without the bot's intents)
            lines.append("(no intents: scored on the replies' words)")
        words, checked = self.reply_words()
        if checked:
            front, _ = self.up_front()
            lines += [
                f"reply words:     {words:.3f} (of {checked} questions with reply_has)",
                f"answer up front: {front:.3f} (reply_has words in the first {PREVIEW_CHARS} characters)",
            ]
        lines.append(f"median reply:    {self.median_length():.0f} characters")
        for lang, (accuracy, n) in self.per_language().items() if labelled else ():
            lines.append(f"intent accuracy [{lang}]: {accuracy:.3f} ({n})")
        french, asked = self.replies_in_french()
        if asked:
            lines.append(f"replies in French [fr]: {french:.3f} (of {asked}, as bot.language reads them)")
        if not labelled:
            return "\n".join(lines + self._missing_words(show_errors))
        lines += ["", "per topic (recall = the topic's accuracy):", f"{'intent':<20} {'prec':>6} {'recall':>6} {'F1':>6} {'n':>5}"]
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
            lines += self._missing_words(show_errors)
        return "\n".join(lines)

    def _missing_words(self, show: int) -> list[str]:
        missing = [r for r in self.results if r.has_words() is False][:show]
        if not missing:
            return []
        return ["", "replies without their words:"] + [
            f"  {r.text!r}: want {r.expected['reply_has']}; got {r.reply[:200]!r}" for r in missing]


def answer_one(bot: Bot, index: int, text: str, now: datetime, board: str | None):
    """Answer one question as a fresh user who set `board` earlier."""
    user_id = f"ask-{index}"
    new_user(bot, user_id, board)
    return bot.respond(Incoming(PLATFORM, user_id, user_id, text, now))


def evaluate(bot: Bot, rows: Iterable[dict]) -> Report:
    report = Report()
    for index, row in enumerate(rows):
        now = datetime.fromisoformat(row["now"])
        earlier = [str(t) for t in row.get("context") or []]
        if earlier:  # the same user's earlier messages, a few seconds apart, before the one scored
            user_id = f"ask-{index}"
            new_user(bot, user_id, row.get("user_board"))
            for step, text in enumerate(earlier):
                at = now - timedelta(seconds=10 * (len(earlier) - step))
                bot.respond(Incoming(PLATFORM, user_id, user_id, text, at))
            response = bot.respond(Incoming(PLATFORM, user_id, user_id, row["text"], now))
        else:
            response = answer_one(bot, index, row["text"], now, row.get("user_board"))
        report.results.append(
            Result(row["text"], row, response.intent, response.board,
                   response.date.isoformat() if response.date else None, response.confidence, response.text)
        )
    return report


def jsonl_lines(path: str):
    """(line number, value) for each non-blank line of a JSONL file; ValueError "file:line: ..." on bad JSON."""
    for number, line in enumerate(read_text(path).splitlines(), 1):  # a regular file under the size limit
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{number}: not valid JSON: {exc}") from None


def read_jsonl(path: str) -> list[dict]:
    rows = []
    for number, row in jsonl_lines(path):
        if not isinstance(row, dict) or "text" not in row or "now" not in row:
            raise ValueError(f"{path}:{number}: needs at least text and now")
        if "intent" not in row and not row.get("reply_has") and "good_answer" not in row:
            raise ValueError(f"{path}:{number}: needs an intent, or reply_has words (a set scored on its replies)")
        if not isinstance(row.get("reply_has", []), list) or not isinstance(row.get("context", []), list):
            raise ValueError(f"{path}:{number}: reply_has and context must be lists")
        try:
            datetime.fromisoformat(str(row["now"]))
        except ValueError:
            raise ValueError(f"{path}:{number}: now: {row['now']!r} is not an ISO 8601 time") from None
        rows.append(row)
    return rows
