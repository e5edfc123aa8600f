"""Staff changes to the knowledge: /setstatus, /addservice, /endservice, /endphase, /addevent, and their undo.

Every change goes into the active pack staff changes go to (the first of `kb use`);
status words and phases are those of the active packs, so a new dispute's own
words work from chat (`kb export PACK` writes them back to the pack's file).
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import date, datetime

from bot import answers
from bot.admin.changes import Admin, applies, undoes
from bot.admin.parsing import (
    EVENT_WORDS,
    FROM_WORDS,
    SHOWN_EVENT_WORDS,
    UNTIL_WORDS,
    Denied,
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
from bot.admin.vocabulary import (
    current_phase,
    event_kind,
    phase_choices,
    phase_name,
    shown_statuses,
    status_choices,
    with_dashes,
)
from bot.dates import describe_day
from bot.dates.formatting import short_day
from bot.messages import Incoming
from bot.replies import Voice, say, source_name
from bot.roles import Rights
from bot.text import normalize
from bot.timeliness import phase_heading
from knowledge.model import ALL_BOARDS, TIMELINE_KINDS, Status, TimelineEvent, WithdrawnService
from knowledge.snapshot import Knowledge


def new_id(prefix: str, board: str, at: datetime) -> str:
    return f"staff-{prefix}-{board}-{at:%Y%m%d%H%M%S}-{uuid.uuid4().hex[:4]}"


def _board_and_choice(admin: Admin, found: list, rights: Rights, table: dict[str, str], what: str,
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


def _source(admin: Admin, msg: Incoming, rights: Rights, board_id: str) -> str:
    """The label a change will be cited with, in the language of the staff member previewing it."""
    return source_name(admin.source_label(rights, board_id), admin.language(msg))


# ------------------------------------------------------------------ setstatus
@staff_command("setstatus", (
    "/setstatus BOARD STATUS [from DATE] [until DATE]: NOTE\n"
    "  STATUS: open, reduced (open with some services reduced), closures-possible, closed, closed-for-in-person,\n"
    "  remote-learning (closed to students, learning is remote), unknown, or a status of the active pack\n"
    "  DATE: YYYY-MM-DD, today, tomorrow, monday, nov 4 (from defaults to today, until to further notice)\n"
    "  e.g. /setstatus tdsb reduced from monday: Schools open, reduced cleaning"))
def setstatus(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    argument = staff_words(argument)
    found = tokens(argument)
    if len(found) < 2:
        raise UsageProblem.of("admin_setstatus_what")
    board_id, status = _board_and_choice(admin, found, rights, status_choices(admin.knowledge()), "admin_what_status",
                                         shown_statuses(admin.knowledge()))
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
    note = rest(argument, found, index)
    if not note:
        raise UsageProblem.of("admin_setstatus_note")
    admin.check_length(note, "admin_what_note")
    if until is not None and until < start:
        raise UsageProblem.of("admin_until_before_from", until=_in_words(until), start=_in_words(start))
    action = {"kind": "status", "board": board_id, "status": status, "start": start.isoformat(),
              "until": until.isoformat() if until else None, "note": note}
    entry = _status_entry(admin, msg, rights, action)
    knowledge = admin.knowledge()
    lang = admin.language(msg)
    span = admin.say(msg, "admin_span_from", day=_span_day(start, today, lang)) + " " + (
        admin.say(msg, "admin_span_until", day=_span_day(until, today, lang)) if until
        else admin.say(msg, "admin_span_open"))
    lines = [admin.say(msg, "admin_status_preview", board=admin.board_name(board_id, lang), span=span,
                       status=answers.status_words(status, lang, knowledge)),
             admin.say(msg, "note", text=note)]
    if board_id != ALL_BOARDS:
        future = Knowledge(list(knowledge.boards.values()), list(knowledge.sources.values()), knowledge.facts,
                           [*knowledge.statuses, entry], knowledge.services, knowledge.timeline, knowledge.cards,
                           list(knowledge.packs.values()), knowledge.pack_ends, knowledge.regions)
        day = answers.next_school_day(max(start, today))
        lines.append("\n" + admin.say(msg, "admin_parents_will_be_told", day=describe_day(day, today, lang)))
        lines.append(answers.school_status(future, knowledge.board(board_id), day, today, msg.time,
                                           voice=Voice(lang)))
    return admin.propose(msg, action, "\n".join(lines))


def _span_day(day: date, today: date, lang: str) -> str:
    """"from today, Thursday, October 3"; in French "du jeudi 3 octobre" (no "du aujourd'hui")."""
    words = describe_day(day, today, lang)
    return words.split(", ", 1)[-1] if lang == "fr" else words


def _in_words(day: date) -> InLanguages:
    """A day for an error: as written in English (2019-10-08), in words in French (mar. 8 oct.)."""
    return InLanguages({"en": str(day), "fr": short_day(day, "fr")})


def _status_entry(admin: Admin, msg: Incoming, rights: Rights, action: dict) -> Status:
    return Status(
        new_id("status", action["board"], admin.at(msg)), action["board"], date.fromisoformat(action["start"]),
        date.fromisoformat(action["until"]) if action["until"] else None, action["status"], action["note"],
        admin.source_label(rights, action["board"]), admin.at(msg), admin.author(msg), pack=admin.store.staff_pack(),
    )


@applies("status")
def apply_status(admin: Admin, msg: Incoming, rights: Rights, action: dict, pending_id: int) -> str:
    board_id = action["board"]
    admin.check_rights(rights, board_id)
    entry = _status_entry(admin, msg, rights, action)
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


# ------------------------------------------------------------------- services
@staff_command("addservice", (
    "/addservice BOARD [PHASE] WORKERS: SERVICE\n"
    "  PHASE: a phase of the active pack (default: the one under way)\n"
    "  e.g. /addservice tdsb Custodians: no extra cleaning of classrooms"))
def addservice(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    found = tokens(argument)
    if len(found) < 2:
        raise UsageProblem.of("admin_addservice_what")
    board_id = admin.board(found[0].group(0), rights)
    knowledge, pack = admin.knowledge(), admin.store.staff_pack()
    phases = phase_choices(knowledge, pack)
    index, phase = 1, current_phase(knowledge, pack, admin.at(msg).date())
    named = word(found[1].group(0))
    named = named if named in phases else normalize(named)
    if named in phases:
        phase, index = phases[named], 2
    workers, sep, service = rest(argument, found, index).partition(":")
    if not sep or not workers.strip() or not service.strip():
        raise UsageProblem.of("admin_addservice_colon")
    workers, service = workers.strip(), service.strip()
    admin.check_length(workers + service, "admin_what_that")
    action = {"kind": "service", "board": board_id, "phase": phase, "workers": workers, "service": service}
    phase_words = phase_heading(knowledge, WithdrawnService("", "", "", phase, "", admin.at(msg), pack=pack),
                                admin.language(msg)).lower()
    return admin.propose(msg, action, admin.say(msg, "admin_addservice_preview", phase=phase_words,
                                                source=_source(admin, msg, rights, board_id), workers=workers,
                                                service=service))


def _added(admin: Admin, msg: Incoming, kind: str, entry, put, board: str, summary) -> int:
    """Store a new staff-made entry with its change record and audit row (inside /confirm's transaction)."""
    put(entry)
    change = admin.record(msg, kind, entry.id, board, summary)
    admin.audit(msg, f"add{kind}", board, None, entry_dict(entry))
    return change


@applies("service")
def apply_service(admin: Admin, msg: Incoming, rights: Rights, action: dict, pending_id: int) -> str:
    admin.check_rights(rights, action["board"])
    entry = WithdrawnService(
        new_id("service", action["board"], admin.at(msg)), action["workers"], action["service"], action["phase"],
        admin.source_label(rights, action["board"]), admin.at(msg), None, admin.author(msg),
        pack=admin.store.staff_pack(),
    )
    change = _added(admin, msg, "service", entry, admin.store.put_service, action["board"],
                    lambda language: say("change_entry", language, what=entry.workers, text=entry.service))
    return admin.say(msg, "admin_addservice_done", workers=entry.workers, service=entry.service, id=entry.id,
                     change=change)


def _service_line(admin: Admin, msg: Incoming, service: WithdrawnService) -> str:
    """"custodians: cleaning hallways", from the entry's French texts for a French reader when it has them."""
    voice = Voice(admin.language(msg))
    return f"{voice.text(service, 'workers')}{voice.colon}{voice.text(service, 'service')}"


def _service_board(service: WithdrawnService) -> str | None:
    """The board whose staff added a service (from its source label), None for loaded ones."""
    tag = service.source.split(" ", 1)[0].lower()
    if service.author and service.source.endswith(("staff update", "(province admin)")):
        return ALL_BOARDS if tag == "province-wide" else tag
    return None


def _may_end(rights: Rights, service: WithdrawnService) -> bool:
    owner = _service_board(service)
    return rights.province or (owner is not None and owner in rights.boards)


@staff_command("endservice", "/endservice ID - a withdrawn service is back to normal (/endservice alone lists them)")
def endservice(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    active = admin.knowledge().services_withdrawn(msg.time)
    if not argument:
        if not active:
            return admin.say(msg, "admin_no_withdrawn_services")
        return "\n".join([admin.say(msg, "admin_withdrawn_services"),
                          *(f"- {s.id}: {_service_line(admin, msg, s)}" for s in active)])
    wanted = argument.split()[0]
    service = next((s for s in active if s.id == wanted), None)
    if service is None:
        raise UsageProblem.of("admin_no_such_service", id=repr(wanted))
    if not _may_end(rights, service):
        raise Denied.of("admin_endservice_province_only")
    action = {"kind": "endservice", "service": service.id, "board": _service_board(service) or ALL_BOARDS}
    return admin.propose(msg, action, admin.say(msg, "admin_endservice_preview", workers=service.workers,
                                                service=service.service))


@applies("endservice")
def apply_endservice(admin: Admin, msg: Incoming, rights: Rights, action: dict, pending_id: int) -> str:
    service = next((s for s in admin.knowledge().services if s.id == action["service"]), None)
    if service is None or service.ended is not None or service.retracted is not None:
        return admin.say(msg, "admin_endservice_already")
    if not _may_end(rights, service):
        raise Denied.of("admin_endservice_no_longer")
    ended = replace(service, ended=admin.at(msg))
    admin.store.put_service(ended)
    change = admin.record(msg, "endservice", service.id, action["board"], lambda language: say(
        "change_endservice", language, workers=service.workers, service=service.service))
    admin.audit(msg, "endservice", action["board"], entry_dict(service), entry_dict(ended))
    return admin.say(msg, "admin_endservice_done", workers=service.workers, service=service.service, change=change)


# --------------------------------------------------------------------- events
@staff_command("addevent", (
    "/addevent BOARD|all KIND DATE: TEXT\n"
    "  KIND: talks, deal, called-off, strike-notice, strike, work-to-rule, strike-vote, law-passed,\n"
    "  law-repealed, schools-closed, schools-reopen, return-to-work, other\n"
    "  e.g. /addevent all talks friday: the union and the province return to the table"))
def addevent(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    found = tokens(argument)
    if len(found) < 4:
        raise UsageProblem.of("admin_addevent_what")
    board_id, kind = _board_and_choice(admin, found, rights, {**EVENT_WORDS, **with_dashes(TIMELINE_KINDS)},
                                       "admin_what_event_kind", {k: list(v) for k, v in SHOWN_EVENT_WORDS.items()})
    index = 3 if word(found[2].group(0)) in ("on", "from") else 2
    day = parse_date_phrase(found, index, admin.at(msg).date())
    if day is None:
        raise UsageProblem.of("admin_unread_date")
    text = rest(argument, found, index + day[1])
    if not text:
        raise UsageProblem.of("admin_addevent_text")
    admin.check_length(text, "admin_what_text")
    action = {"kind": "event", "board": board_id, "event": kind, "day": day[0].isoformat(), "text": text}
    return admin.propose(msg, action, admin.say(
        msg, "admin_addevent_preview", kind=event_kind(kind, admin.language(msg)), source=_source(admin, msg, rights, board_id),
        day=short_day(day[0], admin.language(msg)), text=text))


@applies("event")
def apply_event(admin: Admin, msg: Incoming, rights: Rights, action: dict, pending_id: int) -> str:
    admin.check_rights(rights, action["board"])
    entry = TimelineEvent(
        new_id("event", action["board"], admin.at(msg)), action["event"], date.fromisoformat(action["day"]),
        action["text"], admin.source_label(rights, action["board"]), admin.at(msg), False, admin.author(msg),
        pack=admin.store.staff_pack(),
    )
    change = _added(admin, msg, "event", entry, admin.store.put_event, action["board"],
                    lambda language: say("change_entry", language, what=entry.day, text=entry.text))
    return admin.say(msg, "admin_addevent_done", day=short_day(entry.day, admin.language(msg)), change=change)


# ---------------------------------------------------------------- end a phase
@staff_command("endphase", (
    "/endphase PHASE - every service withdrawn in that phase of the active pack is back to normal\n"
    "  (province admins; /endphase alone lists the phases)"))
def endphase(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    if not rights.province:
        raise Denied.of("endphase_province_only")
    knowledge, pack = admin.knowledge(), admin.store.staff_pack()
    phases = phase_choices(knowledge, pack)
    wanted = word(argument.split()[0]) if argument.strip() else ""
    wanted = wanted if wanted in phases else normalize(wanted)
    if wanted not in phases:
        unaccented = {normalize(p) for p in phases if p != normalize(p)}  # said once, with its accents
        names = sorted(p for p in phases if "_" not in p and p not in unaccented)
        raise UsageProblem.of("endphase_which", phases=", ".join(names))
    phase = phases[wanted]
    active = [s for s in knowledge.services_withdrawn(msg.time) if s.phase == phase and s.pack == pack]
    named = phase_name(knowledge, pack, phase, admin.language(msg))
    if not active:
        return admin.say(msg, "endphase_nothing", phase=named)
    action = {"kind": "endphase", "phase": phase, "board": ALL_BOARDS, "services": [s.id for s in active]}
    lines = [admin.say(msg, "endphase_preview", phase=named, count=len(active)),
             *(f"- {_service_line(admin, msg, s)}" for s in active)]
    return admin.propose(msg, action, "\n".join(lines))


@applies("endphase")
def apply_endphase(admin: Admin, msg: Incoming, rights: Rights, action: dict, pending_id: int) -> str:
    wanted = set(action["services"])
    services = [s for s in admin.knowledge().services_withdrawn(msg.time) if s.id in wanted]
    for service in services:
        admin.store.put_service(replace(service, ended=admin.at(msg)))
    ids = [s.id for s in services]
    knowledge, pack = admin.knowledge(), admin.store.staff_pack()
    change = admin.record(msg, "endphase", action["phase"], ALL_BOARDS, lambda language: say(
        "change_endphase", language, phase=phase_name(knowledge, pack, action["phase"], language)), before=ids)
    admin.audit(msg, "endphase", ALL_BOARDS, ids, None)
    return admin.say(msg, "endphase_done", count=len(ids), change=change)


@undoes("endphase")
def undo_endphase(admin: Admin, msg: Incoming, rights: Rights, change: dict) -> str:
    ids = set(change["before"] or ())
    for service in admin.knowledge().services:
        if service.id in ids and service.ended is not None:
            admin.store.put_service(replace(service, ended=None))
    admin.audit(msg, "undo endphase", ALL_BOARDS, None, sorted(ids))
    return admin.say(msg, "endphase_undone", summary=admin.summary(msg, change))


# ----------------------------------------------------------------------- undo
_POOLS = {"status": ("statuses", "put_status"), "service": ("services", "put_service"),
          "endservice": ("services", "put_service"), "event": ("timeline", "put_event"), "card": ("cards", "put_card")}


@undoes(*_POOLS)
def undo_entry(admin: Admin, msg: Incoming, rights: Rights, change: dict) -> str:
    pool, put = _POOLS[change["kind"]]
    entry = next((e for e in getattr(admin.knowledge(), pool) if e.id == change["entry_id"]), None)
    if entry is None:
        return admin.say(msg, "admin_undo_entry_gone")
    if change["kind"] == "endservice":
        after, what = replace(entry, ended=None), "admin_undo_withdrawn_again"
    else:
        after, what = replace(entry, retracted=admin.at(msg)), "admin_undo_removed"
    getattr(admin.store, put)(after)
    admin.audit(msg, f"undo {change['kind']}", change["board"], entry_dict(entry), entry_dict(after))
    return admin.say(msg, "admin_undo_entry", summary=admin.summary(msg, change), what=admin.say(msg, what))
