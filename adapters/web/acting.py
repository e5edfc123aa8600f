"""Staff actions from the web page, through the very plans, previews, /confirm and /undo of chat.

A form is read into the same plan or pending action a chat command makes (`status_plan`, `card_action`,
`plan_undo` in bot/admin), kept as the person's pending preview (the one /confirm reads: a preview in the
page replaces one in chat, and the other way round), and confirmed with chat's `confirm`: one transaction
with the change record and the audit row, which /undo and the audit page read. The page acts as the
person's platform user id (``telegram:555``), with their rights of the moment; the audit row's name says
it came from the web page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adapters.platforms import private_chat
from adapters.web.auth import Staff
from bot.admin import changes
from bot.admin.changes import Admin
from bot.admin.parsing import Denied, UsageProblem
from bot.admin.plans import Plan, dump, preview
from bot.broadcast import BroadcastError
from bot.messages import ChatKind, Incoming

WEB_NAME = "web page"  # the audit rows' name for changes made here


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an action said: a preview waiting for confirmation (`pending`), a result, or a refusal (`status`:
    403 for a board the person may not manage, 400 for a form that does not make an action, 409 for a
    preview no longer waiting)."""

    text: str
    pending: int | None = None
    status: int = 200

    @property
    def refused(self) -> bool:
        return self.status != 200


def message(admin: Admin, staff: Staff) -> Incoming:
    """The person as chat's staff tools see them: a message in their private chat with the bot (where a
    broadcast's final report goes), from their platform user id, now."""
    session = staff.session
    return Incoming(session.platform, private_chat(session.platform, session.user_id), session.user_id, "",
                    admin.bot.clock(), ChatKind.PRIVATE, user_name=WEB_NAME)


def language(admin: Admin, staff: Staff) -> str:
    return admin.language(message(admin, staff))


def attempt(admin: Admin, staff: Staff, run: Callable[[Incoming], Outcome]) -> Outcome:
    """Run an action; a refusal (no right to that board, a usage problem) comes back as its words."""
    msg = message(admin, staff)
    try:
        return run(msg)
    except Denied as denied:
        return Outcome(denied.said(admin.language(msg)), status=403)
    except (UsageProblem, BroadcastError) as problem:
        return Outcome(problem.said(admin.language(msg)), status=400)


def propose(admin: Admin, msg: Incoming, action: Plan | dict, shown: str) -> Outcome:
    """Keep `action` as the person's pending preview, as chat does, and say which one it is."""
    admin.records.propose(msg.platform, msg.user_id, msg.chat_id, dump(action) if isinstance(action, Plan) else action,
                          msg.time)
    return Outcome(shown, pending=admin.records.latest_pending(msg.platform, msg.user_id)["id"])


def propose_plan(admin: Admin, msg: Incoming, plan: Plan) -> Outcome:
    return propose(admin, msg, plan, preview(plan, admin.language(msg), admin.knowledge()))


def _waiting(admin: Admin, msg: Incoming, pending_id: int) -> bool:
    """Whether the preview shown on the page is still the person's pending one (not done, nor replaced in chat)."""
    pending = admin.records.latest_pending(msg.platform, msg.user_id)
    return pending is not None and pending["id"] == pending_id and pending["state"] == "pending"


NOT_WAITING = ("This preview is no longer waiting: it was confirmed, cancelled or replaced by a newer one (in chat "
               "or here). Nothing was changed now.")


def _if_waiting(admin: Admin, staff: Staff, pending_id: int, step: Callable[..., str]) -> Outcome:
    """Run chat's /confirm or /cancel (`step`) on the preview shown on the page, if it is still the one waiting."""
    def run(msg: Incoming) -> Outcome:
        if not _waiting(admin, msg, pending_id):
            return Outcome(NOT_WAITING, status=409)
        return Outcome(step(admin, msg, staff.rights, ""))
    return attempt(admin, staff, run)


def confirm(admin: Admin, staff: Staff, pending_id: int) -> Outcome:
    return _if_waiting(admin, staff, pending_id, changes.confirm)


def cancel(admin: Admin, staff: Staff, pending_id: int) -> Outcome:
    return _if_waiting(admin, staff, pending_id, changes.cancel)
