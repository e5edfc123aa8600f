"""The audit log read back: /audit in chat (compact) and `schoolbot audit` (a table, or JSON)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, tzinfo

from bot import answers
from bot.admin.changes import Admin, action_words
from bot.admin.parsing import compact, number
from bot.admin.permissions import staff_command
from bot.messages import Incoming
from bot.replies import say
from bot.roles import Rights


def _value(text: str | None) -> object:
    return json.loads(text) if text else None


def _brief(value: object, limit: int, language: str = "en", status_words: Callable[[str], str] | None = None) -> str:
    """What an entry was, in a few words: its status, text, role... rather than every field, in `language`
    (config/wording.yaml; an entry's French texts when it has them). `status_words`: a status id in words
    (None: the id as stored)."""
    if value is None:
        return "-"
    if isinstance(value, dict):
        if "broadcast" in value and "recipients" in value:
            return compact(say("audit_broadcast", language, id=value["broadcast"], recipients=value["recipients"],
                               text=value.get("text", "")), limit)
        if value.get("role") == "province":
            return say("audit_role_province", language)
        if value.get("role") == "staff":
            return say("audit_role_staff", language, boards=", ".join(value.get("boards") or []))
        for keys in (("status", "summary"), ("workers", "service"), ("day", "text"), ("question", "answer")):
            if all(k in value for k in keys):
                mark = (" " + say("audit_withdrawn", language) if value.get("retracted")
                        else " " + say("audit_ended", language) if value.get("ended") else "")
                french = (value.get("fr") or {}) if language == "fr" else {}
                parts = [french.get(k) or value[k] for k in keys]
                if keys[0] == "status" and status_words is not None:
                    parts[0] = status_words(str(value["status"]))
                return compact(_joined(parts, language), limit - len(mark)) + mark
    return compact(value, limit)


def _joined(parts: list, language: str) -> str:
    return (" : " if language == "fr" else ": ").join(str(p) for p in parts)


def audit_entry(row: dict) -> dict:
    """One audit row as plain data (for --json): both times, who, what, before and after."""
    return {"id": row["id"], "clock_time": row["at"], "real_time": row.get("real_at"), "platform": row["platform"],
            "user_id": row["user_id"], "name": row.get("name"), "action": row["action"], "target": row["target"],
            "before": _value(row.get("before")), "after": _value(row.get("after"))}


def _who(row: dict) -> str:
    name = row.get("name")
    return f"{row['platform']}:{row['user_id']}" + (f" ({name})" if name and name != row["user_id"] else "")


def _real_time(row: dict, zone: tzinfo | None = None) -> str:
    """The real time of an action, when it differs from the bot's clock (a --now replay, a test clock),
    in `zone` (the bot's time zone: a replayed clock's fixed offset may not be today's)."""
    if not row.get("real_at"):
        return "-"
    at, real = datetime.fromisoformat(row["at"]), datetime.fromisoformat(row["real_at"])
    if at.tzinfo is not None and abs((at - real).total_seconds()) < 60:
        return "same"
    return real.astimezone(zone or at.tzinfo).isoformat()[:16].replace("T", " ")


def format_audit(row: dict, limit: int = 60, language: str = "en",
                 status_words: Callable[[str], str] | None = None) -> str:
    """One line for chat, in `language`: #id when who what board: before -> after."""
    at = row["at"][:16].replace("T", " ")
    before, after = (_brief(_value(row.get(side)), limit, language, status_words) for side in ("before", "after"))
    return say("audit_line", language, id=row["id"], at=at, who=_who(row), action=action_words(row["action"], language),
               target=row["target"], before=before, after=after)


def before_after(row: dict, limit: int = 60, language: str = "en") -> tuple[str, str]:
    """What an audit row's entry was before and after, in a few words each."""
    before, after = (_brief(_value(row.get(side)), limit, language) for side in ("before", "after"))
    return before, after


def visible_rows(rows: list[dict], rights: Rights) -> list[dict]:
    """The audit rows a person may read: all of them for a province admin; for board staff, their boards' and
    their own (chat's /audit and the web page alike)."""
    if rights.province:
        return rows
    mine = (rights.platform, rights.user_id)
    return [r for r in rows if r["target"] in rights.boards or (r["platform"], r["user_id"]) == mine]


def audit_table(rows: list[dict], width: int = 40, zone: tzinfo | None = None) -> str:
    """A readable table, oldest first: when (the bot's clock, and the real time when they differ), who, what."""
    header = ("#", "when", "real time", "who", "what", "board", "before -> after")
    lines = []
    for row in reversed(rows):
        at = row["at"][:16].replace("T", " ")
        change = f"{_brief(_value(row.get('before')), width)} -> {_brief(_value(row.get('after')), width)}"
        lines.append((str(row["id"]), at, _real_time(row, zone), _who(row), row["action"], row["target"], change))
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(header[:-1])]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths) + "  {}"
    return "\n".join(fmt.format(*line) for line in [header, *lines])


@staff_command("audit", "/audit [N] - the latest N admin actions (default 10)")
def audit(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    limit = number(argument, 10, 1, 50)
    rows = visible_rows(admin.store.audit_rows(limit * (1 if rights.province else 20)), rights)[:limit]
    if not rows:
        return admin.say(msg, "admin_audit_empty")
    language, knowledge = admin.language(msg), admin.knowledge()
    words = None if language == "en" else (lambda status: answers.status_words(status, language, knowledge))
    return admin.say(msg, "admin_audit_latest") + "\n" + "\n".join(format_audit(r, 60, language, words) for r in rows)
