"""Changes with preview, /confirm and /undo, each applied in one transaction with its records.

A command previews a change (:meth:`Admin.propose`); /confirm applies it: the
pending preview is claimed, the change is written, its undo record and its
audit row are added, all in one transaction, so a failure (or a kill) at any
step leaves nothing of it, and a second /confirm finds it done. /undo takes
back the asker's latest change of any kind and says what it undid.

Each kind of change registers how to apply it (:func:`applies`) and how to
take it back (:func:`undoes`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta

from bot.admin.parsing import ALL_WORDS, Denied, UsageProblem, Words, when
from bot.admin.permissions import staff_command
from bot.admin.plans import Plan, dump, load
from bot.broadcast import Outbox, board_title
from bot.messages import Incoming
from bot.replies import say, wording
from bot.roles import Rights, Roles
from bot.wording import LANGUAGES
from knowledge.model import ALL_BOARDS, Board
from knowledge.snapshot import Knowledge

PENDING_TTL = timedelta(minutes=30)

APPLY: dict[str, Callable[..., str]] = {}  # kind -> apply(admin, msg, rights, plan or action, pending id) -> reply
UNDO: dict[str, Callable[..., str]] = {}  # kind -> undo(admin, msg, rights, change) -> what was undone


def applies(kind: str):
    def register(function):
        APPLY[kind] = function
        return function
    return register


def undoes(*kinds: str):
    def register(function):
        for kind in kinds:
            UNDO[kind] = function
        return function
    return register


class Admin:
    """What every staff command works with: the bot, its store, roles and outbox."""

    def __init__(self, bot):
        self.bot = bot
        self.store = bot.store
        self.records = bot.store.admin
        self.settings = bot.settings
        self.roles = Roles(bot.store, bot.settings)
        self.outbox = Outbox(bot.store, wakeup=bot.wakeup)

    def at(self, msg: Incoming) -> datetime:
        """The message's time in the bot's time zone: as-of times read as local time."""
        return msg.time.astimezone(self.bot.tz)

    def knowledge(self) -> Knowledge:
        return self.store.knowledge()

    def board_name(self, board_id: str, language: str = "en") -> str:
        return board_title(self.knowledge(), board_id, language)

    def board(self, token: str, rights: Rights, *, allow_all: bool = True) -> str:
        """The board a word names, if this person may act for it."""
        name = token.lower().rstrip(":,;.")
        if name in ALL_WORDS:
            if not allow_all:
                raise UsageProblem.of("admin_needs_one_board")
            board_id = ALL_BOARDS
        else:
            board = self.board_named(name)
            if board is None:
                raise UsageProblem.of("admin_unknown_board", name=repr(token))
            board_id = board.id
        self.check_rights(rights, board_id)
        return board_id

    def board_named(self, name: str) -> Board | None:
        """The board a staff member means: its id, or any name parents use for it (alias, short name, place,
        a near spelling: "peel", "tdbs"), as every staff command reads a board."""
        return self.knowledge().board(name) or self.bot.boards.lookup(name)

    @staticmethod
    def check_rights(rights: Rights, board_id: str) -> None:
        if not rights.may_manage(board_id):
            raise Denied.of("admin_not_your_board", boards=", ".join(sorted(rights.boards)) or Words("admin_no_board"),
                            where=Words("all_boards") if board_id == ALL_BOARDS else board_id)

    def check_length(self, text: str, what: str) -> None:
        """`what` names the text: a wording key ("admin_what_note": "The note") or, in English only, words."""
        limit = self.settings.limits.status_note_max_chars
        if len(text) > limit:
            raise UsageProblem.of("admin_too_long", what=Words.maybe(what), length=f"{len(text):,}", limit=f"{limit:,}")

    @staticmethod
    def source_label(rights: Rights, board_id: str) -> str:
        tag = "Province-wide" if board_id == ALL_BOARDS else board_id.upper()
        return f"{tag} staff update" if board_id in rights.boards else f"{tag} update (province admin)"

    @staticmethod
    def author(msg: Incoming) -> str:
        return f"{msg.platform}:{msg.user_id}"

    # ------------------------------------------------------------ records
    def language(self, msg: Incoming) -> str:
        """The language this person is answered in (bot.core: chosen, remembered or the platform's)."""
        return self.bot.language_of(msg)

    def say(self, msg: Incoming, key: str, /, **fields: object) -> str:
        return say(key, self.language(msg), **fields)

    def propose(self, msg: Incoming, action: Plan | dict, preview: str) -> str:
        """Keep a previewed action for /confirm (a plan in its stored form) and ask to confirm it."""
        stored = dump(action) if isinstance(action, Plan) else action
        replaced = self.records.propose(msg.platform, msg.user_id, msg.chat_id, stored, msg.time)
        note = "\n" + self.say(msg, "admin_replaces_preview") if replaced else ""
        return f"{preview}\n\n{self.say(msg, 'admin_confirm_or_cancel')}{note}"

    def record(self, msg: Incoming, kind: str, entry_id: str, board: str, summary: Callable[[str], str],
               before=None) -> int:
        """The change record /undo reads (inside the change's transaction); `summary(language)` says what the
        change was, kept in every language so whoever undoes it reads it in theirs."""
        said = json.dumps({language: summary(language) for language in LANGUAGES}, ensure_ascii=False)
        return self.records.record_change(self.at(msg), msg.platform, msg.user_id, kind, entry_id, board, said,
                                          before)

    def summary(self, msg: Incoming, change: dict) -> str:
        """What a recorded change was, in this person's language (a record written before: as it was written)."""
        text = change["summary"] or ""
        try:
            said = json.loads(text) if text.startswith("{") else None
        except ValueError:
            said = None
        if not isinstance(said, dict):
            return text
        return said.get(self.language(msg)) or said.get("en") or text

    def audit(self, msg: Incoming, action: str, target: str, before, after) -> None:
        self.records.audit(msg.platform, msg.user_id, action, target, before, after, at=self.at(msg),
                           name=msg.user_name)


def action_words(action: str, language: str = "en") -> str:
    """An audit action or a change's kind ("setstatus", "undo status") in words: the name itself in English,
    config/wording.yaml's words in French ("statut indiqué", "annulé (statut indiqué)")."""
    undone = action.startswith("undo ")
    name = action.removeprefix("undo ")
    key = "admin_kind_" + name
    words = say(key, language) if key in wording().texts else name
    return say("admin_kind_undo", language, action=words) if undone else words


@staff_command("confirm", "/confirm - apply the change or send the broadcast you previewed")
def confirm(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    pending = admin.records.latest_pending(msg.platform, msg.user_id)
    if pending is None:
        return admin.say(msg, "admin_nothing_to_confirm")
    if pending["state"] == "done":
        earlier = " " + admin.say(msg, "admin_it_was", result=pending["result"]) if pending["result"] else ""
        return admin.say(msg, "admin_already_confirmed") + earlier
    if pending["state"] != "pending":
        return admin.say(msg, "admin_preview_was_cancelled")
    if msg.time - pending["created"] > PENDING_TTL:
        admin.records.close_pending(pending["id"], "cancelled", "expired", msg.time)
        return admin.say(msg, "admin_preview_expired")
    action = load(pending["action"], actor=admin.author(msg), at=admin.at(msg))
    kind = action.kind if isinstance(action, Plan) else action["kind"]
    try:
        with admin.store.transaction():
            # Claimed, applied, recorded and audited together: all or nothing.
            if not admin.records.close_pending(pending["id"], "done", None, msg.time):
                return admin.say(msg, "admin_already_confirmed")
            outcome = APPLY[kind](admin, msg, rights, action, pending["id"])
            admin.records.set_result(pending["id"], outcome)
    except Denied as denied:
        admin.records.close_pending(pending["id"], "cancelled", str(denied), msg.time)
        return denied.said(admin.language(msg))
    return outcome


@staff_command("cancel", "/cancel - drop the change you previewed")
def cancel(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    pending = admin.records.latest_pending(msg.platform, msg.user_id)
    if pending is None or pending["state"] != "pending":
        return admin.say(msg, "admin_nothing_to_cancel")
    admin.records.close_pending(pending["id"], "cancelled", None, msg.time)
    return admin.say(msg, "admin_cancelled")


def may_undo(rights: Rights, change: dict) -> bool:
    if change["kind"] in ("grant", "revoke"):
        return rights.province
    # Rights are for boards, not for one's own past changes: someone whose role
    # for a board was revoked can no longer change it, undo included.
    return rights.may_manage(change["board"])


@staff_command("undo", "/undo - take back your latest change, whatever it was (/undo ID for a given change)")
def undo(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    found = plan_undo(admin, msg, rights, argument)
    return found if isinstance(found, str) else admin.propose(msg, *found)


def plan_undo(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> tuple[dict, str] | str:
    """(the undo action /confirm applies, its preview) for change `argument` (a number; empty: the person's
    latest), or what to say when there is nothing to undo; Denied for a change of another board."""
    if argument:
        wanted = argument.lstrip("#").split()[0]
        if not wanted.isdigit():
            raise UsageProblem.of("admin_not_a", given=repr(argument), what=Words("admin_what_change_number"))
        change = admin.records.change(int(wanted))
        if change is None or change["undone_at"] is not None:
            return admin.say(msg, "admin_no_such_change", number=wanted)
    else:
        change = admin.records.latest_change(msg.platform, msg.user_id)
        if change is None:
            return admin.say(msg, "admin_nothing_to_undo")
    if not may_undo(rights, change):
        raise Denied.of("admin_undo_not_yours", number=change["id"], board=change["board"])
    language = admin.language(msg)
    preview = admin.say(msg, "admin_undo_preview", number=change["id"], kind=action_words(change["kind"], language),
                        when=when(change["at"], language), summary=admin.summary(msg, change))
    return {"kind": "undo", "change": change["id"]}, preview


@applies("undo")
def apply_undo(admin: Admin, msg: Incoming, rights: Rights, action: dict, pending_id: int) -> str:
    change = admin.records.change(action["change"])
    if change is None or change["undone_at"] is not None:
        return admin.say(msg, "admin_undo_already")
    if not may_undo(rights, change):
        raise Denied.of("admin_undo_denied")
    admin.records.mark_undone(change["id"], admin.at(msg))
    what = UNDO[change["kind"]](admin, msg, rights, change)
    return admin.say(msg, "admin_undone", number=change["id"], what=what)
