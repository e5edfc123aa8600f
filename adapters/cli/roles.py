"""`schoolbot grant`, `revoke`, `roles` and `audit`: staff roles and the audit log from the terminal.

Changes made here are the same changes as /grant and /revoke in chat, audited
as cli:<os user>, and /undo (or `schoolbot revoke`) takes them back.
"""

from __future__ import annotations

import argparse
import getpass
import json

from adapters.cli.common import open_from
from adapters.errors import UsageError


def _os_user() -> str:
    try:
        return getpass.getuser()
    except Exception:
        return "unknown"


def _admin(args: argparse.Namespace):
    from datetime import datetime

    from bot.admin import Admin, Operator
    from bot.app import build_bot

    settings, store = open_from(args)
    bot = build_bot(settings, store=store)
    return Admin(bot), Operator(_os_user(), datetime.now(bot.tz))


def _change(args: argparse.Namespace, kind: str) -> int:
    from bot.admin import Denied, UsageProblem, role_from_cli

    admin, operator = _admin(args)
    try:
        print(role_from_cli(admin, operator, kind, args.who, " ".join(args.role)))
    except (UsageProblem, Denied) as exc:
        raise UsageError(str(exc)) from None
    return 0


def cmd_grant(args: argparse.Namespace) -> int:
    if not args.role:
        raise UsageError("say which role: province, or one or more board ids (tdsb tcdsb)")
    return _change(args, "grant")


def cmd_revoke(args: argparse.Namespace) -> int:
    return _change(args, "revoke")


def cmd_roles(args: argparse.Namespace) -> int:
    from bot.roles import Roles

    settings, store = open_from(args)
    people = Roles(store, settings).everyone()
    if not people:
        print("Nobody has a staff role yet. Make yourself a province admin: schoolbot grant PLATFORM:USER_ID province "
              "(send /whoami to the bot to see your id; in `schoolbot chat` it is console:local).")
        return 0
    for rights in people:
        print(f"{rights.platform + ':' + rights.user_id:<32} {rights.describe()}")
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    from bot.admin import audit_entry, audit_table
    from bot.core import time_zone

    settings, store = open_from(args)
    rows = store.audit_rows(args.limit)
    if args.json:
        for row in reversed(rows):
            print(json.dumps(audit_entry(row), ensure_ascii=False, default=str))
        return 0
    if not rows:
        print("The audit log is empty.")
        return 0
    print(audit_table(rows, width=args.width, zone=time_zone(settings, store.knowledge())))
    print("when = the clock the bot reasoned with (a --now replay differs from the real time)")
    return 0


SUBCOMMANDS = ("grant", "revoke", "roles", "audit")  # the subcommands register() adds


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("grant", parents=[common], help="give someone a staff role (audited as cli:<you>)")
    p.add_argument("who", help="platform:user_id, e.g. telegram:12345 or console:local (they send /whoami)")
    p.add_argument("role", nargs="*", help="province, or one or more board ids (tdsb tcdsb)")
    p.set_defaults(func=cmd_grant)

    p = sub.add_parser("revoke", parents=[common], help="take back a role granted through the bot or the CLI")
    p.add_argument("who", help="platform:user_id")
    p.add_argument("role", nargs="*", help="only these board ids (default: the whole role)")
    p.set_defaults(func=cmd_revoke)

    p = sub.add_parser("roles", parents=[common], help="who has which staff role")
    p.set_defaults(func=cmd_roles)

    p = sub.add_parser("audit", parents=[common], help="the latest admin actions, as a table")
    p.add_argument("-n", "--limit", type=int, default=20)
    p.add_argument("--json", action="store_true", help="one JSON object per line, oldest first, for scripts")
    p.add_argument("--width", type=int, default=40, help="characters of each before/after shown")
    p.set_defaults(func=cmd_audit)
