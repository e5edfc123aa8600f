"""Staff changes to the knowledge: /addservice, /endservice, /endphase, /addevent, and their undo (and /setstatus's,
whose plan is in :mod:`bot.admin.statuses`).

Every change goes into the active pack staff changes go to (the first of `kb use`);
status words and phases are those of the active packs, so a new dispute's own
words work from chat (`kb export PACK` writes them back to the pack's file).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from bot.admin.changes import Admin, applies, undoes
from bot.admin.parsing import (
    EVENT_WORDS,
    SHOWN_EVENT_WORDS,
    Denied,
    InLanguages,
    UsageProblem,
    Words,
    entry_dict,
    parse_date_phrase,
    rest,
    tokens,
    word,
)
from bot.admin.permissions import staff_command
from bot.admin.plans import EventPlan, ServicePlan, previews
from bot.admin.statuses import board_and_choice, new_id
from bot.admin.vocabulary import current_phase, event_kind, phase_choices, phase_name, with_dashes
from bot.dates.formatting import short_day
from bot.messages import Incoming
from bot.replies import Voice, say, source_name
from bot.roles import Rights
from bot.text import normalize
from bot.timeliness import phase_heading
from knowledge.model import ALL_BOARDS, TIMELINE_KINDS, TimelineEvent, WithdrawnService


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
    plan = ServicePlan(admin.author(msg), board_id, admin.at(msg), phase, workers, service,
                       admin.source_label(rights, board_id), pack)
    return admin.propose(msg, plan, preview_service(plan, admin.language(msg), knowledge))


@previews("service")
def preview_service(plan: ServicePlan, language: str, knowledge) -> str:
    heading = phase_heading(knowledge, WithdrawnService("", "", "", plan.phase, "", plan.at, pack=plan.pack), language)
    return say("admin_addservice_preview", language, phase=heading.lower(), source=source_name(plan.source, language),
               workers=plan.workers, service=plan.service)


def _added(admin: Admin, msg: Incoming, kind: str, entry, put, board: str, summary) -> int:
    """Store a new staff-made entry with its change record and audit row (inside /confirm's transaction)."""
    put(entry)
    change = admin.record(msg, kind, entry.id, board, summary)
    admin.audit(msg, f"add{kind}", board, None, entry_dict(entry))
    return change


@applies("service")
def apply_service(admin: Admin, msg: Incoming, rights: Rights, plan: ServicePlan, pending_id: int) -> str:
    admin.check_rights(rights, plan.board)
    entry = WithdrawnService(
        new_id("service", plan.board, admin.at(msg)), plan.workers, plan.service, plan.phase,
        admin.source_label(rights, plan.board), admin.at(msg), None, admin.author(msg),
        pack=admin.store.staff_pack(),
    )
    change = _added(admin, msg, "service", entry, admin.store.put_service, plan.board,
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
    board_id, kind = board_and_choice(admin, found, rights, {**EVENT_WORDS, **with_dashes(TIMELINE_KINDS)},
                                       "admin_what_event_kind", {k: list(v) for k, v in SHOWN_EVENT_WORDS.items()})
    index = 3 if word(found[2].group(0)) in ("on", "from") else 2
    day = parse_date_phrase(found, index, admin.at(msg).date())
    if day is None:
        raise UsageProblem.of("admin_unread_date")
    plan = event_plan(admin, msg, rights, board_id, kind, day[0], rest(argument, found, index + day[1]))
    return admin.propose(msg, plan, preview_event(plan, admin.language(msg)))


def event_plan(admin: Admin, msg: Incoming, rights: Rights, board_id: str, kind: str, day: date,
               text: str) -> EventPlan:
    """The checked plan of a dated event, however it was asked (/addevent's words or the web page's form)."""
    admin.check_rights(rights, board_id)
    if kind not in TIMELINE_KINDS:
        raise UsageProblem.of("admin_unknown_choice", given=repr(kind), what=Words.maybe("admin_what_event_kind"),
                              known=InLanguages({k: ", ".join(v) for k, v in SHOWN_EVENT_WORDS.items()}))
    if not text:
        raise UsageProblem.of("admin_addevent_text")
    admin.check_length(text, "admin_what_text")
    return EventPlan(admin.author(msg), board_id, admin.at(msg), kind, day, text, admin.source_label(rights, board_id))


@previews("event")
def preview_event(plan: EventPlan, language: str, knowledge=None) -> str:
    return say("admin_addevent_preview", language, kind=event_kind(plan.event, language),
               source=source_name(plan.source, language), day=short_day(plan.day, language), text=plan.text)


@applies("event")
def apply_event(admin: Admin, msg: Incoming, rights: Rights, plan: EventPlan, pending_id: int) -> str:
    admin.check_rights(rights, plan.board)
    entry = TimelineEvent(
        new_id("event", plan.board, admin.at(msg)), plan.event, plan.day, plan.text,
        admin.source_label(rights, plan.board), admin.at(msg), False, admin.author(msg),
        pack=admin.store.staff_pack(),
    )
    change = _added(admin, msg, "event", entry, admin.store.put_event, plan.board,
                    lambda language: say("change_entry", language, what=entry.day, text=entry.text))
    return admin.say(msg, "admin_addevent_done", day=short_day(entry.day, admin.language(msg)), change=change)


# ---------------------------------------------------------------- end a phase
@staff_command("endphase", (
    "/endphase PHASE - every service withdrawn in that phase of the active pack is back to normal\n"
    "  (province admins; /endphase alone lists the phases)"))
def endphase(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    found = plan_endphase(admin, msg, rights, argument)
    return found if isinstance(found, str) else admin.propose(msg, *found)


def plan_endphase(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> tuple[dict, str] | str:
    """(the /endphase action /confirm applies, its preview) for the phase `argument` names (a word or its id), or
    what to say when nothing of it is withdrawn; /endphase and the web page."""
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
    return action, "\n".join(lines)


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
