"""The audit log read back: /audit in chat (compact) and `schoolbot audit` (a table, or JSON)."""

from __future__ import annotations

import json
from datetime import datetime, tzinfo

from bot.admin.changes import Admin
from bot.admin.parsing import compact, number
from bot.admin.permissions import staff_command
from bot.messages import Incoming
from bot.roles import Rights


def _value(text: str | None) -> object:
    return json.loads(text) if text else None


def _brief(value: object, limit: int) -> str:
    """What an entry was, in a few words: its status, text, role... rather than every field."""
    if value is None:
        return "-"
    if isinstance(value, dict):
        if "broadcast" in value and "recipients" in value:
            return compact(f"#{value['broadcast']} to {value['recipients']}: {value.get('text', '')}", limit)
        if value.get("role") == "province":
            return "province admin"
        if value.get("role") == "staff":
            return "staff for " + ", ".join(value.get("boards") or [])
        for keys in (("status", "summary"), ("workers", "service"), ("day", "text"), ("question", "answer")):
            if all(k in value for k in keys):
                mark = " (withdrawn)" if value.get("retracted") else " (ended)" if value.get("ended") else ""
                return compact(": ".join(str(value[k]) for k in keys), limit - len(mark)) + mark
    return compact(value, limit)


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


def format_audit(row: dict, limit: int = 60) -> str:
    """One line for chat: #id when who what board: before -> after."""
    who = _who(row)
    at = row["at"][:16].replace("T", " ")
    before, after = _brief(_value(row.get("before")), limit), _brief(_value(row.get("after")), limit)
    return f"#{row['id']} {at} {who} {row['action']} {row['target']}: {before} -> {after}"


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
    rows = admin.store.audit_rows(limit * (1 if rights.province else 20))
    if not rights.province:
        mine = (msg.platform, msg.user_id)
        rows = [r for r in rows if r["target"] in rights.boards or (r["platform"], r["user_id"]) == mine]
    rows = rows[:limit]
    if not rows:
        return admin.say(msg, "admin_audit_empty")
    return admin.say(msg, "admin_audit_latest") + "\n" + "\n".join(format_audit(r) for r in rows)
