"""Boards at a glance (`/`), one board's page (`/board/ID`) and setting its status for days from there.

At a glance: one row per board of the active packs that the person may manage (a province admin: all;
board staff: their own), with today's and the next school day's status, the source and age of the news
(older than `[answers] stale_after_days` marked stale, as answers say), subscribers and questions today.
A board's page: its status for the coming school days, its own and the province-wide status entries, the
services withdrawn, the timeline, the cards that answer for it, the latest questions about it, and the
form that sets its status through /setstatus's plan (preview, confirm, audit, undo).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from aiohttp import web

from adapters.web import acting
from adapters.web.acting import Outcome
from adapters.web.auth import staff_of
from adapters.web.html import Markup, field, form, join, link, select, table, tag, text_input, textarea
from adapters.web.keys import ADMIN, SETTINGS
from adapters.web.pages import no_board, one_line, preview_page, refused, respond
from bot import answers
from bot.admin.knowledge_changes import event_plan, plan_endphase
from bot.admin.statuses import status_plan
from bot.admin.vocabulary import event_kind, phase_choices, phase_name, status_ids
from bot.replies import source_name
from knowledge.model import ALL_BOARDS, TIMELINE_KINDS, Board, Status
from knowledge.overview import latest_questions, questions_per_board, subscribers_per_board
from knowledge.snapshot import Knowledge

COMING_DAYS = 5  # school days shown on a board's page


def boards_of_packs(knowledge: Knowledge) -> list[Board]:
    """The boards the active packs speak for, by name."""
    packs = list(knowledge.packs.values())
    return sorted((b for b in knowledge.boards.values() if any(p.concerns(b.id) for p in packs)),
                  key=lambda b: b.name.casefold())


def age(published: datetime, now: datetime) -> str:
    """"3 h", "2 days": how old a piece of news is at `now`."""
    hours = max(0, int((now - published).total_seconds() // 3600))
    days = (now.date() - published.astimezone(now.tzinfo).date()).days
    return f"{hours} h" if days < 1 else f"{days} day" + ("s" if days > 1 else "")


def status_cell(knowledge: Knowledge, board_id: str, day: date, now: datetime) -> tuple[str, Status | None]:
    """A board's status on `day` as parents are told it at `now`, and the entry it comes from."""
    own, general = knowledge.status_for(board_id, day, now)
    used = own or general
    if used is None:
        return "not confirmed", None
    return answers.status_words(used.status, "en", knowledge) + ("" if own else " (province-wide)"), used


def source_cell(entry: Status | None, now: datetime, stale_days: int) -> Markup:
    if entry is None:
        return Markup("-")
    days = (now.date() - entry.published.astimezone(now.tzinfo).date()).days
    text = f"{source_name(entry.source)}, {age(entry.published, now)} old"
    return tag("span", text + (" (stale)" if days > stale_days else ""), class_="stale" if days > stale_days else None)


async def overview(request: web.Request) -> web.Response:
    admin, staff = request.app[ADMIN], staff_of(request)
    knowledge, now = admin.knowledge(), admin.bot.clock()
    today, stale_days = now.date(), request.app[SETTINGS].answers.stale_after_days
    following = answers.next_school_day(today + timedelta(days=1))
    subscribers, asked = subscribers_per_board(admin.store), questions_per_board(admin.store, today)
    rows = []
    for board in boards_of_packs(knowledge):
        if not staff.rights.may_manage(board.id):
            continue
        words_today, used = status_cell(knowledge, board.id, today, now)
        words_next, _ = status_cell(knowledge, board.id, following, now)
        rows.append((link(f"/board/{board.id}", board.display), words_today, words_next,
                     source_cell(used, now, stale_days), subscribers.get(board.id, 0), asked.get(board.id, 0)))
    note = (f"Clock: {now:%a %b %d %Y, %H:%M}. {subscribers.get(ALL_BOARDS, 0)} chats subscribed to every board "
            "(not counted in the rows).")
    headers = ("Board", f"Today ({today:%a %b %d})", f"Next school day ({following:%a %b %d})", "Source and age",
               "Subscribers", "Questions today")
    body = table(headers, rows, class_="boards") if rows else tag("p", "No board of the active packs is yours.")
    if staff.rights.province:
        body += tag("h2", "End a phase (province admins)") + phase_form(knowledge, admin.store.staff_pack(),
                                                                        staff.csrf)
    return respond(request, "Boards at a glance", tag("p", note, class_="note") + body)


