"""The Discord client's locale (interaction.locale) reaches the core as a first guess of the user's language."""

from __future__ import annotations


async def test_a_french_client_makes_a_city_mean_its_french_board(adapter, fake, world):
    guild, parent, _, _ = world
    await fake.interact(parent, "status", {"board": "ottawa"}, guild=guild, locale="fr")
    await fake.interact(parent, "status", {"board": "ottawa"}, guild=guild, locale="en-US")
    sent = await fake.wait_sent(2)
    assert sent[0].content.startswith("CEPEO, aujourd'hui")
    assert sent[1].content.startswith("OCDSB, today")
