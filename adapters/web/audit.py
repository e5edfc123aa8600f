"""The audit log with filters (`/audit`), and undo (`POST /undo`), as /audit and /undo in chat.

A person sees the rows chat's /audit shows them (a province admin all; board staff their boards' and their
own), filtered by who, board, kind and dates. Below, the latest changes not undone that they may take back,
each with an Undo button: /undo's preview (`plan_undo`), then Confirm applies it as /confirm does.
"""

from __future__ import annotations

from aiohttp import web

from adapters.web import acting
from adapters.web.acting import Outcome
from adapters.web.auth import staff_of
from adapters.web.html import Markup, field, form, hidden, join, table, tag, text_input
from adapters.web.keys import ADMIN
from adapters.web.pages import preview_page, respond
from bot.admin.audit import before_after, visible_rows
from bot.admin.changes import action_words, may_undo, plan_undo

READ = 2000  # the latest audit rows read before filtering
SHOWN = 200
FILTERS = (("who", "Who (platform:id, or part of it)"), ("board", "Board"), ("kind", "Kind (setstatus, teach...)"),
           ("since", "From day (YYYY-MM-DD)"), ("until", "Until day (YYYY-MM-DD)"))


def _matches(row: dict, wanted: dict[str, str]) -> bool:
    who = f"{row['platform']}:{row['user_id']} {row.get('name') or ''}".casefold()
    day = row["at"][:10]
    return ((not wanted["who"] or wanted["who"].casefold() in who)
            and (not wanted["board"] or wanted["board"].casefold() == row["target"].casefold())
            and (not wanted["kind"] or wanted["kind"].casefold() in row["action"].casefold())
            and (not wanted["since"] or day >= wanted["since"])
            and (not wanted["until"] or day <= wanted["until"]))


def _filter_form(wanted: dict[str, str]) -> Markup:
    fields = join(field(label, text_input(name, wanted[name])) for name, label in FILTERS)
    return Markup(f'<form method="get" action="/audit">{fields}<button type="submit">Filter</button></form>')


def _undoable(admin, rights) -> list[dict]:
    return [c for c in admin.records.recent_changes(100) if may_undo(rights, c)][:30]


async def audit(request: web.Request) -> web.Response:
    admin, staff = request.app[ADMIN], staff_of(request)
    wanted = {name: request.query.get(name, "").strip() for name, _ in FILTERS}
    rows = [r for r in visible_rows(admin.store.audit_rows(READ), staff.rights) if _matches(r, wanted)][:SHOWN]
    lines = []
    for row in rows:
        before, after = before_after(row, 80)
        who = f"{row['platform']}:{row['user_id']}" + (f" ({row['name']})" if row.get("name") else "")
        lines.append((row["id"], row["at"][:16].replace("T", " "), who, action_words(row["action"]), row["target"],
                      before, after))
    changes = [(c["id"], c["at"].strftime("%Y-%m-%d %H:%M"), f"{c['platform']}:{c['user_id']}",
                action_words(c["kind"]), c["board"], admin.summary(acting.message(admin, staff), c),
                form("/undo", staff.csrf, hidden("change", c["id"]), "Undo…", class_="inline"))
               for c in _undoable(admin, staff.rights)]
    body = join((
        _filter_form(wanted),
        table(("#", "When (bot's clock)", "Who", "What", "Board", "Before", "After"), lines) if lines
        else tag("p", "No audit rows match."),
        tag("h2", "Changes you may undo"),
        table(("Change", "When", "Who", "Kind", "Board", "What it was", ""), changes) if changes
        else tag("p", "No change to undo."),
    ))
    return respond(request, "Audit and undo", body)


async def undo(request: web.Request) -> web.Response:
    """/undo's preview of one change; Confirm takes it back as /confirm does."""
    admin, staff = request.app[ADMIN], staff_of(request)
    posted = await request.post()
    number = str(posted.get("change", ""))

    def plan(msg) -> Outcome:
        if not number.isdigit():
            return Outcome("Which change? Give its number.", status=400)
        found = plan_undo(admin, msg, staff.rights, number)
        if isinstance(found, str):
            return Outcome(found, status=409)
        return acting.propose(admin, msg, *found)
    return preview_page(request, "Undo a change", acting.attempt(admin, staff, plan), "/audit")
