"""Choice buttons on Discord: an offered choice comes with buttons; the asker's press is answered and logged."""

from __future__ import annotations

import asyncio

from adapters.choices import NOT_YOURS
from adapters.discord_bot.choices import MAX_LABEL, choice_view, label
from adapters.discord_bot.client import DiscordAdapter
from adapters.discord_bot.runner import run_discord
from bot.messages import Reply
from tests.conftest import CLOSE_QUESTION, two_close_cards
from tests.fakes.discord import mention, quiet


def _logged(store) -> list[str]:
    store.flush_questions()
    return [row[0] for row in store.conn.execute("SELECT text FROM question_log")]


def _buttons(sent) -> list[dict]:
    return [c for row in sent.payload.get("components", []) for c in row["components"]]


async def test_a_choice_in_a_dm_gets_buttons_and_a_press_is_answered_and_logged(adapter, fake, world, store):
    _, parent, _, _ = world
    two_close_cards(store)
    await fake.send_dm(parent, CLOSE_QUESTION)
    [offer] = await fake.wait_sent(1)
    assert offer.content.startswith("Do you mean:\n1. Question about ea ")
    buttons = _buttons(offer)
    assert [b["custom_id"] for b in buttons] == [f"choice:1:{parent.id}", f"choice:2:{parent.id}"]
    assert [b["label"] for b in buttons] == offer.content.splitlines()[1:3]
    assert offer.content.endswith("Tap one, or send 1 or 2.")

    await fake.press(parent, offer, 2)
    sent = await fake.wait_sent(3)
    update, answer = sent[1], sent[2]
    assert update.kind == "update" and update.payload["components"] == []  # the buttons were taken off
    picked = {c.question: c for c in store.knowledge().cards}[buttons[1]["label"].removeprefix("2. ")]
    assert answer.kind == "followup" and answer.content.startswith(picked.answer) and not answer.ephemeral
    assert f"[picked 2: {picked.id}] {CLOSE_QUESTION}" in _logged(store)


async def test_in_a_server_only_the_asker_can_press(adapter, fake, world, store):
    guild, parent, moderator, _ = world
    two_close_cards(store)
    await fake.send_guild_message(guild, "general", parent, f"{mention(fake)} {CLOSE_QUESTION}", mentions=(fake.bot_user,))
    [offer] = await fake.wait_sent(1)
    assert offer.reply_to is not None and len(_buttons(offer)) == 2

    await fake.press(moderator, offer, 1)  # someone else's choice
    refused = (await fake.wait_sent(2))[1]
    assert refused.content == NOT_YOURS and refused.ephemeral
    await fake.press(parent, offer, 1)
    answer = (await fake.wait_sent(4))[3]
    picked = {c.question: c for c in store.knowledge().cards}[_buttons(offer)[0]["label"].removeprefix("1. ")]
    assert answer.content.startswith(picked.answer)
    assert f"[picked 1: {picked.id}] {CLOSE_QUESTION}" in _logged(store)
    await quiet(0.05)
    assert len(fake.sent) == 4


def test_labels_fit_a_button_and_only_choices_get_buttons():
    long = "Will my child with an individual education plan still get support from the EA at lunch, recess and on trips?"
    assert len(label(1, long)) == MAX_LABEL and label(1, long).endswith("…") and label(2, "Short?") == "2. Short?"
    plain = Reply("Peel is open.", "dm:1", meta={"intent": "school_status"})
    assert choice_view(plain, 1, None) is None


async def test_a_press_after_a_restart_is_still_the_pick(adapter, fake, world, store, bot, discord_settings):
    _, parent, _, _ = world
    two_close_cards(store)
    await fake.send_dm(parent, CLOSE_QUESTION)
    [offer] = await fake.wait_sent(1)
    await adapter.client.close()

    fake.ready.clear()
    again = DiscordAdapter(bot, discord_settings, client_options={"guild_ready_timeout": 0.05})
    task = asyncio.create_task(run_discord(bot, discord_settings, adapter=again))
    try:
        await asyncio.wait_for(again.client.wait_until_ready(), 10)
        await fake.press(parent, offer, 1)
        answer = (await fake.wait_sent(3))[2]
    finally:
        await again.client.close()
        await asyncio.wait_for(task, 10)
    first = {c.question: c for c in store.knowledge().cards}[_buttons(offer)[0]["label"].removeprefix("1. ")]
    assert answer.content.startswith(first.answer)
