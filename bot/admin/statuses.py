"""/setstatus as a plan (:class:`bot.admin.plans.StatusPlan`), and what staff changes of knowledge share.

`plan_status` reads the command into the plan, `preview_status` shows it (with the answer parents will
then get), `apply_status` writes it on /confirm with its change record and audit row; /undo retracts the
entry (:mod:`bot.admin.knowledge_changes`).
"""

from __future__ import annotations

import uuid
from datetime import date, datetime

from bot import answers
from bot.admin.changes import Admin, applies
from bot.admin.parsing import (
    FROM_WORDS,
    UNTIL_WORDS,
    InLanguages,
    UsageProblem,
    Words,
    ends_with_colon,
    entry_dict,
    parse_date_phrase,
    rest,
    staff_words,
    tokens,
    word,
)
from bot.admin.permissions import staff_command
from bot.admin.plans import StatusPlan, previews
from bot.admin.vocabulary import shown_statuses, status_choices, status_ids
from bot.broadcast import board_title
from bot.dates import describe_day
from bot.dates.formatting import short_day
from bot.messages import Incoming
from bot.replies import Voice, say
from bot.roles import Rights
from bot.text import normalize
from knowledge.model import ALL_BOARDS, Status
from knowledge.snapshot import Knowledge


def new_id(prefix: str, board: str, at: datetime) -> str:
    return f"staff-{prefix}-{board}-{at:%Y%m%d%H%M%S}-{uuid.uuid4().hex[:4]}"


def board_and_choice(admin: Admin, found: list, rights: Rights, table: dict[str, str], what: str,
                     shown: dict[str, list[str]] | None = None) -> tuple[str, str]:
    """The board named first and the word after it looked up in `table` ("tdsb reduced ..."); `what`: the
    wording key naming what the word should be ("admin_what_status"); `shown`: the words an error names,
    per language (default: every word of the table)."""
    board_id = admin.board(found[0].group(0), rights)
    choice = word(found[1].group(0))
    choice = choice if choice in table else normalize(choice)
    if choice not in table:
        shown = shown or {"en": sorted({k for k in table if "_" not in k})}
        known = InLanguages({language: ", ".join(words) for language, words in shown.items()})
        raise UsageProblem.of("admin_unknown_choice", given=repr(choice), what=Words.maybe(what), known=known)
    return board_id, table[choice]


# ------------------------------------------------------------------ setstatus
@staff_command("setstatus", (
    "/setstatus BOARD STATUS [from DATE] [until DATE]: NOTE\n"
    "  STATUS: open, reduced (open with some services reduced), closures-possible, closed, closed-for-in-person,\n"
    "  remote-learning (closed to students, learning is remote), unknown, or a status of the active pack\n"
    "  DATE: YYYY-MM-DD, today, tomorrow, monday, nov 4 (from defaults to today, until to further notice)\n"
    "  e.g. /setstatus tdsb reduced from monday: Schools open, reduced cleaning"))
