"""Sign-in links and sessions of the staff web page, stored as hashes of their secrets.

A link (``/web`` in chat, ``schoolbot web-link``) holds a random token; the database keeps its SHA-256,
who it signs in and until when, and when it was used: a link opens one session, once, before it expires.
A session is the same: the browser holds the secret (a cookie), the database its hash, with the CSRF token
its forms carry and its expiry. Times are UTC, real time (never the bot's replayed clock).

The secrets themselves are made by the caller (``secrets.token_urlsafe``); this module only stores and checks.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta


def digest(secret: str) -> str:
    """What the database keeps of a secret: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class WebSession:
    platform: str
    user_id: str
    csrf: str
    expires: datetime

    @property
    def actor(self) -> str:
        return f"{self.platform}:{self.user_id}"


class WebAccess:
    """The `web_links` and `web_sessions` tables (knowledge/schema.py)."""

    def __init__(self, store):
        self.store = store

    # ---------------------------------------------------------------- links
    def add_link(self, token: str, platform: str, user_id: str, now: datetime, ttl: timedelta) -> None:
        with self.store.transaction(knowledge=False) as conn:
            conn.execute("INSERT INTO web_links (hash, platform, user_id, created, expires) VALUES (?, ?, ?, ?, ?)",
                         (digest(token), platform, user_id, now.isoformat(), (now + ttl).isoformat()))

    def link_holder(self, token: str, now: datetime) -> tuple[str, str] | None:
        """Whom an unused, unexpired link signs in (without using it), else None."""
        row = self.store.conn.execute("SELECT platform, user_id, expires, used FROM web_links WHERE hash = ?",
                                      (digest(token),)).fetchone()
        if row is None or row[3] is not None or datetime.fromisoformat(row[2]) <= now:
            return None
        return row[0], row[1]

    def use_link(self, token: str, now: datetime) -> tuple[str, str] | None:
        """Mark a link used and say whom it signs in; None when it is unknown, used or expired (a link works once,
        even with two browsers opening it at the same moment: the update is the claim)."""
        with self.store.transaction(knowledge=False) as conn:
            row = conn.execute(
                "UPDATE web_links SET used = ? WHERE hash = ? AND used IS NULL AND expires > ? "
                "RETURNING platform, user_id", (now.isoformat(), digest(token), now.isoformat())).fetchone()
        return (row[0], row[1]) if row else None

    # ------------------------------------------------------------- sessions
    def add_session(self, secret: str, platform: str, user_id: str, csrf: str, now: datetime,
                    ttl: timedelta) -> None:
        with self.store.transaction(knowledge=False) as conn:
            conn.execute("DELETE FROM web_sessions WHERE expires <= ?", (now.isoformat(),))  # keep the table small
            conn.execute("DELETE FROM web_links WHERE expires <= ?", ((now - ttl).isoformat(),))
            conn.execute("INSERT INTO web_sessions (hash, platform, user_id, csrf, created, expires) "
                         "VALUES (?, ?, ?, ?, ?, ?)",
                         (digest(secret), platform, user_id, csrf, now.isoformat(), (now + ttl).isoformat()))

    def session(self, secret: str, now: datetime) -> WebSession | None:
        """The live session a cookie holds (not signed out, not expired), else None."""
        row = self.store.conn.execute(
            "SELECT platform, user_id, csrf, expires FROM web_sessions WHERE hash = ? AND ended IS NULL",
            (digest(secret),)).fetchone()
        if row is None or datetime.fromisoformat(row[3]) <= now:
            return None
        return WebSession(row[0], row[1], row[2], datetime.fromisoformat(row[3]))

    def end_session(self, secret: str, now: datetime) -> None:
        with self.store.transaction(knowledge=False) as conn:
            conn.execute("UPDATE web_sessions SET ended = ? WHERE hash = ? AND ended IS NULL",
                         (now.isoformat(), digest(secret)))
