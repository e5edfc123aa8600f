"""Signing in to the staff web page, and the check every other route passes.

A one-time link (``/web`` in chat, ``schoolbot web-link``) opens ``GET /signin?token=...``: a page with one
button, so a chat app fetching the link for a preview does not use it up. The button posts the token; a
link that is unknown, used or expired is refused, and a good one opens a session: a random cookie
(HttpOnly, SameSite=Strict, Secure when the page is reached over HTTPS) whose hash is stored with the
session's CSRF token and expiry (knowledge/web_access.py).

:func:`signed_in` runs before every other route: no live session, 401; a person who no longer has a role,
403; a POST whose CSRF token is not the session's, 403. The person's rights are read again on every
request (a revoked role takes effect at once) and kept on the request for the handlers.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from hmac import compare_digest

from aiohttp import web

from adapters.web.html import esc, form, hidden, page, tag
from adapters.web.keys import ADMIN, SETTINGS, STAFF
from bot.roles import Rights
from knowledge.store import utcnow
from knowledge.web_access import WebAccess, WebSession

COOKIE = "schoolbot_session"
OPEN_PATHS = frozenset({"/signin", "/style.css"})  # everything else needs a session
ASK_FOR_A_LINK = "Send /web to the bot in a private chat (or run `schoolbot web-link YOUR_ID`) for a new link."


@dataclass(frozen=True, slots=True)
class Staff:
    """The signed-in person of a request: their session and their rights, as chat gives them."""

    session: WebSession
    rights: Rights

    @property
    def csrf(self) -> str:
        return self.session.csrf

    @property
    def who(self) -> str:
        return f"{self.session.actor}: {self.rights.describe()}"


def staff_of(request: web.Request) -> Staff:
    return request[STAFF]


def refused(status: int, title: str, text: str) -> web.Response:
    return web.Response(status=status, text=page(title, tag("p", text)), content_type="text/html")


def _access(request: web.Request) -> WebAccess:
    return WebAccess(request.app[ADMIN].store)


@web.middleware
async def signed_in(request: web.Request, handler) -> web.StreamResponse:
    """Every route but the sign-in page and the stylesheet: a live session, a role, and on a POST the CSRF token."""
    if request.path in OPEN_PATHS:
        return await handler(request)
    secret = request.cookies.get(COOKIE, "")
    session = _access(request).session(secret, utcnow()) if secret else None
    if session is None:
        return refused(401, "Sign in first", "This page is for school board staff. " + ASK_FOR_A_LINK)
    rights = request.app[ADMIN].roles.rights(session.platform, session.user_id)
    if not rights.is_admin:
        return refused(403, "No staff role", f"{session.actor} has no staff role any more; nothing is shown.")
    if request.method == "POST":
        posted = await request.post()
        if not compare_digest(str(posted.get("csrf", "")), session.csrf):
            return refused(403, "Form refused", "This form did not come from your signed-in page "
                                                "(or it is too old): reload the page and try again.")
    request[STAFF] = Staff(session, rights)
    return await handler(request)


async def signin_page(request: web.Request) -> web.Response:
    """The page a link opens: who it signs in, and one button (the link is used only when it is pressed)."""
    token = request.query.get("token", "")
    holder = _access(request).link_holder(token, utcnow()) if token else None
    if holder is None:
        return refused(403, "This link does not work", "It was used already, has expired or was mistyped. "
                       + ASK_FOR_A_LINK)
    body = tag("p", f"This link signs you in as {holder[0]}:{holder[1]}. It works once.")
    button = esc(form("/signin", "", hidden("token", token), "Sign in"))
    return web.Response(text=page("Sign in", body + button), content_type="text/html")


async def signin(request: web.Request) -> web.Response:
    """Use the link (once) and open a session."""
    posted = await request.post()
    now = utcnow()
    access = _access(request)
    holder = access.use_link(str(posted.get("token", "")), now)
    if holder is None:
        return refused(403, "This link does not work", "It was used already, has expired or was mistyped. "
                       + ASK_FOR_A_LINK)
    settings = request.app[SETTINGS]
    ttl = timedelta(hours=settings.web.session_hours)
    secret = secrets.token_urlsafe(32)
    access.add_session(secret, holder[0], holder[1], secrets.token_urlsafe(32), now, ttl)
    response = web.Response(status=303, headers={"Location": "/"})
    response.set_cookie(COOKIE, secret, max_age=int(ttl.total_seconds()), path="/", httponly=True,
                        samesite="Strict", secure=request.secure or settings.web.url.startswith("https://"))
    return response


async def signout(request: web.Request) -> web.Response:
    _access(request).end_session(request.cookies.get(COOKIE, ""), utcnow())
    response = web.Response(text=page("Signed out", tag("p", "You are signed out. " + ASK_FOR_A_LINK)),
                            content_type="text/html")
    response.del_cookie(COOKIE, path="/")
    return response
