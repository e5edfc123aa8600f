"""Who may run which staff command: their declarations, one filter applied before dispatch.

Each staff command is declared with :func:`staff_command`, stating its usage
and the rights it needs (errbot-style ACLs); ``bot.admin.register`` adds it to the
bot's command registry (:mod:`bot.commands`) when the bot is built. :func:`refusal` is the single
check every command passes before it runs: a role (by platform user id only),
a private chat, not a dry run, and the command's own level. Board-level rights
(this board or that one) are checked by the command once it knows the board.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.commands import PROVINCE, STAFF, Command, Handler
from bot.messages import ChatKind, Incoming
from bot.replies import say
from bot.roles import Rights


REFUSAL = ("Sorry, that command is only for school board staff and administrators, so I didn't do anything. "
           "You can still ask me anything about the job action; send /help for examples.")
PRIVATE_ONLY = "Admin commands work only in a private chat with me, not in groups. Nothing was changed."
DRY_RUN = "Admin commands don't work in a dry run; nothing was changed."

Run = Callable[..., str]  # run(admin, msg, rights, argument) -> reply text


@dataclass(frozen=True, slots=True)
class StaffCommand:
    name: str
    usage: str  # shown after a usage problem and in /admin
    needs: str  # STAFF or PROVINCE
    run: Run

    def declared(self, handler: Handler) -> Command:
        """This command in the bot's command registry, answered by `handler` (run behind the permission filter)."""
        written, _, description = " ".join(self.usage.split()).partition(" - ")
        return Command(self.name, written.removeprefix(f"/{self.name}").strip(), {"en": description or written},
                       private=True, menu=False, rights=self.needs, handler=handler, help=False)


REGISTRY: dict[str, StaffCommand] = {}


def staff_command(name: str, usage: str, needs: str = STAFF) -> Callable[[Run], Run]:
    """Register `run` as the staff command /name."""

    def register(run: Run) -> Run:
        REGISTRY[name] = StaffCommand(name, usage, needs, run)
        return run

    return register


def refusal(command: StaffCommand, msg: Incoming, rights: Rights, dry_run: bool, language: str = "en") -> str | None:
    """Why this person may not run this command here, or None when they may (in their language)."""
    if not rights.is_admin:
        return say("admin_refusal", language)
    if msg.chat_kind != ChatKind.PRIVATE:
        return say("admin_private_only", language)
    if dry_run:  # `schoolbot ask` and evaluations change nothing
        return say("admin_dry_run", language)
    if command.needs == PROVINCE and not rights.province:
        return say("admin_province_only", language, command=command.name)
    return None


def usage_line(command: StaffCommand, language: str = "en") -> str:
    """A command's usage line, in French when the wording has one ("usage_setstatus")."""
    key = f"usage_{command.name}"
    if language == "fr":
        from bot.replies import wording

        if wording().has_french(key):
            return say(key, "fr")
    return command.usage


def usable_by(rights: Rights) -> list[StaffCommand]:
    """The commands this person may run, in registration order."""
    return [c for c in REGISTRY.values() if c.needs == STAFF or rights.province]
