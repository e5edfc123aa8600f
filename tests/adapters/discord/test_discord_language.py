"""The Discord client's locale (interaction.locale) reaches the core as a first guess of the user's language."""

from __future__ import annotations


async def test_a_french_client_makes_a_city_mean_its_french_board(adapter, fake, world):
    guild, parent, _, _ = world
    await fake.interact(parent, "status", {"board": "ottawa"}, guild=guild, locale="fr")
    await fake.interact(parent, "status", {"board": "ottawa"}, guild=guild, locale="en-US")
    sent = await fake.wait_sent(2)
    assert "Conseil des écoles publiques de l'Est de l'Ontario" in sent[0].content
    assert "Ottawa-Carleton District School Board" in sent[1].content
