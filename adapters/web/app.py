"""The staff web page as an aiohttp application, and running it beside the bot (`schoolbot serve --web`).

Routes (every one but the sign-in page and the stylesheet needs a session, adapters/web/auth.py):

=========================  ====================================================================
``GET /signin?token=``     the page a one-time link opens; ``POST /signin`` uses the link
``POST /signout``          ends the session
``GET /``                  boards at a glance (adapters/web/boards.py)
``GET /board/ID``          one board; ``POST /board/ID/status`` previews a status for days,
                           ``POST /board/ID/event`` an event; ``POST /phase`` the end of a phase
``GET /asking``            what parents are asking; ``POST /teach`` previews a card
``GET /audit``             the audit log with filters; ``POST /undo`` previews an undo
``GET /broadcast``         compose and recent broadcasts; ``POST /broadcast`` previews one
``GET /broadcast/ID``      its progress bar, which polls ``GET /broadcast/ID/progress`` (JSON)
``POST /confirm``          applies the preview shown (as /confirm); ``POST /cancel`` drops it
=========================  ====================================================================

Every response says: no caching, no framing, no referrer, and a content policy that allows only this
site's stylesheet and its one script (the progress bar's, `/progress.js`), nothing of another origin.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from aiohttp import web

from adapters.web import asking, audit, auth, boards, broadcasts, pages
from adapters.web.html import STYLE
from adapters.web.keys import ADMIN, FIRST_SEEN, SETTINGS

if TYPE_CHECKING:  # pragma: no cover
    from bot.core import Bot
    from bot.settings import Settings

log = logging.getLogger("schoolbot.web")

HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; "
                               "img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a sign-in link's token never leaves in a Referer header
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)


async def _style(request: web.Request) -> web.Response:
    return web.Response(text=STYLE, content_type="text/css", headers={"Cache-Control": "max-age=3600"})


ROUTES = (
    ("GET", "/style.css", _style),
    ("GET", "/signin", auth.signin_page), ("POST", "/signin", auth.signin), ("POST", "/signout", auth.signout),
    ("GET", "/", boards.overview),
    ("GET", "/board/{board}", boards.board_page), ("POST", "/board/{board}/status", boards.set_status),
    ("POST", "/board/{board}/event", boards.add_event), ("POST", "/phase", boards.end_phase),
    ("GET", "/asking", asking.asking), ("POST", "/teach", asking.teach),
    ("GET", "/audit", audit.audit), ("POST", "/undo", audit.undo),
    ("GET", "/broadcast", broadcasts.broadcasts), ("POST", "/broadcast", broadcasts.preview),
    ("GET", "/broadcast/{id}", broadcasts.progress_page), ("GET", "/broadcast/{id}/progress", broadcasts.progress_json),
    ("GET", "/progress.js", broadcasts.script),
    ("POST", "/confirm", pages.confirm), ("POST", "/cancel", pages.cancel),
)


def make_app(bot: Bot, settings: Settings | None = None) -> web.Application:
    """The staff web page for `bot` (its store, roles, clock and staff tools)."""
    from bot.admin import Admin

    app = web.Application(middlewares=[auth.signed_in], client_max_size=256 * 1024)
    app[ADMIN] = Admin(bot)
    app[SETTINGS] = settings or bot.settings
    app[FIRST_SEEN] = {}
    app.on_response_prepare.append(_headers)
    for method, path, handler in ROUTES:
        app.router.add_route(method, path, handler)
    return app


async def run_web(bot: Bot, settings: Settings, host: str, port: int, stop: asyncio.Event) -> None:
    """Serve the page on host:port until `stop` is set."""
    runner = web.AppRunner(make_app(bot, settings), access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        log.info("staff web page on http://%s:%d (links point at %s)", host, port, settings.web.url)
        await stop.wait()
    finally:
        await runner.cleanup()
