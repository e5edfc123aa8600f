"""/broadcast (previewed, queued in the outbox on /confirm, in the same transaction) and /deliveries.

A broadcast may hold both languages: the English text, then ``fr:`` and the French text
(:mod:`bot.broadcast.compose`). Each subscriber gets the text of their language; the
preview shows each text with how many get it, and warns when one language was given
and subscribers of the other will get it.
"""

from __future__ import annotations

from dataclasses import replace

from bot.admin.changes import Admin, applies
from bot.admin.parsing import Denied, UsageProblem, rest, tokens, word
from bot.admin.permissions import staff_command
from bot.admin.plans import Audience, BroadcastPlan, previews
from bot.broadcast import UNDELIVERABLE, Outbox, Progress, compose
from bot.messages import Incoming
from bot.replies import say
from bot.roles import Rights

_OTHER = {"en": "fr", "fr": "en"}


def progress_bar(done: int, total: int, width: int = 30) -> str:
    filled = width if total == 0 else int(width * done / total)
    return "[" + "#" * filled + "-" * (width - filled) + "]"


def plan_broadcast(knowledge, outbox, actor: str, named: str, board_id: str, body: str, at, max_chars: int
                   ) -> BroadcastPlan:
    """The plan of a broadcast of `body` to `board_id` (`named`: as the author wrote the board), with who it
    reaches now. Raises BroadcastError when the text cannot be sent (empty, too long)."""
    made = compose(knowledge, board_id, at, body, max_chars)
    platforms, languages = outbox.audience(board_id)
    return BroadcastPlan(actor, board_id, at, body, made.texts["en"], made.texts["fr"], made.written_in,
                         Audience.of(platforms, languages), named)


@previews("broadcast")
def preview_broadcast(plan: BroadcastPlan, language: str, knowledge=None) -> str:
    """Exactly what recipients will see, per language, with how many get it (chat and `schoolbot broadcast`)."""
    audience = plan.recipients
    total, platforms = f"{audience.total:,}", audience.by_platform()
    texts = {"en": plan.text, "fr": plan.text_fr}
    shown = [lang for lang in ("en", "fr") if audience.speaking(lang) or lang in plan.written_in]
    if len(shown) == 2:
        text = say("admin_broadcast_preview_two", language, total=total, platforms=platforms,
                   english=f"{audience.speaking('en'):,}", french=f"{audience.speaking('fr'):,}",
                   text=texts["en"], text_fr=texts["fr"])
    else:
        key = "admin_broadcast_preview" if audience.total != 1 else "admin_broadcast_preview_one"
        text = say(key, language, total=total, platforms=platforms, text=texts[shown[0]])
    if len(plan.written_in) == 1:
        written = plan.written_in[0]
        others = audience.speaking(_OTHER[written])
        if others:  # they get the one text under a header in their language
            text += "\n" + say(f"admin_broadcast_{'english' if written == 'en' else 'french'}_only", language,
                               count=f"{others:,}", board=plan.named)
    return text


def queue(outbox: Outbox, plan: BroadcastPlan, *, name: str = "", notify: tuple[str, str] | None = None,
          key: str | None = None, language: str = "en") -> int:
    """Apply a broadcast plan: the broadcast, one delivery row per recipient and the audit row, in one
    transaction (joining the caller's). Returns the broadcast's id."""
    with outbox.transaction():
        broadcast_id = outbox.create(plan.board, plan.body, plan.text, plan.actor, notify=notify, key=key, at=plan.at,
                                     text_fr=plan.text_fr, language=language)
        after = {"broadcast": broadcast_id, "board": plan.board, "recipients": outbox.progress(broadcast_id).total,
                 "text": plan.body}
        outbox.store.admin.audit(plan.platform, plan.user_id, "broadcast", plan.board, None, after, at=plan.at,
                                 name=name)
    return broadcast_id


def broadcast_plan(admin: Admin, msg: Incoming, rights: Rights, named: str, body: str) -> BroadcastPlan:
    """The plan of a broadcast from this person to the board `named` (an id or a name parents use, or 'all'),
    checked: Denied for a board that is not theirs, BroadcastError for a text that cannot be sent (chat's
    /broadcast and the web page)."""
    board_id = admin.board(named, rights)
    return plan_broadcast(admin.knowledge(), admin.outbox, admin.author(msg), word(named), board_id, body,
                          admin.at(msg), admin.settings.limits.broadcast_max_chars)


@staff_command("broadcast", "/broadcast BOARD|all TEXT [fr: FRENCH TEXT] - send TEXT to every subscriber of BOARD, "
                            "each in their language (after /confirm)")
def broadcast(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    found = tokens(argument)
    if len(found) < 2:
        raise UsageProblem(admin.say(msg, "admin_broadcast_what"))
    plan = broadcast_plan(admin, msg, rights, found[0].group(0), rest(argument, found, 1))
    if plan.recipients.total == 0:
        return admin.say(msg, "admin_no_subscribers", board=admin.board_name(plan.board, admin.language(msg)))
    return admin.propose(msg, plan, preview_broadcast(plan, admin.language(msg)))


@applies("broadcast")
def apply_broadcast(admin: Admin, msg: Incoming, rights: Rights, plan: BroadcastPlan, pending_id: int) -> str:
    if not rights.may_manage(plan.board):
        raise Denied(admin.say(msg, "admin_broadcast_no_longer", board=plan.board))
    plan = replace(plan, at=admin.at(msg))  # queued and audited when confirmed; its texts are as previewed
    broadcast_id = queue(admin.outbox, plan, name=msg.user_name, notify=(msg.platform, msg.chat_id),
                         key=f"pending:{pending_id}", language=admin.language(msg))
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