def setstatus(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    plan = plan_status(admin, msg, rights, argument)
    return admin.propose(msg, plan, preview_status(plan, admin.language(msg), admin.knowledge()))


def plan_status(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> StatusPlan:
    """The plan a /setstatus argument says ("tdsb closed from monday until friday: NOTE"), checked."""
    argument = staff_words(argument)
    found = tokens(argument)
    if len(found) < 2:
        raise UsageProblem.of("admin_setstatus_what")
    knowledge = admin.knowledge()
    board_id, status = board_and_choice(admin, found, rights, status_choices(knowledge), "admin_what_status",
                                        shown_statuses(knowledge))
    today = admin.at(msg).date()
    start, until, index = today, None, 2
    while index < len(found) and not ends_with_colon(found, index):
        keyword = word(found[index].group(0))
        if normalize(keyword) not in FROM_WORDS | UNTIL_WORDS:
            break
        day = parse_date_phrase(found, index + 1, today)
        if day is None:
            raise UsageProblem.of("admin_unread_date_after", keyword=repr(keyword))
        if normalize(keyword) in FROM_WORDS:
            start = day[0]
        else:
            until = day[0]
        index += 1 + day[1]
    return status_plan(admin, msg, rights, board_id, status, start, until, rest(argument, found, index))


def status_plan(admin: Admin, msg: Incoming, rights: Rights, board_id: str, status: str, start: date,
                until: date | None, note: str) -> StatusPlan:
    """The checked plan of a board's status for days, however it was asked: read from /setstatus's words, or
    from the web page's form (a status id, dates). Refuses a board the person may not manage, a status the
    active packs do not know, a missing or long note and an end before the start."""
    admin.check_rights(rights, board_id)
    knowledge = admin.knowledge()
    if status not in status_ids(knowledge):
        known = InLanguages({language: ", ".join(words) for language, words in shown_statuses(knowledge).items()})
        raise UsageProblem.of("admin_unknown_choice", given=repr(status), what=Words.maybe("admin_what_status"),
                              known=known)
    if not note:
        raise UsageProblem.of("admin_setstatus_note")
    admin.check_length(note, "admin_what_note")
    if until is not None and until < start:
        raise UsageProblem.of("admin_until_before_from", until=_in_words(until), start=_in_words(start))
    before = None if board_id == ALL_BOARDS else entry_dict(knowledge.status_for(board_id, start, msg.time)[0])
    return StatusPlan(admin.author(msg), board_id, admin.at(msg), status, start, until, note,
                      admin.source_label(rights, board_id), admin.store.staff_pack(), before)


def _entry(plan: StatusPlan, at: datetime, source: str, pack: str) -> Status:
    return Status(new_id("status", plan.board, at), plan.board, plan.start, plan.until, plan.status, plan.note, source,
                  at, plan.actor, pack=pack)


@previews("status")
def preview_status(plan: StatusPlan, language: str, knowledge: Knowledge) -> str:
    """The status for its days, its note, and (for one board) what parents asking about the next school day
    will be told once it is applied."""
    today = plan.at.date()
    span = say("admin_span_from", language, day=_span_day(plan.start, today, language)) + " " + (
        say("admin_span_until", language, day=_span_day(plan.until, today, language)) if plan.until
        else say("admin_span_open", language))
    lines = [say("admin_status_preview", language, board=board_title(knowledge, plan.board, language), span=span,
                 status=answers.status_words(plan.status, language, knowledge)),
             say("note", language, text=plan.note)]
    if plan.board != ALL_BOARDS:
        entry = _entry(plan, plan.at, plan.source, plan.pack)
        future = Knowledge(list(knowledge.boards.values()), list(knowledge.sources.values()), knowledge.facts,
                           [*knowledge.statuses, entry], knowledge.services, knowledge.timeline, knowledge.cards,
                           list(knowledge.packs.values()), knowledge.pack_ends, knowledge.regions)
        day = answers.next_school_day(max(plan.start, today))
        lines.append("\n" + say("admin_parents_will_be_told", language, day=describe_day(day, today, language)))
        lines.append(answers.school_status(future, knowledge.board(plan.board), day, today, plan.at,
                                           voice=Voice(language)))
    return "\n".join(lines)


def _span_day(day: date, today: date, lang: str) -> str:
    """"from today, Thursday, October 3"; in French "du jeudi 3 octobre" (no "du aujourd'hui")."""
    words = describe_day(day, today, lang)
    return words.split(", ", 1)[-1] if lang == "fr" else words


def _in_words(day: date) -> InLanguages:
    """A day for an error: as written in English (2019-10-08), in words in French (mar. 8 oct.)."""
    return InLanguages({"en": str(day), "fr": short_day(day, "fr")})


@applies("status")
def apply_status(admin: Admin, msg: Incoming, rights: Rights, plan: StatusPlan, pending_id: int) -> str:
    """Write the planned status as of the confirmation, cited as the confirming person's rights say, with its
    change record and audit row (inside /confirm's transaction)."""
    board_id = plan.board
    admin.check_rights(rights, board_id)
    entry = _entry(plan, admin.at(msg), admin.source_label(rights, board_id), admin.store.staff_pack())
    before = None
    if board_id != ALL_BOARDS:
        own, _ = admin.knowledge().status_for(board_id, entry.start, msg.time)
        before = entry_dict(own)
    admin.store.put_status(entry)
    knowledge = admin.knowledge()
    change = admin.record(msg, "status", entry.id, board_id, lambda language: say(
        "change_status", language, board=board_id, status=answers.status_words(entry.status, language, knowledge),
        start=entry.start if language == "en" else short_day(entry.start, language), summary=entry.summary))
    admin.audit(msg, "setstatus", board_id, before, entry_dict(entry))
    lang = admin.language(msg)
    return admin.say(msg, "admin_status_done", board=admin.board_name(board_id, lang),
                     status=answers.status_words(entry.status, lang, admin.knowledge()), day=short_day(entry.start, lang),
                     when=answers.when_published(admin.at(msg), lang), change=change)
