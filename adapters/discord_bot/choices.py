"""Choice buttons on Discord: the core's offered choices as buttons; a press is the asker's pick.

When the core offers a choice, its reply carries ``meta["choices"]`` (card ids)
and ``meta["choice_labels"]`` (their questions). :func:`choice_view` puts one
button per choice under the reply, each with the custom id
``choice:<number>:<asker's user id>``. The buttons are a ``DynamicItem``
(:func:`choice_buttons`), so a press is understood from its custom id alone,
after a restart too: only the asker may press (others are told so, privately),
the buttons are taken off, and the number goes through the core's one entry
point as the asker's message in that chat, so the core answers the pick and
logs it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from adapters.choices import button_label, not_yours, offered
from adapters.discord_bot.convert import interaction_to_incoming
from adapters.discord_bot.sender import no_mentions, respond
from adapters.redaction import redacting_logger
from bot.messages import Reply

if TYPE_CHECKING:
    from bot.core import Bot

log = redacting_logger("schoolbot.discord")

TEMPLATE = re.compile(r"choice:(?P<number>[0-9]{1,2}):(?P<asker>[0-9]{1,20})")
MAX_LABEL = 80  # Discord's limit for a button's label


def label(number: int, text: str) -> str:
    return button_label(number, text, MAX_LABEL)


def choice_buttons(core: Bot) -> type[discord.ui.DynamicItem]:
    """The button class that answers presses through `core` (register it with ``client.add_dynamic_items``)."""

    class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):
        def __init__(self, number: int, asker: int, text: str = "") -> None:
            super().__init__(discord.ui.Button(label=label(number, text) if text else str(number),
                                               style=discord.ButtonStyle.secondary,
                                               custom_id=f"choice:{number}:{asker}"))
            self.number, self.asker = number, asker

        @classmethod
        async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                                 match: re.Match[str]) -> ChoiceButton:
            button = cls(int(match["number"]), int(match["asker"]))
            button.item.label = item.label
            return button

        async def interaction_check(self, interaction: discord.Interaction) -> bool:
            if interaction.user.id == self.asker:
                return True
            await respond(interaction, not_yours(core, interaction_to_incoming(interaction, "")), ephemeral=True)
            return False

        async def callback(self, interaction: discord.Interaction) -> None:
            replies = core.handle(interaction_to_incoming(interaction, str(self.number)))
            await interaction.response.edit_message(view=None, allowed_mentions=no_mentions())  # buttons off
            for reply in replies:
                await respond(interaction, reply.text, ephemeral=reply.private)

    return ChoiceButton


def choice_view(reply: Reply, asker: int, buttons: type[discord.ui.DynamicItem] | None) -> discord.ui.View | None:
    """The buttons to send under a reply that offers a choice (None for any other reply)."""
    labels = offered(reply)
    if buttons is None or not labels:
        return None
    view = discord.ui.View(timeout=None)
    for number, text in enumerate(labels, start=1):
        view.add_item(buttons(number, asker, text))
    return view
