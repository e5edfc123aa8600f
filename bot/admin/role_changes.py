"""/grant and /revoke (province admins), their undo, /whoami, and the same changes from the command line."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from bot.admin.changes import Admin, action_words, applies, undoes
from bot.admin.parsing import Denied, UsageProblem
from bot.admin.permissions import PROVINCE, staff_command
from bot.messages import Incoming
from bot.replies import say
from bot.roles import PROVINCE as PROVINCE_ROLE
from bot.roles import STAFF, Rights, parse_user


def _who(text: str) -> tuple[str, str]:
    try:
        return parse_user(text)
    except ValueError:
        raise UsageProblem.of("admin_not_a_user", given=repr(text)) from None


def parse_role(admin: Admin, what: str) -> tuple[str, list[str]]:
    """'province' or board ids ('tdsb,tcdsb', 'staff tdsb') -> (role, boards)."""
    what = what.strip().lower()
    if what in ("province", "province-admin", "admin"):
        return PROVINCE_ROLE, []
    boards = board_ids(admin, re.sub(r"^staff\b", "", what))
    if not boards:
        raise UsageProblem.of("admin_grant_which_role")
    return STAFF, boards


def board_ids(admin: Admin, text: str) -> list[str]:
    """The ids of the boards a text names, in order, once each: ids or the names parents use, separated by
    commas or spaces ('tdsb tcdsb', 'peel, tdbs'); words that do not each name a board are read as one
    name ('york catholic')."""
    boards: list[str] = []
    for part in text.lower().split(","):
        words = part.split()
        if not words:
            continue
        found = [admin.board_named(word) for word in words]
        if not all(found):
            found = [admin.board_named(" ".join(words))]
        if found[0] is None:
            raise UsageProblem.of("admin_unknown_board", name=repr(part.strip()))
        boards += [board.id for board in found if board.id not in boards]
    return boards


@staff_command("grant", (
    "/grant PLATFORM:USER_ID province | BOARD[,BOARD...] - province admins only\n"
    "  e.g. /grant telegram:12345 tdsb,tcdsb (the person sends /whoami to learn their id)"), needs=PROVINCE)
def grant(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    parts = argument.split(None, 1)
    if len(parts) < 2:
        raise UsageProblem.of("admin_grant_what")
    platform, user_id = _who(parts[0])
    role, boards = parse_role(admin, parts[1])
    action = {"kind": "grant", "platform": platform, "user_id": user_id, "role": role, "boards": boards}
    lang = admin.language(msg)
    new = Rights(platform, user_id, role == PROVINCE_ROLE, frozenset(boards)).describe(lang)
    current = admin.roles.rights(platform, user_id).describe(lang)
    return admin.propose(msg, action, admin.say(msg, "admin_grant_preview", who=f"{platform}:{user_id}", new=new,
                                                current=current))


@applies("grant")
def apply_grant(admin: Admin, msg: Incoming, rights: Rights, action: dict, pending_id: int) -> str:
    if not rights.province:
        raise Denied.of("admin_grant_province_only")
    return change_role(admin, msg, action)


@staff_command("revoke", "/revoke PLATFORM:USER_ID [BOARD,...] - take back roles granted through the bot",
               needs=PROVINCE)
def revoke(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    parts = argument.split(None, 1)
    if not parts:
        raise UsageProblem.of("admin_revoke_who")
    platform, user_id = _who(parts[0])
    boards = board_ids(admin, parts[1]) if len(parts) > 1 else []
    lang = admin.language(msg)
    problem = revoke_problem(admin, platform, user_id, boards, lang)
    if problem:
        return problem
    action = {"kind": "revoke", "platform": platform, "user_id": user_id, "boards": boards}
    what = (admin.say(msg, "admin_revoke_boards", boards=", ".join(boards)) if boards
            else admin.say(msg, "admin_revoke_every_role"))
    configured = admin.roles.settings_rights(platform, user_id)
    note = ("\n" + admin.say(msg, "admin_revoke_keeps", rights=configured.describe(lang))) if configured.is_admin else ""
    return admin.propose(msg, action, admin.say(msg, "admin_revoke_preview", what=what, who=f"{platform}:{user_id}")
                         + note)


def revoke_problem(admin: Admin, platform: str, user_id: str, boards: list[str], language: str = "en") -> str | None:
    """Why a revoke would do nothing, in words; None when it would take something back."""
    target = f"{platform}:{user_id}"
    granted = admin.roles.grant_of(platform, user_id)
    if granted is None:
        configured = admin.roles.settings_rights(platform, user_id)
        if configured.is_admin:
            return say("admin_revoke_in_settings", language, who=target, rights=configured.describe(language))
        return say("admin_revoke_nothing", language, who=target)
    if boards and granted["role"] != STAFF:
        raise UsageProblem.of("admin_revoke_whole_role", who=target)
    return None


@applies("revoke")
def apply_revoke(admin: Admin, msg: Incoming, rights: Rights, action: dict, pending_id: int) -> str:
    if not rights.province:
        raise Denied.of("admin_revoke_province_only")
    return change_role(admin, msg, action)


def change_role(admin: Admin, msg: Incoming, action: dict) -> str:
    """Grant or revoke, with its undo record and audit row (the caller holds the transaction)."""
    platform, user_id, kind = action["platform"], action["user_id"], action["kind"]
    target = f"{platform}:{user_id}"
    if kind == "grant":
        before = admin.roles.grant(platform, user_id, action["role"], action["boards"], admin.author(msg), msg.time)
    else:
        before = admin.roles.revoke(platform, user_id, action["boards"] or None)
    after = admin.roles.grant_of(platform, user_id)
    rights = admin.roles.rights(platform, user_id)
    change = admin.record(msg, kind, target, "all", lambda language: say(
        "change_role", language, kind=action_words(kind, language), who=target, rights=rights.describe(language)),
        before=before)
    admin.audit(msg, kind, target, before, after)
    return admin.say(msg, "admin_role_done", who=target, rights=rights.describe(admin.language(msg)), change=change)


@undoes("grant", "revoke")
def undo_role(admin: Admin, msg: Incoming, rights: Rights, change: dict) -> str:
    platform, user_id = change["entry_id"].split(":", 1)
    current = admin.roles.grant_of(platform, user_id)
    admin.roles.restore(platform, user_id, change["before"])
    admin.audit(msg, f"undo {change['kind']}", change["entry_id"], current, change["before"])
    return admin.say(msg, "admin_role_undone", who=change["entry_id"],
                     rights=admin.roles.rights(platform, user_id).describe(admin.language(msg)))


def whoami_text(msg: Incoming, rights: Rights, language: str = "en") -> str:
    """Who the sender is, their role, and exactly how to become an admin."""
    me = f"{msg.platform}:{msg.user_id}"
    fields = {"platform": msg.platform, "user_id": msg.user_id, "me": me}
    if rights.is_admin:
        return say("whoami_staff", language, rights=rights.describe(language), **fields)
    return say("whoami_parent", language, **fields)


@dataclass(frozen=True, slots=True)
class Operator:
    """Someone acting from the command line: audited as cli:<os user>, with province rights."""

    user: str
    at: datetime

    def message(self) -> Incoming:
        return Incoming("cli", self.user, self.user, "", self.at, user_name=self.user)


def role_from_cli(admin: Admin, operator: Operator, kind: str, who: str, what: str = "") -> str:
    """`schoolbot grant/revoke`: the same change as /grant and /revoke, applied at once and audited."""
    platform, user_id = _who(who)
    msg = operator.message()
    if kind == "grant":
        role, boards = parse_role(admin, what)
        action = {"kind": "grant", "platform": platform, "user_id": user_id, "role": role, "boards": boards}
    else:
        boards = board_ids(admin, what)
        problem = revoke_problem(admin, platform, user_id, boards)
        if problem:
            return problem
        action = {"kind": "revoke", "platform": platform, "user_id": user_id, "boards": boards}
    with admin.store.transaction():
        done = change_role(admin, msg, action)
    change = admin.records.latest_change(msg.platform, msg.user_id)
    opposite = "revoke" if kind == "grant" else "grant"
    return done.split(" (Change #")[0] + (f" (Change #{change['id']}: a province admin's /undo {change['id']} in chat "
                                          f"takes it back, or `schoolbot {opposite}`.)")
