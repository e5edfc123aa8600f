"""The slash commands, generated from the core's command registry (:mod:`bot.commands`).

:class:`SlashCommands` holds one ``app_commands.Command`` per registry command
listed in the menus (``menu=True``); each option is a string, with board
suggestions when the registry marks the argument ``boards=True``. Running one
sends the same text command to the core that a parent could type
("/status tdsb monday"); the answer is ephemeral when the command or the reply
is private. :class:`RegistryTranslator` gives Discord the registry's
descriptions in the other languages (French for ``discord.Locale.french``).
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Optional

import discord
from discord import app_commands

from adapters.discord_bot.convert import command_text, interaction_to_incoming
from adapters.discord_bot.sender import respond
from adapters.redaction import redacting_logger
from bot.commands import COMMANDS, LANGUAGES, Command
from bot.commands import command as registry_command
from bot.language import from_locale
from bot.messages import Reply
from bot.replies import say
from bot.text import normalize

if TYPE_CHECKING:
    from bot.core import Bot

log = redacting_logger("schoolbot.discord")

MAX_CHOICES = 25  # Discord's limit for autocomplete choices
MAX_DESCRIPTION = 100  # Discord's limit for a command's or an option's description
ALL_BOARDS = {"en": "All boards", "fr": "Tous les conseils"}  # the label of the choice "all"


def _text(description: dict[str, str], command: str, argument: str = "") -> app_commands.locale_str:
    """The English text, marked with where it comes from in the registry (for the translator)."""
    return app_commands.locale_str(description["en"][:MAX_DESCRIPTION], command=command, argument=argument)


def language_of(locale: discord.Locale) -> str:
    """The registry's language for a Discord locale ("fr" for French), English otherwise."""
    language = locale.value.split("-")[0]
    return language if language in LANGUAGES else "en"


class SlashCommands:
    """The registry's commands as Discord slash commands, answered through the core's one entry point."""

    def __init__(self, core: Bot | None):
        self.core = core
        self.commands: list[app_commands.Command] = [self._slash(c) for c in COMMANDS if c.menu]

    def install(self, tree: app_commands.CommandTree) -> None:
        for slash in self.commands:
            tree.add_command(slash)
        tree.on_error = self.on_error

    @property
    def names(self) -> list[str]:
        return [slash.name for slash in self.commands]

    # ------------------------------------------------------------ building
    def _slash(self, command: Command) -> app_commands.Command:
        async def callback(interaction: discord.Interaction, **options: str | None) -> None:
            await self.run(interaction, command, options)

        parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        annotation=discord.Interaction)]
        for argument in command.arguments:
            parameters.append(inspect.Parameter(
                argument.name, inspect.Parameter.KEYWORD_ONLY,
                annotation=str if argument.required else Optional[str],  # noqa: UP045 - discord.py reads it
                default=inspect.Parameter.empty if argument.required else None,
            ))
        callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        callback.__name__ = callback.__qualname__ = f"slash_{command.name}"
        if command.arguments:
            app_commands.describe(**{a.name: _text(a.description, command.name, a.name) for a in command.arguments})(callback)
            suggested = {a.name: self._board_suggestions(include_all="|all" in command.usage)
                         for a in command.arguments if a.boards}
            if suggested:
                app_commands.autocomplete(**suggested)(callback)
        app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)(callback)
        app_commands.allowed_installs(guilds=True, users=False)(callback)
        return app_commands.Command(name=command.name, description=_text(command.description, command.name),
                                    callback=callback)

    def _board_suggestions(self, *, include_all: bool):
        async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return self.choices(current, include_all=include_all, language=language_of(interaction.locale))

        return suggest

    # ------------------------------------------------------------ running
    def choices(self, current: str, *, include_all: bool = False,
                language: str = "en") -> list[app_commands.Choice[str]]:
        """Board suggestions for what was typed so far, ranked by the core's board finder."""
        if self.core is None:
            return []
        found = [app_commands.Choice(name=f"{b.name} ({b.id})"[:MAX_DESCRIPTION], value=b.id)
                 for b in self.core.boards.suggest(current, MAX_CHOICES)]
        query = normalize(current or "")
        label = ALL_BOARDS.get(language, ALL_BOARDS["en"])
        if include_all and (not query or query == "all" or any(normalize(t).startswith(query) for t in ALL_BOARDS.values())):
            found.insert(0, app_commands.Choice(name=label, value="all"))
        return found[:MAX_CHOICES]

    async def run(self, interaction: discord.Interaction, command: Command, options: dict[str, str | None]) -> None:
        """Ask the core as if the user had typed the command, and answer the interaction."""
        text = command_text(command.name, *(options.get(a.name) for a in command.arguments))
        incoming = interaction_to_incoming(interaction, text)
        replies = self.core.handle(incoming) if self.core is not None else []
        if not replies:  # an interaction must be answered, or Discord shows "The application did not respond"
            replies = [Reply(say("send_help", self._language(incoming)), incoming.chat_id, private=True)]
        for reply in replies:
            await respond(interaction, reply.text, ephemeral=reply.private or command.private)

    def _language(self, incoming) -> str:
        """The user's language (chosen, remembered, else their Discord client's)."""
        return self.core.language_of(incoming) if self.core is not None else from_locale(incoming.language) or "en"

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        name = interaction.command.name if interaction.command else "?"
        log.error("failed to handle /%s from Discord user %s", name, interaction.user.id,
                  exc_info=(type(error), error, error.__traceback__))
        try:
            await respond(interaction, say("something_went_wrong", language_of(interaction.locale)), ephemeral=True)
        except Exception:
            log.warning("could not tell Discord user %s about the failure", interaction.user.id)


class RegistryTranslator(app_commands.Translator):
    """Command and option descriptions in the user's language, from the registry.

    English is the default Discord shows; a locale whose language the registry
    has ("fr" for ``discord.Locale.french``) gets that text. Names stay as they
    are: they are what users type and what the help text shows.
    """

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        language = language_of(locale)
        if language == "en":
            return None
        command = registry_command(string.extras.get("command", ""))
        if command is None:
            return None
        if context.location is app_commands.TranslationContextLocation.command_description:
            text = command.description.get(language)
        elif context.location is app_commands.TranslationContextLocation.parameter_description:
            argument = next((a for a in command.arguments if a.name == string.extras.get("argument")), None)
            text = argument.description.get(language) if argument is not None else None
        else:
            return None
        return text[:MAX_DESCRIPTION] if text else None
