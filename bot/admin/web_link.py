"""/web: a one-time link that signs a staff member in to the staff web page (adapters/web/).

The link holds a random token; the database keeps only its hash (knowledge/web_access.py). It opens one
session, once, within ten minutes. ``schoolbot web-link ID`` makes the same link for the operator.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from bot.admin.changes import Admin
from bot.admin.permissions import staff_command
from bot.messages import Incoming
from bot.roles import Rights
from knowledge.store import utcnow
from knowledge.web_access import WebAccess

LINK_TTL = timedelta(minutes=10)
SIGN_IN_PATH = "/signin"


def sign_in_link(store, base_url: str, platform: str, user_id: str) -> str:
    """A new one-time sign-in link for this person (its token stored hashed, valid for LINK_TTL of real time)."""
    token = secrets.token_urlsafe(32)
    WebAccess(store).add_link(token, platform, user_id, utcnow(), LINK_TTL)
    return f"{base_url.rstrip('/')}{SIGN_IN_PATH}?token={token}"


@staff_command("web", "/web - a one-time link to the staff web page (works once, within 10 minutes)")
def web(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    link = sign_in_link(admin.store, admin.settings.web.url, msg.platform, msg.user_id)
    return admin.say(msg, "admin_web_link", link=link, minutes=int(LINK_TTL.total_seconds() // 60))
