"""/broadcast (previewed, queued in the outbox on /confirm, in the same transaction) and /deliveries.

A broadcast may hold both languages: the English text, then ``fr:`` and the French text
(:mod:`bot.broadcast.compose`). Each subscriber gets the text of their language; the
preview shows each text with how many get it, and warns when one language was given
and subscribers of the other will get it.
"""

from __future__ import annotations

from bot.admin.changes import Admin, applies
from bot.admin.parsing import Denied, UsageProblem, rest, tokens, word
from bot.admin.permissions import staff_command
from bot.broadcast import UNDELIVERABLE, Progress, compose
from bot.messages import Incoming
from bot.roles import Rights

_OTHER = {"en": "fr", "fr": "en"}


def progress_bar(done: int, total: int, width: int = 30) -> str:
    filled = width if total == 0 else int(width * done / total)
    return "[" + "#" * filled + "-" * (width - filled) + "]"


@staff_command("broadcast", "/broadcast BOARD|all TEXT [fr: FRENCH TEXT] - send TEXT to every subscriber of BOARD, "
                            "each in their language (after /confirm)")
def broadcast(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    found = tokens(argument)
    if len(found) < 2:
        raise UsageProblem(admin.say(msg, "admin_broadcast_what"))
    board_id = admin.board(found[0].group(0), rights)
    body = rest(argument, found, 1)
    made = compose(admin.knowledge(), board_id, admin.at(msg), body, admin.settings.limits.broadcast_max_chars)
    counts, languages = admin.outbox.audience(board_id)
    total = sum(counts.values())
    if total == 0:
        return admin.say(msg, "admin_no_subscribers", board=admin.board_name(board_id, admin.language(msg)))
    by_platform = ", ".join(f"{p} {n:,}" for p, n in sorted(counts.items()))
    action = {"kind": "broadcast", "board": board_id, "body": body, "text": made.texts["en"],
              "text_fr": made.texts["fr"]}
    shown = [lang for lang in ("en", "fr") if languages.get(lang) or lang in made.parts]
    if len(shown) == 2:
        preview = admin.say(msg, "admin_broadcast_preview_two", total=f"{total:,}", platforms=by_platform,
                            english=f"{languages.get('en', 0):,}", french=f"{languages.get('fr', 0):,}",
                            text=made.texts["en"], text_fr=made.texts["fr"])
    else:
        key = "admin_broadcast_preview" if total != 1 else "admin_broadcast_preview_one"
        preview = admin.say(msg, key, total=f"{total:,}", platforms=by_platform, text=made.texts[shown[0]])
    if len(made.parts) == 1:
        written = made.written_in[0]
        others = languages.get(_OTHER[written], 0)
        if others:  # they get the one text under a header in their language
            preview += "\n" + admin.say(msg, f"admin_broadcast_{'english' if written == 'en' else 'french'}_only",
                                        count=f"{others:,}", board=word(found[0].group(0)))
    return admin.propose(msg, action, preview)


@applies("broadcast")
def apply_broadcast(admin: Admin, msg: Incoming, rights: Rights, action: dict, pending_id: int) -> str:
    board_id = action["board"]
    if not rights.may_manage(board_id):
        raise Denied(admin.say(msg, "admin_broadcast_no_longer", board=board_id))
    broadcast_id = admin.outbox.create(
        board_id, action["body"], action["text"], admin.author(msg),
        notify=(msg.platform, msg.chat_id), key=f"pending:{pending_id}", at=admin.at(msg),
        audit={"platform": msg.platform, "user_id": msg.user_id, "action": "broadcast"},
        text_fr=action.get("text_fr"), language=admin.language(msg),
    )
    progress = admin.outbox.progress(broadcast_id)
    if progress.total == 0:  # everyone unsubscribed between the preview and now
        return admin.say(msg, "admin_broadcast_nobody_left", id=broadcast_id)
    notice = admin.say(msg, "admin_broadcast_notice") + " " if msg.platform not in UNDELIVERABLE else ""
    key = "admin_broadcast_queued_one" if progress.total == 1 else "admin_broadcast_queued"
    return admin.say(msg, key, id=broadcast_id, total=f"{progress.total:,}", notice=notice)


def _line(admin: Admin, msg: Incoming, p: Progress) -> str:
    return admin.say(msg, "admin_delivery_line", bar=progress_bar(p.done_count, p.total, width=10), id=p.id,
                     board=p.board, state=admin.say(msg, f"admin_delivery_{p.state}"), done=p.done_count,
                     total=p.total, delivered=p.delivered, failed=p.failed, blocked=p.blocked)


@staff_command("deliveries", "/deliveries - recent broadcasts and their delivery counts")
def deliveries(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    rows = [p for p in admin.outbox.recent(50) if rights.may_manage(p.board)][:10]
    if not rows:
        return admin.say(msg, "admin_no_broadcasts")
    return "\n".join([admin.say(msg, "admin_recent_broadcasts"), *(_line(admin, msg, p) for p in rows)])
