"""Admin commands: staff updates, broadcasts, audit and statistics, through the same bot.

``register(bot)`` adds the commands to :attr:`bot.core.Bot.commands`. Rules:

* rights come from :mod:`bot.roles` (platform user id only); anyone else gets a
  polite refusal and nothing changes;
* admin commands work only in a private chat with the bot;
* board staff act only on their own boards; "all" needs a province admin;
* every change is previewed first and applied only on ``/confirm``; the
  pending change lives in SQLite (``admin_pending``), so it survives a restart,
  and confirming twice applies it once;
* every applied change is written to the audit table (who, platform, what,
  before, after, when).
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import asdict, replace
from datetime import date, datetime, timedelta

from bot import answers
from bot.dates import describe_day, find_date
from bot.messages import ChatKind, Incoming, Reply
from bot.outbox import UNDELIVERABLE, BroadcastError, Outbox, board_title, broadcast_text, check_broadcast
from bot.roles import PROVINCE, STAFF, Rights, Roles, parse_user
from knowledge.model import ALL_BOARDS, TIMELINE_KINDS, Status, TimelineEvent, WithdrawnService
from knowledge.snapshot import Knowledge

PENDING_TTL = timedelta(minutes=30)

REFUSAL = ("Sorry, that command is only for school board staff and administrators, so I didn't do anything. "
           "You can still ask me anything about the job action; send /help for examples.")
PRIVATE_ONLY = "Admin commands work only in a private chat with me, not in groups. Nothing was changed."

STATUS_WORDS = {
    "open": "open",
    "reduced": "open_reduced_services", "open-reduced": "open_reduced_services",
    "open_reduced": "open_reduced_services", "open_reduced_services": "open_reduced_services",
    "closures-possible": "closures_possible", "closures_possible": "closures_possible",
    "possible-closures": "closures_possible", "undecided-closures": "closures_possible",
    "closed": "closed",
    "unknown": "unknown", "undecided": "unknown", "unconfirmed": "unknown",
}
PHASE_WORDS = {
    "work-to-rule": "work_to_rule", "work_to_rule": "work_to_rule", "wtr": "work_to_rule",
    "full-strike": "full_strike", "full_strike": "full_strike", "strike": "full_strike",
}
EVENT_WORDS = {
    "talks": "bargaining", "bargaining": "bargaining",
    "deal": "deal", "agreement": "deal",
    "called-off": "called_off", "called_off": "called_off", "calledoff": "called_off",
    "strike-notice": "strike_notice", "notice": "strike_notice",
    "strike": "full_strike_start", "full-strike": "full_strike_start",
    "work-to-rule": "work_to_rule_start",
    "strike-vote": "strike_vote", "vote": "strike_vote",
    "other": "other",
}
EVENT_WORDS.update({kind: kind for kind in TIMELINE_KINDS})

USAGE = {
    "setstatus": (
        "/setstatus BOARD STATUS [from DATE] [until DATE]: NOTE\n"
        "  STATUS: open, reduced (open with some services reduced), closures-possible, closed, unknown\n"
        "  DATE: 2019-10-07, today, tomorrow, monday, oct 7 (from defaults to today, until to further notice)\n"
        "  e.g. /setstatus tdsb reduced from monday: Schools open, reduced cleaning"
    ),
    "addservice": (
        "/addservice BOARD [work-to-rule|full-strike] WORKERS: SERVICE\n"
        "  e.g. /addservice tdsb work-to-rule Custodians: no extra cleaning of classrooms"
    ),
    "endservice": "/endservice ID - a withdrawn service is back to normal (/endservice alone lists them)",
    "addevent": (
        "/addevent BOARD|all KIND DATE: TEXT\n"
        "  KIND: talks, deal, called-off, strike-notice, strike, work-to-rule, strike-vote, other\n"
        "  e.g. /addevent all talks friday: CUPE and the province return to the table"
    ),
    "undo": "/undo - take back your latest change (/undo ID for a given change)",
    "broadcast": "/broadcast BOARD|all TEXT - send TEXT to every subscriber of BOARD (after /confirm)",
    "confirm": "/confirm - apply the change or send the broadcast you previewed",
    "cancel": "/cancel - drop the change you previewed",
    "audit": "/audit [N] - the latest N admin actions (default 10)",
    "stats": "/stats [DAYS] - questions per intent per day and the most frequent unanswered questions",
    "deliveries": "/deliveries - recent broadcasts and their delivery counts",
    "grant": (
        "/grant PLATFORM:USER_ID province | BOARD[,BOARD...] - province admins only\n"
        "  e.g. /grant telegram:12345 tdsb,tcdsb (the person sends /whoami to learn their id)"
    ),
    "revoke": "/revoke PLATFORM:USER_ID [BOARD,...] - take back roles granted through the bot",
    "admin": "/admin - this list",
}

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS admin_pending (
        id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        user_id TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        action TEXT NOT NULL,            -- JSON: what /confirm will do
        created TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending',  -- pending | done | cancelled | replaced
        result TEXT,
        done_at TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS idx_admin_pending_user ON admin_pending(platform, user_id, id)",
    """CREATE TABLE IF NOT EXISTS admin_changes (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        platform TEXT NOT NULL,
        user_id TEXT NOT NULL,
        kind TEXT NOT NULL,              -- status | service | endservice | event
        entry_id TEXT NOT NULL,
        board TEXT NOT NULL,
        summary TEXT NOT NULL,
        undone_at TEXT
    )""",
]


class UsageProblem(Exception):
    """The command's words don't fit; the message explains and shows the usage."""


def _tokens(text: str) -> list[re.Match]:
    return list(re.finditer(r"\S+", text))


def _word(token: str) -> str:
    return token.lower().rstrip(":,;.")


def _rest(argument: str, tokens: list[re.Match], index: int) -> str:
    """The text from token `index` on, verbatim but for a leading ':' or '-' separator."""
    if index >= len(tokens):
        return ""
    rest = argument[tokens[index].start():]
    if rest[:1] in (":", "-", "\u2014") and (len(rest) == 1 or rest[1].isspace()):
        rest = rest[1:]
    return rest.strip()


def parse_date_phrase(tokens: list[re.Match], index: int, today: date) -> tuple[date, int] | None:
    """A date made of the next 1-3 tokens ("monday", "oct 7", "the 7th of october"): (day, tokens used)."""
    best = None
    for count in (1, 2, 3, 4):
        if index + count > len(tokens):
            break
        words = [tokens[i].group(0) for i in range(index, index + count)]
        words[-1] = words[-1].rstrip(":,;")
        phrase = " ".join(words)
        found = find_date(phrase, today)
        if found is not None and found.start == 0 and found.end == len(phrase):
            best = (found.day, count)
    return best


def _ends_with_colon(tokens: list[re.Match], index: int) -> bool:
    return index > 0 and tokens[index - 1].group(0).endswith(":")


def _when(moment: datetime) -> str:
    return answers.when_published(moment)


def _compact(value, limit: int = 160) -> str:
    if value is None:
        return "-"
    text = value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _entry_dict(entry) -> dict | None:
    if entry is None:
        return None
    return {k: (v.isoformat() if isinstance(v, (date, datetime)) else v) for k, v in asdict(entry).items()}


class Admin:
    def __init__(self, bot):
        self.bot = bot
        self.store = bot.store
        self.settings = bot.settings
        self.roles = Roles(bot.store, bot.settings)
        self.outbox = Outbox(bot.store, wakeup=bot.wakeup)
        with self.store.lock:
            for statement in _SCHEMA:
                self.store.conn.execute(statement)

    # ----------------------------------------------------------- plumbing
    def handlers(self) -> dict:
        names = ["setstatus", "addservice", "endservice", "addevent", "undo", "broadcast", "confirm", "cancel",
                 "audit", "stats", "deliveries", "grant", "revoke", "admin"]
        return {name: self._wrap(name) for name in names}

    def _wrap(self, name: str):
        method = getattr(self, f"cmd_{name}")

        def handler(bot, msg: Incoming, argument: str) -> list[Reply] | None:
            rights = self.roles.rights_of(msg)
            if not rights.is_admin:
                return [self._reply(msg, REFUSAL)]
            if msg.chat_kind != ChatKind.PRIVATE:
                return [self._reply(msg, PRIVATE_ONLY)]
            if bot.dry_run:  # `schoolbot ask` and evaluations change nothing
                return [self._reply(msg, "Admin commands don't work in a dry run; nothing was changed.")]
            try:
                text = method(msg, rights, argument.strip())
            except _Denied as denied:
                text = str(denied)
            except UsageProblem as problem:
                text = f"{problem}\nUsage: {USAGE[name]}"
            except BroadcastError as problem:
                text = str(problem)
            return [self._reply(msg, text)]

        handler.__name__ = f"admin_{name}"
        return handler

    @staticmethod
    def _reply(msg: Incoming, text: str) -> Reply:
        return Reply(text, msg.chat_id, private=True, meta={"intent": "admin"})

    def _at(self, msg: Incoming) -> datetime:
        """The message's time in the bot's time zone: as-of times read as local time."""
        return msg.time.astimezone(self.bot.tz)

    def knowledge(self) -> Knowledge:
        return self.store.knowledge()

    def _board_and_choice(self, tokens: list, rights: Rights, table: dict[str, str], what: str) -> tuple[str, str]:
        """The board named first and the word after it looked up in `table` ("tdsb reduced ...")."""
        board_id = self._board(tokens[0].group(0), rights)
        word = _word(tokens[1].group(0))
        if word not in table:
            raise UsageProblem(f"{word!r} is not {what} I know.")
        return board_id, table[word]

    def _check_length(self, text: str, what: str) -> None:
        limit = self.settings.limits.status_note_max_chars
        if len(text) > limit:
            raise UsageProblem(f"{what} is {len(text):,} characters long; the limit is {limit:,}. Please shorten it.")

    def _board(self, token: str, rights: Rights, *, allow_all: bool = True) -> str:
        word = _word(token)
        if word == ALL_BOARDS:
            if not allow_all:
                raise UsageProblem("This needs one board, not 'all'.")
            board_id = ALL_BOARDS
        else:
            board = self.knowledge().board(word) or self.bot.boards.lookup(word)
            if board is None:
                raise UsageProblem(f"I don't know a board called {token!r}; use its id, e.g. tdsb or pdsb.")
            board_id = board.id
        if not rights.may_manage(board_id):
            where = "all boards" if board_id == ALL_BOARDS else board_id
            raise _Denied(f"Sorry, you can only act for {', '.join(sorted(rights.boards)) or 'no board'}, "
                          f"not for {where}. Nothing was changed.")
        return board_id

    def board_name(self, board_id: str) -> str:
        return board_title(self.knowledge(), board_id)

    @staticmethod
    def source_label(rights: Rights, board_id: str) -> str:
        tag = "Province-wide" if board_id == ALL_BOARDS else board_id.upper()
        if board_id in rights.boards:
            return f"{tag} staff update"
        return f"{tag} update (province admin)"

    # ------------------------------------------------------------ pending
    def _propose(self, msg: Incoming, action: dict, preview: str) -> str:
        with self.store.lock:
            replaced = self.store.conn.execute(
                "UPDATE admin_pending SET state = 'replaced' WHERE platform = ? AND user_id = ? AND state = 'pending'",
                (msg.platform, msg.user_id),
            ).rowcount
            self.store.conn.execute(
                "INSERT INTO admin_pending (platform, user_id, chat_id, action, created) VALUES (?, ?, ?, ?, ?)",
                (msg.platform, msg.user_id, msg.chat_id, json.dumps(action, ensure_ascii=False), msg.time.isoformat()),
            )
        note = "\n(This replaces the change you previewed before.)" if replaced else ""
        return f"{preview}\n\nSend /confirm to apply it, or /cancel.{note}"

    def _latest_pending(self, msg: Incoming):
        return self.store.conn.execute(
            "SELECT id, action, created, state, result FROM admin_pending WHERE platform = ? AND user_id = ? "
            "ORDER BY id DESC LIMIT 1", (msg.platform, msg.user_id),
        ).fetchone()

    def _close(self, pending_id: int, state: str, result: str | None, at: datetime, conn=None) -> bool:
        conn = conn or self.store.conn
        with self.store.lock:
            return conn.execute(
                "UPDATE admin_pending SET state = ?, result = ?, done_at = ? WHERE id = ? AND state = 'pending'",
                (state, result, at.isoformat(), pending_id),
            ).rowcount == 1

    def cmd_confirm(self, msg: Incoming, rights: Rights, argument: str) -> str:
        row = self._latest_pending(msg)
        if row is None:
            return "There is nothing to confirm. Preview a change first (send /admin for the commands)."
        pending_id, action_json, created, state, result = row
        if state == "done":
            earlier = f" (It was: {result})" if result else ""
            return f"That was already confirmed, so nothing more was done.{earlier}"
        if state != "pending":
            return "There is nothing to confirm: your last preview was cancelled."
        if msg.time - datetime.fromisoformat(created) > PENDING_TTL:
            self._close(pending_id, "cancelled", "expired", msg.time)
            return "That preview is more than 30 minutes old, so I dropped it. Please send the command again."
        action = json.loads(action_json)
        kind = action["kind"]
        if kind == "broadcast":
            return self._send_broadcast(msg, rights, pending_id, action)
        # Claim the confirmation first: a second /confirm finds it done and does nothing.
        if not self._close(pending_id, "done", None, msg.time):
            return "That was already confirmed, so nothing more was done."
        try:
            outcome = getattr(self, f"_apply_{kind}")(msg, rights, action)
        except _Denied as denied:
            self._set_result(pending_id, str(denied))
            return str(denied)
        except Exception:
            with self.store.lock:  # let the user try again
                self.store.conn.execute("UPDATE admin_pending SET state = 'pending' WHERE id = ?", (pending_id,))
            raise
        self._set_result(pending_id, outcome)
        return outcome

    def _set_result(self, pending_id: int, result: str) -> None:
        with self.store.lock:
            self.store.conn.execute("UPDATE admin_pending SET result = ? WHERE id = ?", (result, pending_id))

    def cmd_cancel(self, msg: Incoming, rights: Rights, argument: str) -> str:
        row = self._latest_pending(msg)
        if row is None or row[3] != "pending":
            return "There is nothing to cancel."
        self._close(row[0], "cancelled", None, msg.time)
        return "Cancelled. Nothing was changed."

    def _check_rights(self, rights: Rights, board_id: str) -> None:
        """Rights are checked again at /confirm: a role may have been revoked since the preview."""
        if not rights.may_manage(board_id):
            raise _Denied(f"Sorry, you can no longer act for {board_id}. Nothing was changed.")

    def _record_change(self, msg: Incoming, kind: str, entry_id: str, board: str, summary: str) -> int:
        with self.store.lock:
            return self.store.conn.execute(
                "INSERT INTO admin_changes (at, platform, user_id, kind, entry_id, board, summary) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (self._at(msg).isoformat(), msg.platform, msg.user_id, kind, entry_id, board, summary),
            ).lastrowid

    def _audit(self, msg: Incoming, action: str, target: str, before, after) -> None:
        self.store.audit(msg.platform, msg.user_id, action, target, before, after, at=self._at(msg))

    @staticmethod
    def _new_id(prefix: str, board: str, at: datetime) -> str:
        return f"staff-{prefix}-{board}-{at:%Y%m%d%H%M%S}-{uuid.uuid4().hex[:4]}"

    # --------------------------------------------------------- setstatus
    def cmd_setstatus(self, msg: Incoming, rights: Rights, argument: str) -> str:
        tokens = _tokens(argument)
        if len(tokens) < 2:
            raise UsageProblem("Tell me the board, the status and a note.")
        board_id, status = self._board_and_choice(tokens, rights, STATUS_WORDS, "a status")
        today = self._at(msg).date()
        start, until = today, None
        index = 2
        while index < len(tokens) and not _ends_with_colon(tokens, index):
            word = _word(tokens[index].group(0))
            if word not in ("from", "until", "till", "to", "through", "thru"):
                break
            found = parse_date_phrase(tokens, index + 1, today)
            if found is None:
                raise UsageProblem(f"I couldn't read the date after {word!r}: use 2019-10-07, today, tomorrow, monday or oct 7.")
            if word == "from":
                start = found[0]
            else:
                until = found[0]
            index += 1 + found[1]
        note = _rest(argument, tokens, index)
        if not note:
            raise UsageProblem("Add a short note in plain words for parents, after the dates.")
        self._check_length(note, "The note")
        if until is not None and until < start:
            raise UsageProblem(f"'until' ({until}) is before 'from' ({start}).")
        action = {"kind": "status", "board": board_id, "status": status, "start": start.isoformat(),
                  "until": until.isoformat() if until else None, "note": note}
        entry = self._status_entry(msg, rights, action)
        knowledge = self.knowledge()
        when = f"from {describe_day(start, today)} " + (f"until {describe_day(until, today)}" if until else "until further notice")
        lines = [f"Preview: {self.board_name(board_id)} {when}: {answers.STATUS_WORDS[status]}.", f"Note: {note}"]
        if board_id != ALL_BOARDS:
            board = knowledge.board(board_id)
            future = Knowledge(list(knowledge.boards.values()), list(knowledge.sources.values()), knowledge.facts,
                               [*knowledge.statuses, entry], knowledge.services, knowledge.timeline)
            day = answers.next_school_day(max(start, today))
            lines.append(f"\nParents asking about {describe_day(day, today)} will then be told:")
            lines.append(answers.school_status(future, board, day, today, msg.time))
        return self._propose(msg, action, "\n".join(lines))

    def _status_entry(self, msg: Incoming, rights: Rights, action: dict) -> Status:
        return Status(
            self._new_id("status", action["board"], self._at(msg)), action["board"], date.fromisoformat(action["start"]),
            date.fromisoformat(action["until"]) if action["until"] else None, action["status"], action["note"],
            self.source_label(rights, action["board"]), self._at(msg), f"{msg.platform}:{msg.user_id}",
        )

    def _apply_status(self, msg: Incoming, rights: Rights, action: dict) -> str:
        board_id = action["board"]
        self._check_rights(rights, board_id)
        entry = self._status_entry(msg, rights, action)
        knowledge = self.knowledge()
        before = None
        if board_id != ALL_BOARDS:
            own, _ = knowledge.status_for(board_id, entry.start, msg.time)
            before = _entry_dict(own)
        self.store.put_status(entry)
        change = self._record_change(msg, "status", entry.id, board_id,
                                     f"{board_id} {entry.status} from {entry.start}: {entry.summary}")
        self._audit(msg, "setstatus", board_id, before, _entry_dict(entry))
        return (f"Done: {self.board_name(board_id)} is now {answers.STATUS_WORDS[entry.status]} from "
                f"{entry.start:%a %b} {entry.start.day}. Parents see it now, as of {_when(self._at(msg))} "
                f"(Change #{change}; /undo takes it back.)")

    # ------------------------------------------------------------ services
    def cmd_addservice(self, msg: Incoming, rights: Rights, argument: str) -> str:
        tokens = _tokens(argument)
        if len(tokens) < 2:
            raise UsageProblem("Tell me the board, who stopped it and what stopped.")
        board_id = self._board(tokens[0].group(0), rights)
        index, phase = 1, "work_to_rule"
        if _word(tokens[1].group(0)) in PHASE_WORDS:
            phase = PHASE_WORDS[_word(tokens[1].group(0))]
            index = 2
        rest = _rest(argument, tokens, index)
        workers, sep, service = rest.partition(":")
        if not sep or not workers.strip() or not service.strip():
            raise UsageProblem("Write the workers, a colon, then the service, e.g. 'Custodians: no extra cleaning'.")
        workers, service = workers.strip(), service.strip()
        self._check_length(workers + service, "That")
        action = {"kind": "service", "board": board_id, "phase": phase, "workers": workers, "service": service}
        phase_words = "during work-to-rule" if phase == "work_to_rule" else "in a full strike"
        preview = (f"Preview: add a withdrawn service ({phase_words}), source {self.source_label(rights, board_id)}:\n"
                   f"- {workers}: {service}\nParents asking what stopped will see it in the list.")
        return self._propose(msg, action, preview)

    def _apply_service(self, msg: Incoming, rights: Rights, action: dict) -> str:
        self._check_rights(rights, action["board"])
        entry = WithdrawnService(
            self._new_id("service", action["board"], self._at(msg)), action["workers"], action["service"], action["phase"],
            self.source_label(rights, action["board"]), self._at(msg), None, f"{msg.platform}:{msg.user_id}",
        )
        self.store.put_service(entry)
        change = self._record_change(msg, "service", entry.id, action["board"], f"{entry.workers}: {entry.service}")
        self._audit(msg, "addservice", action["board"], None, _entry_dict(entry))
        return f"Done: added '{entry.workers}: {entry.service}' (id {entry.id}). (Change #{change}; /undo takes it back.)"

    def _service_board(self, service: WithdrawnService) -> str | None:
        """The board whose staff added a service (from its source label), None for loaded ones."""
        tag = service.source.split(" ", 1)[0].lower()
        if service.author and service.source.endswith(("staff update", "(province admin)")):
            return ALL_BOARDS if tag == "province-wide" else tag
        return None

    def cmd_endservice(self, msg: Incoming, rights: Rights, argument: str) -> str:
        knowledge = self.knowledge()
        active = knowledge.services_withdrawn(msg.time)
        if not argument:
            if not active:
                return "No services are listed as withdrawn now."
            lines = ["Withdrawn services now (end one with /endservice ID):"]
            lines += [f"- {s.id}: {s.workers}: {s.service}" for s in active]
            return "\n".join(lines)
        wanted = argument.split()[0]
        service = next((s for s in active if s.id == wanted), None)
        if service is None:
            raise UsageProblem(f"No withdrawn service has the id {wanted!r}; send /endservice to list them.")
        owner = self._service_board(service)
        if not rights.province and (owner is None or owner not in rights.boards):
            raise _Denied("Sorry, only a province admin can end that service (it wasn't added by your board's staff). "
                          "Nothing was changed.")
        action = {"kind": "endservice", "service": service.id, "board": owner or ALL_BOARDS}
        return self._propose(msg, action, f"Preview: mark as back to normal:\n- {service.workers}: {service.service}")

    def _apply_endservice(self, msg: Incoming, rights: Rights, action: dict) -> str:
        service = next((s for s in self.knowledge().services if s.id == action["service"]), None)
        if service is None or service.ended is not None or service.retracted is not None:
            return "That service was already ended or removed; nothing was changed."
        owner = self._service_board(service)
        if not rights.province and (owner is None or owner not in rights.boards):
            raise _Denied("Sorry, you can no longer end that service. Nothing was changed.")
        ended = replace(service, ended=self._at(msg))
        self.store.put_service(ended)
        change = self._record_change(msg, "endservice", service.id, action["board"], f"ended {service.workers}: {service.service}")
        self._audit(msg, "endservice", action["board"], _entry_dict(service), _entry_dict(ended))
        return f"Done: '{service.workers}: {service.service}' is listed as back to normal. (Change #{change}; /undo takes it back.)"

    # --------------------------------------------------------------- events
    def cmd_addevent(self, msg: Incoming, rights: Rights, argument: str) -> str:
        tokens = _tokens(argument)
        if len(tokens) < 4:
            raise UsageProblem("Tell me the board (or all), the kind of event, its date and a short text.")
        board_id, kind = self._board_and_choice(tokens, rights, EVENT_WORDS, "a kind of event")
        today = self._at(msg).date()
        index = 2
        if _word(tokens[index].group(0)) in ("on", "from"):
            index += 1
        found = parse_date_phrase(tokens, index, today)
        if found is None:
            raise UsageProblem("I couldn't read the date: use 2019-10-07, today, tomorrow, monday or oct 7.")
        day, used = found
        text = _rest(argument, tokens, index + used)
        if not text:
            raise UsageProblem("Add a short text describing the event.")
        self._check_length(text, "The text")
        action = {"kind": "event", "board": board_id, "event": kind, "day": day.isoformat(), "text": text}
        preview = (f"Preview: add to the timeline ({kind.replace('_', ' ')}), source {self.source_label(rights, board_id)}:\n"
                   f"- {day:%a %b} {day.day}: {text}")
        return self._propose(msg, action, preview)

    def _apply_event(self, msg: Incoming, rights: Rights, action: dict) -> str:
        self._check_rights(rights, action["board"])
        entry = TimelineEvent(
            self._new_id("event", action["board"], self._at(msg)), action["event"], date.fromisoformat(action["day"]),
            action["text"], self.source_label(rights, action["board"]), self._at(msg), False, f"{msg.platform}:{msg.user_id}",
        )
        self.store.put_event(entry)
        change = self._record_change(msg, "event", entry.id, action["board"], f"{entry.day}: {entry.text}")
        self._audit(msg, "addevent", action["board"], None, _entry_dict(entry))
        return f"Done: added the event on {entry.day:%a %b} {entry.day.day}. (Change #{change}; /undo takes it back.)"

    # ---------------------------------------------------------------- undo
    def _find_entry(self, kind: str, entry_id: str):
        knowledge = self.knowledge()
        pool = {"status": knowledge.statuses, "service": knowledge.services, "endservice": knowledge.services,
                "event": knowledge.timeline}[kind]
        return next((e for e in pool if e.id == entry_id), None)

    def cmd_undo(self, msg: Incoming, rights: Rights, argument: str) -> str:
        query = ("SELECT id, at, platform, user_id, kind, entry_id, board, summary FROM admin_changes "
                 "WHERE undone_at IS NULL")
        if argument:
            wanted = argument.lstrip("#").split()[0]
            if not wanted.isdigit():
                raise UsageProblem(f"{argument!r} is not a change number.")
            row = self.store.conn.execute(query + " AND id = ?", (int(wanted),)).fetchone()
            if row is None:
                return f"There is no change #{wanted} left to undo."
        else:
            row = self.store.conn.execute(
                query + " AND platform = ? AND user_id = ? ORDER BY id DESC LIMIT 1", (msg.platform, msg.user_id)
            ).fetchone()
            if row is None:
                return "You have no changes left to undo."
        # Rights are for boards, not for one's own past changes: someone whose role
        # for a board was revoked can no longer change it, undo included.
        if not rights.may_manage(row[6]):
            raise _Denied(f"Sorry, change #{row[0]} is for {row[6]}, which you can't act for. Nothing was changed.")
        change_id, at, _, _, kind, _entry_id, _board, summary = row
        action = {"kind": "undo", "change": change_id}
        what = "un-end (list as withdrawn again)" if kind == "endservice" else "remove"
        preview = f"Preview: {what} change #{change_id} made {_when(datetime.fromisoformat(at))}:\n{summary}"
        return self._propose(msg, action, preview)

    def _apply_undo(self, msg: Incoming, rights: Rights, action: dict) -> str:
        row = self.store.conn.execute(
            "SELECT kind, entry_id, board, platform, user_id, undone_at FROM admin_changes WHERE id = ?", (action["change"],)
        ).fetchone()
        if row is None or row[5] is not None:
            return "That change was already undone; nothing was changed."
        kind, entry_id, board, *_ = row
        if not rights.may_manage(board):
            raise _Denied("Sorry, you can't undo that change. Nothing was changed.")
        entry = self._find_entry(kind, entry_id)
        if entry is None:
            return "That entry is gone; nothing was changed."
        after = replace(entry, ended=None) if kind == "endservice" else replace(entry, retracted=self._at(msg))
        {"status": self.store.put_status, "service": self.store.put_service, "endservice": self.store.put_service,
         "event": self.store.put_event}[kind](after)
        with self.store.lock:
            self.store.conn.execute("UPDATE admin_changes SET undone_at = ? WHERE id = ?", (self._at(msg).isoformat(), action["change"]))
        self._audit(msg, f"undo {kind}", board, _entry_dict(entry), _entry_dict(after))
        return f"Undone: change #{action['change']}. Parents see the previous information again."

    # ----------------------------------------------------------- broadcast
    def cmd_broadcast(self, msg: Incoming, rights: Rights, argument: str) -> str:
        tokens = _tokens(argument)
        if len(tokens) < 2:
            raise UsageProblem("Tell me the board (or all) and the text.")
        board_id = self._board(tokens[0].group(0), rights)
        body = _rest(argument, tokens, 1)
        check_broadcast(body, self.settings.limits.broadcast_max_chars)
        text = broadcast_text(self.board_name(board_id), self._at(msg), body)
        counts = self.outbox.recipients(board_id)
        total = sum(counts.values())
        if total == 0:
            return f"Nobody is subscribed to updates for {self.board_name(board_id)} yet, so there is no one to send to."
        by_platform = ", ".join(f"{p} {n:,}" for p, n in sorted(counts.items()))
        action = {"kind": "broadcast", "board": board_id, "body": body, "text": text}
        preview = (f"Preview of a broadcast to {total:,} recipient{'s' if total != 1 else ''} ({by_platform}). "
                   f"They will see exactly this:\n-----\n{text}\n-----")
        return self._propose(msg, action, preview)

    def _send_broadcast(self, msg: Incoming, rights: Rights, pending_id: int, action: dict) -> str:
        board_id = action["board"]
        if not rights.may_manage(board_id):
            self._close(pending_id, "cancelled", "rights revoked", msg.time)
            return f"Sorry, you can no longer broadcast to {board_id}. Nothing was sent."
        claimed = {}

        def inside(conn) -> bool:
            claimed["ok"] = conn.execute(
                "UPDATE admin_pending SET state = 'done', done_at = ? WHERE id = ? AND state = 'pending'",
                (msg.time.isoformat(), pending_id),
            ).rowcount == 1
            return claimed["ok"]

        broadcast_id = self.outbox.create(
            board_id, action["body"], action["text"], f"{msg.platform}:{msg.user_id}",
            notify=(msg.platform, msg.chat_id), key=f"pending:{pending_id}", at=self._at(msg),
            audit={"platform": msg.platform, "user_id": msg.user_id, "action": "broadcast"}, inside=inside,
        )
        if broadcast_id is None or not claimed.get("ok", False):
            return "That was already confirmed, so nothing more was sent."
        progress = self.outbox.progress(broadcast_id)
        if progress.total == 0:  # everyone unsubscribed between the preview and now
            self._set_result(pending_id, f"Broadcast #{broadcast_id} had no recipients.")
            return f"Broadcast #{broadcast_id} has no recipients left (they unsubscribed since the preview), so nothing was sent."
        notice = ("I'll message you here with the delivered / failed / blocked counts when it's done. "
                  if msg.platform not in UNDELIVERABLE else "")
        result = (f"Broadcast #{broadcast_id} queued for {progress.total:,} recipients; delivery has started. "
                  f"{notice}/deliveries shows progress.")
        self._set_result(pending_id, f"Broadcast #{broadcast_id} is already queued.")
        return result

    def cmd_deliveries(self, msg: Incoming, rights: Rights, argument: str) -> str:
        rows = [p for p in self.outbox.recent(50) if rights.may_manage(p.board)][:10]
        if not rows:
            return "No broadcasts yet."
        lines = ["Recent broadcasts:"]
        for p in rows:
            bar = progress_bar(p.done_count, p.total, width=10)
            lines.append(f"{bar} {p.line()}")
        return "\n".join(lines)

    # --------------------------------------------------------------- audit
    def cmd_audit(self, msg: Incoming, rights: Rights, argument: str) -> str:
        try:
            limit = max(1, min(50, int(argument or 10)))
        except ValueError:
            raise UsageProblem(f"{argument!r} is not a number.") from None
        rows = self.store.audit_rows(limit * (1 if rights.province else 20))
        if not rights.province:
            rows = [r for r in rows if r["target"] in rights.boards or (r["platform"], r["user_id"]) == (msg.platform, msg.user_id)]
        rows = rows[:limit]
        if not rows:
            return "The audit log is empty."
        return "Latest admin actions:\n" + "\n".join(format_audit(r) for r in rows)

    # --------------------------------------------------------------- stats
    def cmd_stats(self, msg: Incoming, rights: Rights, argument: str) -> str:
        try:
            days = max(1, min(60, int(argument or 7)))
        except ValueError:
            raise UsageProblem(f"{argument!r} is not a number of days.") from None
        boards = None if rights.province else rights.boards
        return stats_text(self.store, self._at(msg).date(), days, boards=boards)

    # --------------------------------------------------------- grant/revoke
    def cmd_grant(self, msg: Incoming, rights: Rights, argument: str) -> str:
        if not rights.province:
            raise _Denied("Sorry, only a province admin can grant roles. Nothing was changed.")
        parts = argument.split(None, 1)
        if len(parts) < 2:
            raise UsageProblem("Tell me who (platform:user_id) and the role.")
        try:
            platform, user_id = parse_user(parts[0])
        except ValueError as exc:
            raise UsageProblem(str(exc)) from None
        what = parts[1].strip().lower()
        if what in ("province", "province-admin", "admin"):
            role, boards = PROVINCE, []
        else:
            words = [w for w in re.split(r"[\s,]+", what) if w and w != "staff"]
            boards = []
            for word in words:
                board = self.knowledge().board(word)
                if board is None:
                    raise UsageProblem(f"I don't know a board with the id {word!r}.")
                boards.append(board.id)
            if not boards:
                raise UsageProblem("Name 'province' or at least one board id.")
            role = STAFF
        action = {"kind": "grant", "platform": platform, "user_id": user_id, "role": role, "boards": boards}
        target = f"{platform}:{user_id}"
        current = self.roles.rights(platform, user_id).describe()
        new = "province admin (all boards)" if role == PROVINCE else "board staff for " + ", ".join(boards)
        return self._propose(msg, action, f"Preview: make {target} {new}. (Now: {current}.)")

    def _apply_grant(self, msg: Incoming, rights: Rights, action: dict) -> str:
        if not rights.province:
            raise _Denied("Sorry, only a province admin can grant roles. Nothing was changed.")
        before = self.roles.grant(action["platform"], action["user_id"], action["role"], action["boards"],
                                  f"{msg.platform}:{msg.user_id}", msg.time)
        target = f"{action['platform']}:{action['user_id']}"
        self._audit(msg, "grant", target, before, self.roles.grant_of(action["platform"], action["user_id"]))
        return f"Done: {target} is now {self.roles.rights(action['platform'], action['user_id']).describe()}."

    def cmd_revoke(self, msg: Incoming, rights: Rights, argument: str) -> str:
        if not rights.province:
            raise _Denied("Sorry, only a province admin can revoke roles. Nothing was changed.")
        parts = argument.split(None, 1)
        if not parts:
            raise UsageProblem("Tell me who (platform:user_id).")
        try:
            platform, user_id = parse_user(parts[0])
        except ValueError as exc:
            raise UsageProblem(str(exc)) from None
        boards = [w for w in re.split(r"[\s,]+", parts[1].lower()) if w] if len(parts) > 1 else []
        target = f"{platform}:{user_id}"
        grant = self.roles.grant_of(platform, user_id)
        configured = self.roles.settings_rights(platform, user_id)
        if grant is None:
            if configured.is_admin:
                return (f"{target} is {configured.describe()} in the settings file; "
                        "remove them there (roles in settings can't be revoked through the bot).")
            return f"{target} has no role granted through the bot; nothing to revoke."
        if boards and grant["role"] != STAFF:
            raise UsageProblem(f"{target} is a province admin, not staff for some boards; "
                               f"/revoke {target} takes the whole role back.")
        action = {"kind": "revoke", "platform": platform, "user_id": user_id, "boards": boards}
        what = f"boards {', '.join(boards)}" if boards else "every role granted through the bot"
        note = f"\n(They keep what the settings file gives them: {configured.describe()}.)" if configured.is_admin else ""
        return self._propose(msg, action, f"Preview: take back {what} from {target}.{note}")

    def _apply_revoke(self, msg: Incoming, rights: Rights, action: dict) -> str:
        if not rights.province:
            raise _Denied("Sorry, only a province admin can revoke roles. Nothing was changed.")
        before = self.roles.revoke(action["platform"], action["user_id"], action["boards"] or None)
        target = f"{action['platform']}:{action['user_id']}"
        self._audit(msg, "revoke", target, before, self.roles.grant_of(action["platform"], action["user_id"]))
        return f"Done: {target} is now {self.roles.rights(action['platform'], action['user_id']).describe()}."

    # ---------------------------------------------------------------- help
    def cmd_admin(self, msg: Incoming, rights: Rights, argument: str) -> str:
        names = ["setstatus", "addservice", "endservice", "addevent", "undo", "broadcast", "confirm", "cancel",
                 "deliveries", "audit", "stats"]
        if rights.province:
            names += ["grant", "revoke"]
        return (f"You are {rights.describe()}. Admin commands (private chat only; each change is previewed "
                "and applied on /confirm):\n" + "\n".join(USAGE[n] for n in names))


class _Denied(UsageProblem):
    """Not allowed for this user: the message is shown as it is, without the usage."""


def progress_bar(done: int, total: int, width: int = 30) -> str:
    filled = width if total == 0 else int(width * done / total)
    return "[" + "#" * filled + "-" * (width - filled) + "]"


def format_audit(row: dict) -> str:
    who = f"{row['platform']}:{row['user_id']}"
    at = row["at"][:16].replace("T", " ")
    before = _compact(json.loads(row["before"])) if row.get("before") else "-"
    after = _compact(json.loads(row["after"])) if row.get("after") else "-"
    return f"#{row['id']} {at} {who} {row['action']} {row['target']}: before {before} -> after {after}"


def stats_text(store, today: date, days: int = 7, top: int = 10, boards: frozenset[str] | None = None) -> str:
    """Questions per intent per day and the most frequent unanswered ones; only `boards` when given."""
    since = (today - timedelta(days=days - 1)).isoformat()
    store.flush_questions()  # the log is written in batches
    scope, args = "", ()
    if boards is not None:  # board staff see their boards' questions, not every parent's
        scope = f" AND board IN ({', '.join('?' * len(boards))})"
        args = tuple(sorted(boards))
    rows = store.conn.execute(
        f"SELECT day, intent, COUNT(*) FROM question_log WHERE day >= ?{scope} GROUP BY day, intent "
        "ORDER BY day, COUNT(*) DESC",
        (since, *args),
    ).fetchall()
    where = f" for {', '.join(sorted(boards))}" if boards is not None else ""
    lines = [f"Questions per intent per day{where} (last {days} days):"]
    if not rows:
        lines.append("  none yet")
    by_day: dict[str, list[str]] = {}
    for day, intent, n in rows:
        by_day.setdefault(day, []).append(f"{intent} {n}")
    for day, parts in by_day.items():
        lines.append(f"  {day}: " + ", ".join(parts))
    unanswered = store.conn.execute(
        f"SELECT lower(trim(text)) AS q, COUNT(*) AS n FROM question_log WHERE day >= ?{scope} "
        "AND intent = 'unknown' AND text NOT LIKE '/%' GROUP BY q ORDER BY n DESC, q LIMIT ?",
        (since, *args, top),
    ).fetchall()
    lines.append("Most frequent questions I could not answer:")
    if not unanswered:
        lines.append("  none")
    lines += [f"  {n}x {_compact(q, 120)}" for q, n in unanswered]
    return "\n".join(lines)


def register(bot) -> None:
    """Add the admin commands to the bot's command table."""
    admin = Admin(bot)
    bot.commands.update(admin.handlers())
