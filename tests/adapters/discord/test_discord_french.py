"""A French user on Discord, through discord.py against the fake Discord: French answers and French command descriptions."""

from __future__ import annotations

from bot.commands import COMMANDS
from bot.language import detect


async def test_a_french_dm_question_gets_a_french_answer_and_the_language_is_kept(adapter, fake, world):
    _, parent, _, _ = world
    await fake.send_dm(parent, "est-ce que l'école est ouverte lundi à peel?")
    sent = await fake.wait_sent(1)
    assert "lundi 7 octobre" in sent[0].content and "au 2 oct. 2019, 20 h" in sent[0].content
    await fake.interact(parent, "help")  # no words to tell by: the language remembered
    sent = await fake.wait_sent(2)
    assert "Commandes :" in sent[1].content and detect(sent[1].content) == "fr"


async def test_slash_language_sets_french_for_the_next_answers(adapter, fake, world):
    guild, parent, _, _ = world
    await fake.interact(parent, "language", {"language": "fr"}, guild=guild, locale="fr")
    await fake.interact(parent, "status", {"board": "tdsb", "date": "monday"}, guild=guild, locale="fr")
    sent = await fake.wait_sent(2)
    assert sent[0].ephemeral and sent[0].content.startswith("D'accord, je vous répondrai en français")
    assert sent[1].content.startswith("TDSB, lundi 7 octobre")


async def test_the_french_command_descriptions_come_from_the_registry(bot):
    """What a French Discord client shows for each slash command: the adapter's Translator reads the registry."""
    import discord
    from discord import app_commands

    from adapters.discord_bot.slash import RegistryTranslator, SlashCommands

    assert "language" in SlashCommands(bot).names
    translator = RegistryTranslator()
    where = app_commands.TranslationContextLocation.command_description
    for entry in COMMANDS:
        if entry.menu:
            text = await translator.translate(app_commands.locale_str(entry.description["en"], command=entry.name),
                                              discord.Locale.french, app_commands.TranslationContext(where, None))
            assert text == entry.description["fr"]
    assert dict((c.name, c.description["fr"]) for c in COMMANDS)["language"] == "Me répondre en anglais ou en français : /langue fr"


async def test_a_failure_is_apologised_for_in_the_users_language(adapter, fake, world, bot, monkeypatch):
    guild, parent, _, _ = world

    def broken(incoming):
        raise RuntimeError("a fault injected for the test")

    monkeypatch.setattr(bot, "handle", broken)
    await fake.interact(parent, "status", {"board": "tdsb"}, guild=guild, locale="fr")
    [sorry] = await fake.wait_sent(1)
    assert sorry.ephemeral and sorry.content == (
        "Désolé, quelque chose n'a pas fonctionné de mon côté. Réessayez dans un instant, ou envoyez /help.")
