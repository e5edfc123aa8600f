"""Staff tools through the same bot: changes, broadcasts, roles, audit, statistics.

Each staff command is declared with :func:`~bot.admin.permissions.staff_command` beside its function;
``register(bot)`` adds them all to the bot's command registry (:mod:`bot.commands`) when the bot is built.

Module map:

* :mod:`bot.admin.parsing` - words, dates and the errors a command answers with;
* :mod:`bot.admin.vocabulary` - the status, event and phase words staff write and read, per language;
* :mod:`bot.admin.permissions` - the staff commands' declarations (usage, rights needed), which
  ``register`` adds to the one command registry, and the one check applied before any of them runs;
* :mod:`bot.admin.plans` - staff actions as typed plans (who, board, when, before/after, recipients): one
  preview for chat, the command line and a web page, and the stored form /confirm reads back;
* :mod:`bot.admin.changes` - preview, /confirm (one transaction per change, with its audit
  row and undo record), /cancel, /undo;
* :mod:`bot.admin.statuses` - /setstatus (a plan);
* :mod:`bot.admin.knowledge_changes` - /addservice, /endservice, /addevent, /endphase, and undoing entries;
* :mod:`bot.admin.dispute_end` - /enddispute (a whole dispute has ended; /undo reopens it);
* :mod:`bot.admin.teaching` - /teach (answer cards from chat) and the `kb export` pack;
* :mod:`bot.admin.role_changes` - /grant, /revoke, /whoami, and the same from the command line;
* :mod:`bot.admin.broadcasting` - /broadcast (a plan, also `schoolbot broadcast`'s), /deliveries;
* :mod:`bot.admin.audit` - /audit and the audit table of `schoolbot audit`;
* :mod:`bot.admin.stats` - /stats and /unanswered;
* :mod:`bot.admin.web_link` - /web (a one-time sign-in link to the staff web page, also `schoolbot web-link`'s).
"""

from __future__ import annotations

from dataclasses import replace

from bot.admin import (  # noqa: F401 - they register
    broadcasting,
    dispute_end,
    knowledge_changes,
    role_changes,
    stats,
    teaching,
    web_link,
)
from bot.admin.audit import audit_entry, audit_table, format_audit
from bot.admin.broadcasting import progress_bar
from bot.admin.changes import Admin
from bot.admin.parsing import Denied, UsageProblem
from bot.admin.permissions import (
    PRIVATE_ONLY,
    REFUSAL,
    REGISTRY,
    StaffCommand,
    refusal,
    staff_command,
    usable_by,
    usage_line,
)
from bot.admin.role_changes import Operator, role_from_cli, whoami_text
from bot.admin.stats import stats_text
from bot.admin.teaching import export_pack
from bot.broadcast import BroadcastError
from bot.messages import Incoming, Reply
from bot.replies import say

__all__ = ["PRIVATE_ONLY", "REFUSAL", "Admin", "Operator", "audit_entry", "audit_table", "export_pack",
           "format_audit", "progress_bar", "register", "role_from_cli", "stats_text"]


def _reply(msg: Incoming, text: str) -> Reply:
    return Reply(text, msg.chat_id, private=True, meta={"intent": "admin"})


def _handler(admin: Admin, command: StaffCommand):
    def handle(bot, msg: Incoming, argument: str) -> list[Reply]:
        rights = admin.roles.rights_of(msg)
        language = bot.language_of(msg)
        refused = refusal(command, msg, rights, bot.dry_run, language)
        if refused is not None:
            return [_reply(msg, refused)]
        try:
            text = command.run(admin, msg, rights, argument.strip())
        except Denied as denied:
            text = denied.said(language)
        except UsageProblem as problem:
            text = f"{problem.said(language)}\n" + say("admin_usage", language, usage=usage_line(command, language))
        except BroadcastError as problem:
            text = problem.said(language)
        return [_reply(msg, text)]

    handle.__name__ = f"admin_{command.name}"
    return handle


@staff_command("admin", "/admin - this list")
def admin_help(admin: Admin, msg: Incoming, rights, argument: str) -> str:
    language = admin.language(msg)
    usages = [usage_line(c, language) for c in usable_by(rights) if c.name != "admin"]
    return say("admin_help", language, rights=rights.describe(language)) + "\n" + "\n".join(usages)


def register(bot) -> None:
    """Add the staff commands to the bot's command registry (bot.commands), each behind the one permission
    filter, and replace /whoami with one that also says how to become staff."""
    admin = Admin(bot)
    for command in REGISTRY.values():
        bot.commands.add(command.declared(_handler(admin, command)))

    def whoami(bot, msg: Incoming, argument: str) -> list[Reply]:
        return [_reply(msg, whoami_text(msg, admin.roles.rights_of(msg), bot.language_of(msg)))]

    bot.commands.add(replace(bot.commands.get("whoami"), handler=whoami), replacing=True)