def _board(request: web.Request) -> Board | web.Response:
    """The board of the URL, if it exists and the person may manage it (checked on every board route)."""
    admin, staff = request.app[ADMIN], staff_of(request)
    name = request.match_info["board"]
    board = admin.knowledge().board(name)
    if board is None:
        return no_board(request, name)
    if not staff.rights.may_manage(board.id):
        return refused(request, 403, f"{board.name} is not one of your boards.")
    return board


def _coming_days(knowledge: Knowledge, board: Board, now: datetime) -> Markup:
    rows, day = [], answers.next_school_day(now.date())
    for _ in range(COMING_DAYS):
        words, used = status_cell(knowledge, board.id, day, now)
        rows.append((f"{day:%a %b %d}", words, used.summary if used else "", source_name(used.source) if used else ""))
        day = answers.next_school_day(day + timedelta(days=1))
    return table(("Day", "Status", "What it says", "Source"), rows)


def _entries(knowledge: Knowledge, board: Board, now: datetime) -> Markup:
    statuses = sorted((s for s in knowledge.statuses if s.board in (board.id, ALL_BOARDS) and s.published <= now),
                      key=lambda s: s.published, reverse=True)
    rows = [(f"{s.start}" + (f" to {s.until}" if s.until else " on"), answers.status_words(s.status, "en", knowledge),
             s.summary, "all boards" if s.board == ALL_BOARDS else s.board, source_name(s.source),
             f"{s.published:%b %d %H:%M}", "withdrawn" if s.retracted else "") for s in statuses]
    return table(("Days", "Status", "Summary", "For", "Source", "Published", ""), rows)


def status_form(knowledge: Knowledge, board: Board, csrf: str, today: date) -> Markup:
    options = [(status, answers.status_words(status, "en", knowledge)) for status in status_ids(knowledge)]
    fields = join((field("Status", select("status", options)),
                   field("From", text_input("start", today.isoformat(), kind="date", required=True)),
                   field("Until (empty: until further notice)", text_input("until", kind="date")),
                   field("Note parents will read", textarea("note", required=True))))
    return form(f"/board/{board.id}/status", csrf, fields, "Preview")


def event_form(board: Board, csrf: str, today: date, province: bool) -> Markup:
    options = [(kind, event_kind(kind, "en")) for kind in TIMELINE_KINDS]
    fields = [field("Kind", select("kind", options)),
              field("Day", text_input("day", today.isoformat(), kind="date", required=True)),
              field("What happens", textarea("text", required=True, rows=2))]
    if province:
        fields.append(field("For", select("everywhere", [("", board.display), ("yes", "all boards")])))
    return form(f"/board/{board.id}/event", csrf, join(fields), "Preview")


