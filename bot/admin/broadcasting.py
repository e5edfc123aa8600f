"""/broadcast (previewed, queued in the outbox on /confirm, in the same transaction) and /deliveries."""

from __future__ import annotations

from bot.admin.changes import Admin, applies
from bot.admin.parsing import Denied, UsageProblem, rest, tokens
from bot.admin.permissions import staff_command
from bot.broadcast import UNDELIVERABLE, broadcast_text, check_broadcast
from bot.messages import Incoming
from bot.roles import Rights


def progress_bar(done: int, total: int, width: int = 30) -> str:
    filled = width if total == 0 else int(width * done / total)
    return "[" + "#" * filled + "-" * (width - filled) + "]"


@staff_command("broadcast", "/broadcast BOARD|all TEXT - send TEXT to every subscriber of BOARD (after /confirm)")
def broadcast(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    found = tokens(argument)
    if len(found) < 2:
        raise UsageProblem("Tell me the board (or all) and the text.")
    board_id = admin.board(found[0].group(0), rights)
    body = rest(argument, found, 1)
    check_broadcast(body, admin.settings.limits.broadcast_max_chars)
    text = broadcast_text(admin.board_name(board_id), admin.at(msg), body)
    counts = admin.outbox.recipients(board_id)
    total = sum(counts.values())
    if total == 0:
        return admin.say(msg, "admin_no_subscribers", board=admin.board_name(board_id))
    by_platform = ", ".join(f"{p} {n:,}" for p, n in sorted(counts.items()))
    action = {"kind": "broadcast", "board": board_id, "body": body, "text": text}
    key = "admin_broadcast_preview" if total != 1 else "admin_broadcast_preview_one"
    return admin.propose(msg, action, admin.say(msg, key, total=f"{total:,}", platforms=by_platform, text=text))


@applies("broadcast")
def apply_broadcast(admin: Admin, msg: Incoming, rights: Rights, action: dict, pending_id: int) -> str:
    board_id = action["board"]
    if not rights.may_manage(board_id):
        raise Denied(f"Sorry, you can no longer broadcast to {board_id}. Nothing was sent.")
    broadcast_id = admin.outbox.create(
        board_id, action["body"], action["text"], admin.author(msg),
        notify=(msg.platform, msg.chat_id), key=f"pending:{pending_id}", at=admin.at(msg),
        audit={"platform": msg.platform, "user_id": msg.user_id, "action": "broadcast"},
    )
    progress = admin.outbox.progress(broadcast_id)
    if progress.total == 0:  # everyone unsubscribed between the preview and now
        return f"Broadcast #{broadcast_id} has no recipients left (they unsubscribed since the preview), so nothing was sent."
    notice = admin.say(msg, "admin_broadcast_notice") + " " if msg.platform not in UNDELIVERABLE else ""
    return admin.say(msg, "admin_broadcast_queued", id=broadcast_id, total=f"{progress.total:,}", notice=notice)


@staff_command("deliveries", "/deliveries - recent broadcasts and their delivery counts")
def deliveries(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    rows = [p for p in admin.outbox.recent(50) if rights.may_manage(p.board)][:10]
    if not rows:
        return "No broadcasts yet."
    return "\n".join(["Recent broadcasts:", *(f"{progress_bar(p.done_count, p.total, width=10)} {p.line()}" for p in rows)])
