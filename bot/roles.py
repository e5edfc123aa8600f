"""Who may do what: rights come from the platform user id only, never a display name.

Three roles:

* **province admin**: every board, may grant and revoke roles through the bot;
* **board staff**: only the boards named for them;
* **community admin**: a group's own administrators, as the platform reports
  them (:attr:`bot.messages.Incoming.group_admin`); they may subscribe their
  group to a board's updates (the core checks that) and have no other rights.

Roles come from settings (``[roles] province_admins`` and ``board_staff``) and
from grants made through the bot by a province admin, which are stored in the
``role_grants`` table. Settings roles cannot be revoked through the bot.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from bot.messages import Incoming
from bot.settings import Settings, SettingsError, parse_board_staff, parse_user_ref
from knowledge.model import ALL_BOARDS
from knowledge.store import Store, utcnow

PROVINCE = "province"
STAFF = "staff"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS role_grants (
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,            -- 'province' or 'staff'
    boards TEXT NOT NULL,          -- JSON list of board ids (staff)
    granted_by TEXT NOT NULL,      -- 'platform:user_id'
    at TEXT NOT NULL,
    PRIMARY KEY (platform, user_id)
)
"""


@dataclass(frozen=True, slots=True)
class Rights:
    """What one platform user may do."""

    platform: str
    user_id: str
    province: bool = False
    boards: frozenset[str] = field(default_factory=frozenset)

    @property
    def is_admin(self) -> bool:
        """Province admin or staff of at least one board."""
        return self.province or bool(self.boards)

    def may_manage(self, board_id: str) -> bool:
        """May change knowledge for, and broadcast to, this board ('all' needs a province admin)."""
        if self.province:
            return True
        return board_id != ALL_BOARDS and board_id in self.boards

    def describe(self) -> str:
        if self.province:
            return "province admin (all boards)"
        if self.boards:
            return "board staff for " + ", ".join(sorted(self.boards))
        return "no admin role"


def ensure_tables(store: Store) -> None:
    with store.lock:
        store.conn.execute(_SCHEMA)


class Roles:
    """Rights from settings plus grants stored in SQLite."""

    def __init__(self, store: Store, settings: Settings):
        self.store = store
        self.province_admins: set[tuple[str, str]] = set()
        self.staff: dict[tuple[str, str], set[str]] = {}
        for entry in settings.roles.province_admins:
            self.province_admins.add(parse_user_ref(entry, "[roles] province_admins"))
        for entry in settings.roles.board_staff:
            platform, user_id, boards = parse_board_staff(entry)
            self.staff.setdefault((platform, user_id), set()).update(boards)
        ensure_tables(store)

    # -------------------------------------------------------------- lookups
    def rights(self, platform: str, user_id: str) -> Rights:
        key = (platform.lower(), str(user_id))
        province = key in self.province_admins
        boards = set(self.staff.get(key, ()))
        grant = self.grant_of(*key)
        if grant is not None:
            if grant["role"] == PROVINCE:
                province = True
            else:
                boards.update(grant["boards"])
        return Rights(key[0], key[1], province, frozenset(boards))

    def rights_of(self, msg: Incoming) -> Rights:
        """Rights of the sender of a message: by platform and user id only."""
        return self.rights(msg.platform, msg.user_id)

    def settings_rights(self, platform: str, user_id: str) -> Rights:
        key = (platform.lower(), str(user_id))
        return Rights(key[0], key[1], key in self.province_admins, frozenset(self.staff.get(key, ())))

    def grant_of(self, platform: str, user_id: str) -> dict | None:
        row = self.store.conn.execute(
            "SELECT role, boards, granted_by, at FROM role_grants WHERE platform = ? AND user_id = ?",
            (platform.lower(), str(user_id)),
        ).fetchone()
        if row is None:
            return None
        return {"role": row[0], "boards": json.loads(row[1]), "granted_by": row[2], "at": row[3]}

    # -------------------------------------------------------------- changes
    def grant(self, platform: str, user_id: str, role: str, boards: list[str], by: str,
              at: datetime | None = None) -> dict | None:
        """Give a role (province, or staff for more boards). Returns the grant before the change."""
        before = self.grant_of(platform, user_id)
        if role == PROVINCE:
            new_role, new_boards = PROVINCE, []
        else:
            if before is not None and before["role"] == PROVINCE:
                new_role, new_boards = PROVINCE, []
            else:
                merged = set(before["boards"]) if before else set()
                merged.update(boards)
                new_role, new_boards = STAFF, sorted(merged)
        with self.store.lock:
            self.store.conn.execute(
                "INSERT INTO role_grants (platform, user_id, role, boards, granted_by, at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(platform, user_id) DO UPDATE SET role = excluded.role, boards = excluded.boards, "
                "granted_by = excluded.granted_by, at = excluded.at",
                (platform.lower(), str(user_id), new_role, json.dumps(new_boards), by, (at or utcnow()).isoformat()),
            )
        return before

    def revoke(self, platform: str, user_id: str, boards: list[str] | None = None) -> dict | None:
        """Take back roles granted through the bot (all of them, or some boards). Returns the grant before."""
        before = self.grant_of(platform, user_id)
        if before is None:
            return None
        with self.store.lock:
            if boards and before["role"] == STAFF:
                left = sorted(set(before["boards"]) - set(boards))
                if left:
                    self.store.conn.execute(
                        "UPDATE role_grants SET boards = ? WHERE platform = ? AND user_id = ?",
                        (json.dumps(left), platform.lower(), str(user_id)),
                    )
                    return before
            self.store.conn.execute(
                "DELETE FROM role_grants WHERE platform = ? AND user_id = ?", (platform.lower(), str(user_id))
            )
        return before


def parse_user(text: str) -> tuple[str, str]:
    """'telegram:12345' -> ('telegram', '12345'); raises ValueError with a readable message."""
    try:
        return parse_user_ref(text, "user")
    except SettingsError:
        raise ValueError(f"{text!r} is not a user: write platform:user_id, e.g. telegram:12345 "
                         "(the user can send /whoami to see theirs)") from None
