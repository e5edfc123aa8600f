"""`schoolbot web-link ID`: a one-time sign-in link to the staff web page, for the operator.

The same link as /web in chat (bot/admin/web_link.py): it works once, within ten minutes, for a person with
a staff role. The page itself runs inside `schoolbot serve --web [HOST:]PORT` (adapters/cli/platforms.py).
"""

from __future__ import annotations

import argparse
import sys

from adapters.cli.common import open_from
from adapters.errors import UsageError

SUBCOMMANDS = ("web-link",)  # the subcommands register() adds
DEFAULT_HOST = "127.0.0.1"


def listen_address(value: str) -> tuple[str, int]:
    """"8080" -> ("127.0.0.1", 8080); "0.0.0.0:8080" -> ("0.0.0.0", 8080); a bad port is a UsageError."""
    host, _, port = value.rpartition(":")
    host = host.strip("[]") or DEFAULT_HOST
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise UsageError(f"--web {value!r}: give [HOST:]PORT, e.g. 8080 or 127.0.0.1:8080")
    return host, int(port)


def cmd_web_link(args: argparse.Namespace) -> int:
    from bot.admin.web_link import LINK_TTL, sign_in_link
    from bot.roles import Roles, parse_user

    settings, store = open_from(args)
    try:
        platform, user_id = parse_user(args.who)
        if not Roles(store, settings).rights(platform, user_id).is_admin:
            raise UsageError(f"{platform}:{user_id} has no staff role; give one first: "
                             f"`schoolbot grant {platform}:{user_id} BOARD` (or province)")
        print(sign_in_link(store, settings.web.url, platform, user_id))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    finally:
        store.close()
    print(f"It signs {platform}:{user_id} in once, within {int(LINK_TTL.total_seconds() // 60)} minutes, "
          f"on the page `schoolbot serve --web` runs ([web] url: {settings.web.url}).", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("web-link", parents=[common],
                       help="print a one-time sign-in link to the staff web page for a person with a staff role")
    p.add_argument("who", help="their platform user id, e.g. telegram:12345 or console:local")
    p.set_defaults(func=cmd_web_link)
