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

from dataclasses import dataclass, field
from datetime import datetime

from bot.messages import Incoming
from bot.settings import Settings, SettingsError, parse_board_staff, parse_user_ref
from knowledge.model import ALL_BOARDS
from knowledge.store import Store, utcnow

PROVINCE = "province"
STAFF = "staff"

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

    def describe(self, language: str = "en") -> str:
        """"province admin (all boards)", "board staff for tdsb", "no admin role" (config/wording.yaml)."""
        from bot.replies import say

        if self.province:
            return say("rights_province", language)
        if self.boards:
            return say("rights_staff", language, boards=", ".join(sorted(self.boards)))
        return say("rights_none", language)


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
        return self.store.admin.grant_of(platform.lower(), str(user_id))

    # -------------------------------------------------------------- changes
    def granted(self, platform: str, user_id: str, role: str, boards: list[str], by: str,
                at: datetime | None = None) -> dict:
        """The grant a person would have after being given a role (province, or staff for more boards)."""
        before = self.grant_of(platform, user_id)
        if role == PROVINCE or (before is not None and before["role"] == PROVINCE):
            new_role, new_boards = PROVINCE, []
        else:
            new_role, new_boards = STAFF, sorted(set(before["boards"] if before else ()) | set(boards))
        return {"role": new_role, "boards": new_boards, "granted_by": by, "at": (at or utcnow()).isoformat()}

    def revoked(self, platform: str, user_id: str, boards: list[str] | None = None) -> dict | None:
        """The grant left after taking back some boards (or everything: None)."""
        before = self.grant_of(platform, user_id)
        if before is None or not boards or before["role"] != STAFF:
            return None
        left = sorted(set(before["boards"]) - set(boards))
        return {**before, "boards": left} if left else None

    def grant(self, platform: str, user_id: str, role: str, boards: list[str], by: str,
              at: datetime | None = None) -> dict | None:
        """Give a role. Returns the grant before the change."""
        before = self.grant_of(platform, user_id)
        self.store.admin.set_grant(platform.lower(), str(user_id), self.granted(platform, user_id, role, boards, by, at))
        return before

    def revoke(self, platform: str, user_id: str, boards: list[str] | None = None) -> dict | None:
        """Take back roles granted through the bot (all of them, or some boards). Returns the grant before."""
        before = self.grant_of(platform, user_id)
        if before is not None:
            self.store.admin.set_grant(platform.lower(), str(user_id), self.revoked(platform, user_id, boards))
        return before

    def restore(self, platform: str, user_id: str, grant: dict | None) -> None:
        """Put a person's grant back as it was (undo)."""
        self.store.admin.set_grant(platform.lower(), str(user_id), grant)

    def everyone(self) -> list[Rights]:
        """Every person with a role, from the settings and from grants."""
        keys = set(self.province_admins) | set(self.staff)
        keys |= {(g["platform"], g["user_id"]) for g in self.store.admin.all_grants()}
        return [self.rights(*key) for key in sorted(keys)]


def parse_user(text: str) -> tuple[str, str]:
    """'telegram:12345' -> ('telegram', '12345'); raises ValueError with a readable message."""
    try:
        return parse_user_ref(text, "user")
    except SettingsError:
        raise ValueError(f"{text!r} is not a user: write platform:user_id, e.g. telegram:12345 "
                         "(the user can send /whoami to see theirs)") from None
