"""Answering with a page, and the preview -> confirm -> outcome steps every staff action shares.

An action's form posts to its own route, which makes the plan and shows :func:`preview_page`: the preview
chat would show, with Confirm and Cancel (each carrying the pending preview's number). ``POST /confirm``
and ``POST /cancel`` then do what /confirm and /cancel do in chat.
"""

from __future__ import annotations

from aiohttp import web

from adapters.web import acting
from adapters.web.acting import Outcome
from adapters.web.auth import staff_of
from adapters.web.html import Markup, form, hidden, link, page, said, tag
from adapters.web.keys import ADMIN


def respond(request: web.Request, title: str, body: object, *, status: int = 200) -> web.Response:
    staff = staff_of(request)
    return web.Response(status=status, text=page(title, body, who=staff.who, csrf=staff.csrf),
                        content_type="text/html")


def outcome_page(request: web.Request, title: str, outcome: Outcome, back: str) -> web.Response:
    mark = "problem" if outcome.refused else "done"
    body = tag("div", said(outcome.text), class_=mark) + tag("p", link(back, "Back"))
    return respond(request, title, body, status=outcome.status)


def preview_page(request: web.Request, title: str, outcome: Outcome, back: str) -> web.Response:
    """The preview with Confirm and Cancel, or the refusal when the form made no action."""
    if outcome.pending is None:
        return outcome_page(request, title, outcome, back)
    csrf = staff_of(request).csrf
    fields = hidden("pending", outcome.pending) + hidden("back", back)
    body = Markup(said(outcome.text) + form("/confirm", csrf, fields, "Confirm", class_="inline") + " "
                  + form("/cancel", csrf, fields, "Cancel", class_="inline"))
    return respond(request, title, body)


async def _pending_and_back(request: web.Request) -> tuple[int, str]:
    posted = await request.post()
    back = str(posted.get("back", "/"))
    if not back.startswith("/") or back.startswith("//"):  # only a page of this site
        back = "/"
    pending = str(posted.get("pending", ""))
    return (int(pending) if pending.isdigit() else -1), back


async def confirm(request: web.Request) -> web.Response:
    pending, back = await _pending_and_back(request)
    outcome = acting.confirm(request.app[ADMIN], staff_of(request), pending)
    return outcome_page(request, "Confirmed" if not outcome.refused else "Not applied", outcome, back)


async def cancel(request: web.Request) -> web.Response:
    pending, back = await _pending_and_back(request)
    outcome = acting.cancel(request.app[ADMIN], staff_of(request), pending)
    return outcome_page(request, "Cancelled" if not outcome.refused else "Not cancelled", outcome, back)


def one_line(value: object) -> str:
    """A form's text as one line, its runs of spaces and line breaks made one space."""
    return " ".join(str(value or "").split())


def refused(request: web.Request, status: int, text: str) -> web.Response:
    """A page the person may not see (another board's), or one that does not exist."""
    return respond(request, "Not shown", tag("p", text, class_="problem"), status=status)


def no_board(request: web.Request, name: str) -> web.Response:
    return refused(request, 404, f"There is no board {name!r}.")
