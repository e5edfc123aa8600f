"""Messages in DMs and server channels, through discord.py against the fake Discord."""

from __future__ import annotations

import asyncio
import logging

import discord

from tests.conftest import message
from tests.fakes.discord import NO_PINGS, Failure, mention, quiet, texts, transcript


async def test_asks_only_for_the_intents_it_needs(adapter, fake):
    intents = discord.Intents._from_value(int(fake.identify["intents"]))
    assert intents.guilds and intents.guild_messages and intents.dm_messages and intents.message_content
    assert not (intents.members or intents.presences or intents.guild_reactions or intents.voice_states)
    assert intents == discord.Intents(guilds=True, guild_messages=True, dm_messages=True, message_content=True)


async def test_does_not_register_commands_on_connect(adapter, fake):
    assert ("PUT", f"/applications/{fake.app_id}/commands") not in fake.requests
    assert fake.commands == {}


async def test_dm_question_and_answer(adapter, fake, world):
    _, parent, _, _ = world
    lines = []
    for question in ("is school open monday in peel?", "what about tdsb on friday?", "/board peel",
                     "do I need child care?"):
        before = len(fake.sent)
        await fake.send_dm(parent, question)
        await fake.wait_sent(before + 1)
        await quiet(0.05)
        lines.append(f"amira (DM): {question}")
        for reply in fake.sent[before:]:
            assert reply.kind == "message" and reply.channel_id == fake.dm_channels[parent.id]
            assert reply.reply_to is None  # a DM needs no reply reference
            assert reply.payload["flags"] & 4  # link previews suppressed
            lines.append("schoolbot: " + reply.content.replace("\n", "\n           "))
    answers = texts(fake.sent)
    assert answers[0].startswith("Peel DSB, Monday, October 7")
    assert answers[1].startswith("TDSB, tomorrow, Friday, October 4")
    assert any(a.startswith("Got it: your board is Peel District School Board") for a in answers)
    transcript(lines)


async def test_dm_remembers_the_board_between_messages(adapter, fake, world, store):
    _, parent, _, _ = world
    await fake.send_dm(parent, "/board tdsb")
    await fake.wait_sent(1)
    await fake.send_dm(parent, "is school open monday?")
    sent = await fake.wait_sent(2)
    assert sent[1].content.startswith("TDSB, Monday, October 7")
    assert store.get_user("discord", str(parent.id))["board"] == "tdsb"


async def test_dm_from_another_bot_is_ignored(adapter, fake, world):
    _, parent, _, other_bot = world
    await fake.send_dm(other_bot, "is school open monday in peel?")
    await fake.send_dm(parent, "/help")  # answered after the bot's message was (not) handled
    sent = await fake.wait_sent(1)
    await quiet()
    assert len(fake.sent) == 1 and sent[0].channel_id == fake.dm_channels[parent.id]


async def test_server_conversation(adapter, fake, world):
    guild, parent, moderator, other_bot = world
    general = guild.channel_id("general")
    lines = []

    async def post(user, text, expect: int, **kwargs) -> dict:
        before = len(fake.sent)
        shown = text.replace(mention(fake), "@schoolbot")
        shown = shown.replace(f"<@&{fake.role_id(guild, fake.bot_user.username)}>", "@schoolbot (the bot's role)")
        if kwargs.get("reply_to"):
            replied = fake.users[int(kwargs["reply_to"]["author"]["id"])].username
            shown = f"[replying to {replied}] {shown}"
        message = await fake.send_guild_message(guild, "general", user, text, **kwargs)
        lines.append(f"{user.username} (#general): {shown}")
        if expect:
            await fake.wait_sent(before + expect)
        await quiet(0.1)
        assert len(fake.sent) == before + expect, texts(fake.sent[before:])
        for reply in fake.sent[before:]:
            lines.append("schoolbot: " + reply.content.replace("\n", "\n           "))
        return message

    # Chatter without a mention: no reply.
    await post(parent, "is school open monday in peel? anyone know?", 0)
    # Another bot mentioning us: ignored.
    await post(other_bot, f"{mention(fake)} is school open monday in peel?", 0, mentions=(fake.bot_user,))
    # A mention: answered, as a reply to that message, without pinging the asker.
    asked = await post(parent, f"{mention(fake)} is school open monday in peel?", 1, mentions=(fake.bot_user,))
    answer = fake.sent[-1]
    assert answer.channel_id == general and answer.reply_to == int(asked["id"])
    assert answer.content.startswith("Peel DSB, Monday, October 7")
    assert answer.allowed_mentions == NO_PINGS  # no replied_user either
    # A reply to the bot's message is addressed too, with no mention needed.
    await post(moderator, "what services stopped?", 1, reply_to=answer.message)
    assert "service" in fake.sent[-1].content.lower()
    # Mentioning the bot's own role (what Discord's autocomplete often picks) also counts.
    role = fake.role_id(guild, fake.bot_user.username)
    await post(parent, f"<@&{role}> when could a full strike start?", 1, role_mentions=(role,))
    # A reply to someone else's message is chatter.
    await post(moderator, "thanks, that helps", 0, reply_to=asked)
    # The bot's own message coming back through the gateway is ignored.
    own = fake.sent[-1].message
    await fake.dispatch("MESSAGE_CREATE", {**own, "guild_id": str(guild.id), "content": f"{mention(fake)} /help"})
    await quiet()
    assert len(fake.sent) == 3
    transcript(lines)


