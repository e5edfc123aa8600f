"""Scoring the bot on conversations, as parents read them (`schoolbot eval` on a conversation file).

One conversation a line: {"id", "now", "turns"}, optionally "lang" (reported per language) and
"user_board" (the board the parent set before the first turn). Each conversation is one parent in
one private chat, sending its turns in order to the same bot: the first at `now`, each next one
TURN_GAP later. A turn is a string (its text, nothing checked but that the bot answers) or
{"text", "reply_has", "reply_not", "max_chars", "followup"}:

- reply_has: each item ("a|b": either) is in the reply's first UP_FRONT characters;
- reply_not: no item is anywhere in the reply;
- max_chars: the whole reply is at most this long;
- followup: the turn leans on earlier ones (reported apart);
- a turn that checks nothing passes when the bot answers something.

A turn's reply is the bot's replies to it joined with "\\n". Words are compared as
bot.evaluation compares reply_has (bot.text.normalize: no case, no accents).
"""

from __future__ import annotations

import json
import statistics  # not for `ask`: only `schoolbot eval` imports this module
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.core import Bot
from bot.evaluation import PLATFORM, alternatives, jsonl_lines, new_user
from bot.messages import Incoming
from bot.text import normalize
from knowledge.reading import read_text

UP_FRONT = 200  # reply_has words must be in this many first characters (a phone shows the start)
LONG_REPLY = 400  # replies longer than this are counted: a wall of text on a phone
TURN_GAP = timedelta(seconds=10)  # between two turns: the parent reads the reply and types the next
TURN_KEYS = frozenset({"text", "reply_has", "reply_not", "max_chars", "followup"})
CONVERSATION_KEYS = frozenset({"id", "now", "lang", "user_board", "turns"})


# ------------------------------------------------------------------ reading
def file_kind(path: str) -> str:
    """"conversations" when the file's lines have "turns", else "questions"; ValueError when it mixes them.

    Lines that are not JSON objects are left to the reader of the kind, which says what is wrong with them.
    """
    first: dict[bool, int] = {}
    for number, line in enumerate(read_text(path).splitlines(), 1):  # a regular file under the size limit
        try:
            row = json.loads(line) if line.strip() else None
        except json.JSONDecodeError:
            continue
        if not isinstance(row, dict):
            continue
        turns = "turns" in row
        first.setdefault(turns, number)
        if len(first) == 2:
            this, other = ("conversation", "question") if turns else ("question", "conversation")
            raise ValueError(f"{path}:{number}: a {this} line in a file of {other}s (line {first[not turns]}); "
                             "a file holds questions or conversations, not both")
    return "conversations" if first.get(True) else "questions"


def read_conversations(path: str) -> list[dict]:
    """The conversations of a JSONL file, each turn as a dict; ValueError "file:line: problem" when one is wrong."""
    conversations: list[dict] = []
    seen: dict[str, int] = {}
    for number, row in jsonl_lines(path):
        try:
            conversation = _conversation(row)
        except ValueError as exc:
            raise ValueError(f"{path}:{number}: {exc}") from None
        if conversation["id"] in seen:
            raise ValueError(f"{path}:{number}: id {conversation['id']!r} is already on line {seen[conversation['id']]}")
        seen[conversation["id"]] = number
        conversations.append(conversation)
    return conversations


def _conversation(row: object) -> dict:
    if not isinstance(row, dict):
        raise ValueError("a line must be a JSON object")
    missing = [key for key in ("id", "now", "turns") if key not in row]
    if missing:
        raise ValueError(f"a conversation needs id, now and turns (missing: {', '.join(missing)})")
    unknown = sorted(set(row) - CONVERSATION_KEYS)
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r} (a conversation has {', '.join(sorted(CONVERSATION_KEYS))})")
    if not isinstance(row["id"], str) or not row["id"].strip():
        raise ValueError("id must be a non-empty string")
    if not isinstance(row["now"], str):
        raise ValueError("now must be a string, e.g. \"2019-10-03T08:15:00-04:00\"")
    try:
        datetime.fromisoformat(row["now"])
    except ValueError:
        raise ValueError(f"now: {row['now']!r} is not an ISO 8601 time") from None
    for key in ("lang", "user_board"):
        if row.get(key) is not None and not isinstance(row[key], str):
            raise ValueError(f"{key} must be a string")
    if not isinstance(row["turns"], list) or not row["turns"]:
        raise ValueError("turns must be a non-empty list")
    turns = []
    for number, turn in enumerate(row["turns"], 1):
        try:
            turns.append(_turn(turn))
        except ValueError as exc:
            raise ValueError(f"turn {number}: {exc}") from None
    return {**row, "turns": turns}


