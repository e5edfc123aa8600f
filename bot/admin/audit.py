"""The audit log read back: /audit in chat (compact) and `schoolbot audit` (a table, or JSON)."""

from __future__ import annotations

import json

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
        for keys in (("status", "summary"), ("workers", "service"), ("day", "text"), ("question", "answer"),
                     ("role", "boards"), ("broadcast", "recipients")):
            if all(k in value for k in keys):
                shown = ": ".join(str(value[k]) for k in keys)
                if value.get("retracted"):
                    shown += " (withdrawn)"
                elif value.get("ended"):
                    shown += " (ended)"
                return compact(shown, limit)
    return compact(value, limit)


def audit_entry(row: dict) -> dict:
    """One audit row as plain data (for --json): both times, who, what, before and after."""
    return {"id": row["id"], "clock_time": row["at"], "real_time": row.get("real_at"), "platform": row["platform"],
            "user_id": row["user_id"], "name": row.get("name"), "action": row["action"], "target": row["target"],
            "before": _value(row.get("before")), "after": _value(row.get("after"))}


def format_audit(row: dict, limit: int = 60) -> str:
    """One line for chat: #id when who what board: before -> after."""
    who = f"{row['platform']}:{row['user_id']}" + (f" ({row['name']})" if row.get("name") else "")
    at = row["at"][:16].replace("T", " ")
    before, after = _brief(_value(row.get("before")), limit), _brief(_value(row.get("after")), limit)
    return f"#{row['id']} {at} {who} {row['action']} {row['target']}: {before} -> {after}"


def audit_table(rows: list[dict], width: int = 40) -> str:
    """A readable table, oldest first: when (the bot's clock, and the real time when they differ), who, what."""
    header = ("#", "when", "real time", "who", "what", "board", "before -> after")
    lines = []
    for row in reversed(rows):
        real = (row.get("real_at") or "")[:16].replace("T", " ")
        at = row["at"][:16].replace("T", " ")
        who = f"{row['platform']}:{row['user_id']}" + (f" ({row['name']})" if row.get("name") else "")
        change = f"{_brief(_value(row.get('before')), width)} -> {_brief(_value(row.get('after')), width)}"
        lines.append((str(row["id"]), at, real if real and real != at else "same", who, row["action"], row["target"],
                      change))
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(header[:-1])]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths) + "  {}"
    return "\n".join(fmt.format(*line) for line in [header, *lines])


@staff_command("audit", "/audit [N] - the latest N admin actions (default 10)")
def audit(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    limit = number(argument, 10, 1, 50, "a number")
    rows = admin.store.audit_rows(limit * (1 if rights.province else 20))
    if not rights.province:
        mine = (msg.platform, msg.user_id)
        rows = [r for r in rows if r["target"] in rights.boards or (r["platform"], r["user_id"]) == mine]
    rows = rows[:limit]
    if not rows:
        return "The audit log is empty."
    return "Latest admin actions (bot's clock time):\n" + "\n".join(format_audit(r) for r in rows)
