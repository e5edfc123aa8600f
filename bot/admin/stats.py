"""What parents asked: /stats (questions per intent per day) and /unanswered (what staff could teach)."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

from bot.admin.changes import Admin
from bot.admin.parsing import compact, number
from bot.admin.permissions import staff_command
from bot.admin.vocabulary import topic_words
from bot.commands import parse
from bot.messages import Incoming
from bot.replies import say
from bot.roles import Rights
from bot.text import normalize

LOW_CONFIDENCE_MARGIN = 0.15  # answered, but within this of the abstain threshold: worth a look


def unanswered(store, today: date, days: int, boards: frozenset[str] | None, low: float,
               top: int = 10) -> list[tuple[int, str]]:
    """(count, question) of the most frequent questions not answered or answered with confidence under `low`,
    deduplicated by normalised text (the first wording seen is shown)."""
    since = (today - timedelta(days=days - 1)).isoformat()
    counts: Counter[str] = Counter()
    shown: dict[str, str] = {}
    for text, _, _, _ in store.questions.rows_since(since, boards, unsure_below=low):  # unknown, or under `low`
        if not text or parse(text) is not None:  # commands are no questions
            continue
        key = normalize(text).rstrip("?!. ")
        if key:
            counts[key] += 1
            shown.setdefault(key, " ".join(text.split()))
    return [(n, shown[key]) for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]]


def _where(boards: frozenset[str] | None, language: str) -> str:
    return " " + say("admin_stats_for", language, boards=", ".join(sorted(boards))) if boards is not None else ""


def stats_text(store, today: date, days: int = 7, top: int = 10, boards: frozenset[str] | None = None,
               low: float = 0.0, language: str = "en") -> str:
    """Questions per intent per day and the most frequent unanswered ones; only `boards` when given."""
    since = (today - timedelta(days=days - 1)).isoformat()
    rows = store.questions.per_day(since, boards)
    lines = [say("admin_stats_per_day", language, where=_where(boards, language), days=days)]
    if not rows:
        lines.append("  " + say("admin_stats_none_yet", language))
    by_day: dict[str, list[str]] = {}
    for day, intent, n in rows:
        by_day.setdefault(day, []).append(f"{topic_words(intent, language)} {n}")
    lines += [f"  {day}: " + ", ".join(parts) for day, parts in by_day.items()]
    lines.append(say("admin_stats_unanswered", language))
    found = unanswered(store, today, days, boards, low, top)
    lines += [f"  {n}x {compact(q, 120)}" for n, q in found] or ["  " + say("admin_stats_none", language)]
    return "\n".join(lines)


@staff_command("stats", "/stats [DAYS] - questions per intent per day and the most frequent unanswered questions")
def stats(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    days = number(argument, 7, 1, 60, "admin_what_days")
    boards = None if rights.province else rights.boards
    return stats_text(admin.store, admin.at(msg).date(), days, boards=boards, language=admin.language(msg))


@staff_command("unanswered", (
    "/unanswered [BOARD] [DAYS] - the questions I could not answer (or barely), most frequent first;\n"
    "  teach me one with /teach"))
def unanswered_command(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    words = argument.split()
    days = 7
    if words and words[-1].isdigit():
        days = number(words.pop(), 7, 1, 60, "admin_what_days")
    if words:
        board = admin.board(words[0], rights, allow_all=False)
        boards = frozenset({board})
    else:
        boards = None if rights.province else rights.boards
    low = admin.settings.matcher.min_confidence + LOW_CONFIDENCE_MARGIN
    found = unanswered(admin.store, admin.at(msg).date(), days, boards, low)
    where = _where(boards, admin.language(msg))
    if not found:
        return admin.say(msg, "admin_unanswered_none", where=where, days=days)
    lines = [admin.say(msg, "admin_unanswered_title", where=where, days=days)]
    lines += [f"{n}x {compact(q, 120)}" for n, q in found]
    lines.append(admin.say(msg, "admin_unanswered_teach"))
    return "\n".join(lines)