def _turn(turn: object) -> dict:
    if isinstance(turn, str):  # ../shared/devset/conversations.jsonl: the text alone
        turn = {"text": turn}
    if not isinstance(turn, dict):
        raise ValueError("a turn is a string or an object with a text")
    if not isinstance(turn.get("text"), str) or not turn["text"].strip():
        raise ValueError("no text" if "text" not in turn else "text must be a non-empty string")
    unknown = sorted(set(turn) - TURN_KEYS)
    if unknown:  # a misspelt check would pass silently
        raise ValueError(f"unknown key {unknown[0]!r} (a turn has {', '.join(sorted(TURN_KEYS))})")
    for key in ("reply_has", "reply_not"):
        items = turn.get(key, [])
        if not isinstance(items, list) or not all(isinstance(i, str) and alternatives([i]) != [[]] for i in items):
            raise ValueError(f"{key} must be a list of non-empty strings")
    limit = turn.get("max_chars")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit <= 0):
        raise ValueError("max_chars must be a positive whole number")
    if not isinstance(turn.get("followup", False), bool):
        raise ValueError("followup must be true or false")
    return turn


# ------------------------------------------------------------------ scoring
@dataclass(slots=True)
class TurnResult:
    conversation: str  # its id
    number: int  # 1 for the first turn
    at: datetime
    turn: dict
    reply: str
    lang: str | None = None
    failures: list[str] = field(default_factory=list)  # what failed, one phrase each
    checks: list[str] = field(default_factory=list)  # what was checked (for the transcript)
    has: bool | None = None  # every reply_has item up front; None: no reply_has
    violations: int = 0  # reply_not items found
    over: bool | None = None  # longer than max_chars; None: no max_chars

    @property
    def text(self) -> str:
        return self.turn["text"]

    @property
    def followup(self) -> bool:
        return bool(self.turn.get("followup"))

    @property
    def passed(self) -> bool:
        return not self.failures


@dataclass(slots=True)
class Conversation:
    id: str
    now: datetime
    lang: str | None
    user_board: str | None
    turns: list[TurnResult] = field(default_factory=list)


def score(result: TurnResult) -> TurnResult:
    """Check one turn's reply against its turn; fills in failures and the figures."""
    turn, reply = result.turn, result.reply
    front, whole = normalize(reply[:UP_FRONT]), normalize(reply)
    if turn.get("reply_has"):
        result.checks.append("reply_has")
        for item, words in zip(turn["reply_has"], alternatives(turn["reply_has"]), strict=True):
            if not any(w in front for w in words):
                later = any(w in whole for w in words)
                where = f"only after the first {UP_FRONT} characters" if later else "not in the reply"
                result.failures.append(f"reply_has {item!r}: {where}")
        result.has = not result.failures
    if turn.get("reply_not"):
        result.checks.append("reply_not")
        for item, words in zip(turn["reply_not"], alternatives(turn["reply_not"]), strict=True):
            if any(w in whole for w in words):
                result.violations += 1
                result.failures.append(f"reply_not {item!r}: in the reply")
    if turn.get("max_chars") is not None:
        result.checks.append(f"max_chars {turn['max_chars']}")
        result.over = len(reply) > turn["max_chars"]
        if result.over:
            result.failures.append(f"{len(reply)} characters, over max_chars {turn['max_chars']}")
    if not result.checks:
        result.checks.append("answered (no checks)")
        if not reply.strip():
            result.failures.append("no reply")
    return result


def evaluate_conversations(bot: Bot, conversations: Iterable[dict]) -> ConversationReport:
    """Each conversation as one new user in one private chat, its turns in order, TURN_GAP apart."""
    report = ConversationReport()
    for index, row in enumerate(conversations, 1):
        now = datetime.fromisoformat(row["now"])
        if now.tzinfo is None:  # as `--now` without a zone: the knowledge's time zone
            now = now.replace(tzinfo=bot.tz)
        conversation = Conversation(row["id"], now, row.get("lang"), row.get("user_board"))
        user_id = f"conversation-{index}"
        new_user(bot, user_id, conversation.user_board)
        for number, turn in enumerate(row["turns"], 1):
            at = now + TURN_GAP * (number - 1)
            replies = bot.handle(Incoming(PLATFORM, user_id, user_id, turn["text"], at))
            reply = "\n".join(r.text for r in replies)
            conversation.turns.append(score(TurnResult(conversation.id, number, at, turn, reply, conversation.lang)))
        report.conversations.append(conversation)
    return report


