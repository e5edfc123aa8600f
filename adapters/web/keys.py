"""What the staff web page's handlers find on the application (typed keys)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

if TYPE_CHECKING:  # pragma: no cover
    from bot.admin.changes import Admin
    from bot.settings import Settings

ADMIN: web.AppKey[Admin] = web.AppKey("admin")  # the staff tools, with the bot, its store and roles
SETTINGS: web.AppKey[Settings] = web.AppKey("settings")
# broadcast id -> (monotonic time, messages done) when this process first showed its progress: the rate's start
FIRST_SEEN: web.AppKey[dict[int, tuple[float, int]]] = web.AppKey("first_seen")

# The signed-in person of a request (adapters.web.auth.Staff); a typed key where aiohttp has them (3.12+).
STAFF = web.RequestKey("staff") if hasattr(web, "RequestKey") else "staff"