async def board_page(request: web.Request) -> web.Response:
    board = _board(request)
    if isinstance(board, web.Response):
        return board
    admin, staff = request.app[ADMIN], staff_of(request)
    knowledge, now = admin.knowledge(), admin.bot.clock()
    services = [(s.workers, s.service, s.phase, source_name(s.source)) for s in knowledge.services_withdrawn(now)]
    events = [(f"{e.day:%a %b %d %Y}", e.kind, e.text, source_name(e.source)) for e in knowledge.events(now)]
    cards = [(c.question, c.answer, ", ".join(c.boards) or "all boards", source_name(c.source))
             for c in knowledge.cards_at(now) if c.applies_to(board.id)]
    asked = [(q.at[:16].replace("T", " "), q.text, q.intent, "-" if q.confidence is None else f"{q.confidence:.2f}")
             for q in latest_questions(admin.store, board.id)]
    sections = (
        ("Coming school days", _coming_days(knowledge, board, now)),
        ("Set the status for some days", status_form(knowledge, board, staff.csrf, now.date())),
        ("Add an event to the timeline", event_form(board, staff.csrf, now.date(), staff.rights.province)),
        ("Status entries", _entries(knowledge, board, now)),
        ("Services withdrawn", table(("Who", "What stopped", "Phase", "Source"), services)),
        ("Timeline", table(("Day", "Kind", "What", "Source"), events)),
        ("Answer cards for this board", table(("Question", "Answer", "Boards", "Source"), cards)),
        ("Latest questions about this board", table(("When", "Question", "Topic", "Confidence"), asked)),
    )
    body = tag("p", link(board.website, board.website) if board.website.startswith("http") else "") + join(
        tag("h2", title) + content for title, content in sections)
    return respond(request, board.name, body)


async def _board_form(request: web.Request, title: str, make) -> web.Response:
    """A board's form read into a plan by `make(admin, staff, msg, board, posted) -> Outcome`, and its preview."""
    board = _board(request)
    if isinstance(board, web.Response):
        return board
    admin, staff = request.app[ADMIN], staff_of(request)
    posted = await request.post()
    outcome = acting.attempt(admin, staff, lambda msg: make(admin, staff, msg, board, posted))
    return preview_page(request, f"{title} of {board.display}", outcome, f"/board/{board.id}")


def _status(admin, staff, msg, board: Board, posted) -> Outcome:
    start, until = _day(posted.get("start")), _day(posted.get("until"))
    if start is None:
        return Outcome("Give the first day (From) as a date.", status=400)
    return acting.propose_plan(admin, msg, status_plan(admin, msg, staff.rights, board.id, str(posted.get("status", "")),
                                                       start, until, one_line(posted.get("note"))))


def _event(admin, staff, msg, board: Board, posted) -> Outcome:
    day = _day(posted.get("day"))
    if day is None:
        return Outcome("Give the event's day as a date.", status=400)
    target = ALL_BOARDS if posted.get("everywhere") == "yes" else board.id
    return acting.propose_plan(admin, msg, event_plan(admin, msg, staff.rights, target, str(posted.get("kind", "")),
                                                      day, one_line(posted.get("text"))))


async def set_status(request: web.Request) -> web.Response:
    """Read the form into /setstatus's plan and show its preview (Confirm applies it as /confirm does)."""
    return await _board_form(request, "Status", _status)


async def add_event(request: web.Request) -> web.Response:
    """Read the form into /addevent's plan and show its preview."""
    return await _board_form(request, "Event", _event)


async def end_phase(request: web.Request) -> web.Response:
    """Read the form into /endphase's action (province admins) and show its preview."""
    admin, staff = request.app[ADMIN], staff_of(request)
    posted = await request.post()

    def plan(msg) -> Outcome:
        found = plan_endphase(admin, msg, staff.rights, str(posted.get("phase", "")))
        return Outcome(found, status=409) if isinstance(found, str) else acting.propose(admin, msg, *found)
    return preview_page(request, "End a phase", acting.attempt(admin, staff, plan), "/")


def phase_form(knowledge: Knowledge, pack: str, csrf: str) -> Markup:
    phases = sorted(set(phase_choices(knowledge, pack).values()))
    options = [(phase, phase_name(knowledge, pack, phase, "en")) for phase in phases]
    return form("/phase", csrf, field("Every service withdrawn in this phase is back to normal:",
                                      select("phase", options)), "Preview")


def _day(value: object) -> date | None:
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None