# ------------------------------------------------------------------ the report
def _share(part: int, whole: int, what: str = "", none: str = "none") -> str:
    """"0.750 (3 of 4 what)", or "- (none)" when there is nothing to count."""
    return f"{part / whole:.3f} ({part} of {whole}{what})" if whole else f"- ({none})"


@dataclass
class ConversationReport:
    conversations: list[Conversation] = field(default_factory=list)

    @property
    def turns(self) -> list[TurnResult]:
        return [t for c in self.conversations for t in c.turns]

    def passing(self) -> tuple[float, int]:
        """Share of the turns passing every check (and how many turns)."""
        turns = self.turns
        return (sum(t.passed for t in turns) / len(turns) if turns else 0.0), len(turns)

    def followups(self) -> tuple[float, int]:
        """Share of the follow-up turns passing every check (and how many follow-up turns)."""
        turns = [t for t in self.turns if t.followup]
        return (sum(t.passed for t in turns) / len(turns) if turns else 0.0), len(turns)

    def failures(self) -> list[TurnResult]:
        return [t for t in self.turns if not t.passed]

    def render(self, show_errors: int = 0) -> str:
        turns = self.turns
        whole = [c for c in self.conversations if all(t.passed for t in c.turns)]
        follow = [t for t in turns if t.followup]
        has = [t for t in turns if t.has is not None]
        nots = [t for t in turns if t.turn.get("reply_not")]
        limited = [t for t in turns if t.over is not None]
        lengths = [len(t.reply) for t in turns if t.reply]
        front = f" turns with reply_has; every item in the first {UP_FRONT} characters"
        lines = [
            f"conversations:      {len(self.conversations)} ({len(whole)} with every turn passing)",
            f"turns:              {len(turns)} ({len(follow)} follow-ups)",
            f"turns passing:      {_share(sum(t.passed for t in turns), len(turns))}",
            f"follow-ups passing: {_share(sum(t.passed for t in follow), len(follow), none='no turn is a follow-up')}",
            f"reply_has up front: {_share(sum(bool(t.has) for t in has), len(has), front, 'no turn has reply_has')}",
            f"reply_not violated: {sum(t.violations for t in turns)}"
            f" (in {sum(bool(t.violations) for t in nots)} of {len(nots)} turns with reply_not)",
            f"over max_chars:     {sum(bool(t.over) for t in limited)} (of {len(limited)} turns with max_chars)",
            f"median reply:       {statistics.median(lengths) if lengths else 0:.0f} characters;"
            f" over {LONG_REPLY}: {_share(sum(n > LONG_REPLY for n in lengths), len(turns))}",
        ]
        for lang in sorted({t.lang for t in turns if t.lang}):
            rows = [t for t in turns if t.lang == lang]
            lines.append(f"turns passing [{lang}]: {_share(sum(t.passed for t in rows), len(rows))}")
        failing = self.failures()
        if show_errors and failing:
            lines += ["", f"failing turns (first {min(show_errors, len(failing))} of {len(failing)}):"]
            for t in failing[:show_errors]:
                lines += [
                    f"  {t.conversation} turn {t.number}{' (follow-up)' if t.followup else ''}: {t.text!r}",
                    f"    failed: {'; '.join(t.failures)}",
                    f"    reply:  {t.reply[:UP_FRONT]!r}",
                ]
        return "\n".join(lines)

    def transcript(self) -> str:
        """Every conversation as text to read and grade: the clock, each you>/bot> pair, PASS or FAIL and why."""
        out = []
        for c in self.conversations:
            about = [c.id, f"{c.now:%a %Y-%m-%d %H:%M:%S %z}"]
            about += [f"lang {c.lang}"] if c.lang else []
            about += [f"user_board {c.user_board}"] if c.user_board else []
            out += [f"=== {', '.join(about)}", ""]
            for t in c.turns:
                out.append(f"[{t.number}] {t.at:%H:%M:%S}{'  (follow-up)' if t.followup else ''}")
                out.append("you> " + t.text.replace("\n", "\n     "))
                out.append("bot> " + (t.reply.replace("\n", "\n     ") if t.reply else "(no reply)"))
                verdict = f"PASS: {', '.join(t.checks)}" if t.passed else f"FAIL: {'; '.join(t.failures)}"
                out += [f"{verdict}  [{len(t.reply)} characters]", ""]
        return "\n".join(out).rstrip("\n") + "\n"