async def test_mention_is_stripped_before_the_core(adapter, fake, world):
    guild, parent, _, _ = world
    await fake.send_guild_message(guild, "general", parent, f"{mention(fake)} /board peel", mentions=(fake.bot_user,))
    sent = await fake.wait_sent(1)
    assert sent[0].content.startswith("Got it: your board is Peel District School Board")


async def test_subscribe_by_mention_needs_a_server_admin(adapter, fake, world, store):
    guild, parent, moderator, _ = world
    chat = f"channel:{guild.channel_id('announcements')}"
    await fake.send_guild_message(guild, "announcements", parent, f"{mention(fake)} /subscribe all",
                                  mentions=(fake.bot_user,))
    sent = await fake.wait_sent(1)
    assert sent[0].content.startswith("Only this server's admins")
    assert store.subscriptions_of("discord", chat) == []
    await fake.send_guild_message(guild, "announcements", moderator, f"{mention(fake)} /subscribe all",
                                  mentions=(fake.bot_user,))
    sent = await fake.wait_sent(2)
    assert sent[1].content.startswith("This channel will now get official updates for all boards")
    assert store.subscriptions_of("discord", chat) == ["all"]


async def test_a_3000_character_answer_is_split_in_two(adapter, fake, world, store, bot, put_status, long_summary):
    _, parent, _, _ = world
    put_status("tdsb", long_summary)
    whole = bot.handle(message("/status tdsb monday"))[0].text
    assert 3000 <= len(whole) < 4000

    await fake.send_dm(parent, "/status tdsb monday")
    sent = await fake.wait_sent(2)
    await quiet()
    assert len(fake.sent) == 2
    assert all(len(s.content) <= 2000 for s in sent)
    assert sent[0].content.endswith(".")  # cut at a sentence end, not mid-word
    assert " ".join(s.content for s in sent).split() == whole.split()


async def test_everyone_in_knowledge_or_user_text_never_pings(adapter, fake, world, store, put_status):
    guild, parent, _, _ = world
    role = fake.role_id(guild, "Moderators")
    put_status("pdsb", f"@everyone @here <@&{role}> <@{parent.id}> schools are open.")
    await fake.send_guild_message(guild, "general", parent, f"{mention(fake)} is school open monday in peel?",
                                  mentions=(fake.bot_user,))
    await fake.send_dm(parent, "/status pdsb monday")
    await fake.interact(parent, "status", {"board": "pdsb", "date": "monday"}, guild=guild)
    await fake.interact(parent, "board", {"name": "@everyone"}, guild=guild)
    await fake.send_guild_message(guild, "general", parent, f"{mention(fake)} /board @here", mentions=(fake.bot_user,))
    sent = await fake.wait_sent(5)
    assert sum("@everyone @here" in s.content for s in sent) == 3
    assert "@everyone" in sent[3].content and "@here" in sent[4].content  # echoed back, harmlessly
    for s in sent:
        assert s.allowed_mentions == {"parse": []}  # no everyone, no roles, no users, no replied user


async def test_a_failure_handling_one_message_is_logged_and_the_bot_goes_on(adapter, fake, world, caplog):
    guild, parent, _, _ = world
    fake.failures[guild.channel_id("general")] = Failure(403, 50013, "Missing Permissions")
    with caplog.at_level(logging.ERROR, logger="schoolbot.discord"):
        await fake.send_guild_message(guild, "general", parent, f"{mention(fake)} is school open monday in peel?",
                                      mentions=(fake.bot_user,))
        await fake.send_dm(parent, "is school open monday in peel?")
        sent = await fake.wait_sent(1)
        for _ in range(100):
            if any("failed to handle Discord message" in r.getMessage() for r in caplog.records):
                break
            await asyncio.sleep(0.05)
    assert sent[0].channel_id == fake.dm_channels[parent.id]
    assert any("failed to handle Discord message" in r.getMessage() for r in caplog.records)
    # Still connected and answering in the channel once it works again.
    await fake.send_guild_message(guild, "general", parent, f"{mention(fake)} /help", mentions=(fake.bot_user,))
    sent = await fake.wait_sent(2)
    assert sent[1].channel_id == guild.channel_id("general")
    assert not adapter.client.is_closed()


async def test_empty_and_system_messages_are_harmless(adapter, fake, world):
    guild, parent, _, _ = world
    join = fake._base_message(parent, guild.channel_id("general"), "", at=None)
    await fake.dispatch("MESSAGE_CREATE", {**join, "guild_id": str(guild.id), "type": 7})  # member joined
    await fake.send_guild_message(guild, "general", parent, mention(fake), mentions=(fake.bot_user,))
    sent = await fake.wait_sent(1)
    await quiet()
    assert len(fake.sent) == 1 and sent[0].content.startswith("Send me a question")
