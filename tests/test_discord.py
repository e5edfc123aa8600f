"""The Discord adapter, driven through discord.py itself against a local fake of Discord.

discord.py's real Client logs in over HTTP, connects its gateway websocket and
receives MESSAGE_CREATE and INTERACTION_CREATE events from tests/fake_discord.py;
what it sends back is recorded there as the JSON Discord would receive.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from datetime import date, datetime

import discord
import pytest

from adapters import cli
from adapters.discord_bot import (
    COMMAND_NAMES,
    DiscordAdapter,
    DiscordSender,
    board_choices,
    run_discord,
)
from bot.messages import SendOutcome, SendStatus
from bot.settings import SettingsError
from knowledge.model import Status
from tests.conftest import TORONTO, message
from tests.fake_discord import Failure, FakeDiscord, Sent

NO_PINGS = {"parse": []}


# ----------------------------------------------------------------- fixtures
@pytest.fixture
async def fake(monkeypatch):
    server = FakeDiscord()
    await server.start()
    server.install(monkeypatch)
    yield server
    await server.stop()


@pytest.fixture
def world(fake):
    """A server "Peel Parents" with #general and #announcements; a parent, a moderator, another bot."""
    guild = fake.add_guild("Peel Parents", channels=("general", "announcements"))
    parent = fake.add_user("amira")
    moderator = fake.add_user("jordan")
    other_bot = fake.add_user("newsbot", bot=True)
    fake.add_member(guild, parent)
    fake.add_member(guild, moderator, "Moderators")
    fake.add_member(guild, other_bot)
    return guild, parent, moderator, other_bot


@pytest.fixture
def discord_settings(settings, fake):
    return settings.replace("discord", token=fake.token, dm_pace_seconds=0.0)


@pytest.fixture
async def adapter(bot, discord_settings, fake, world):
    """The bot connected to the fake Discord through run_discord, as `schoolbot serve` runs it."""
    # discord.py waits guild_ready_timeout (2 s) after the last GUILD_CREATE before READY; shorten it.
    adapter = DiscordAdapter(bot, discord_settings, client_options={"guild_ready_timeout": 0.05})
    task = asyncio.create_task(run_discord(bot, discord_settings, adapter=adapter))
    await asyncio.wait_for(fake.ready.wait(), 10)
    await asyncio.wait_for(adapter.client.wait_until_ready(), 10)
    yield adapter
    await adapter.client.close()
    await asyncio.wait_for(task, 10)
    # Whatever a test did: nothing the bot sent could ping anyone.
    for sent in fake.sent:
        if sent.kind != "autocomplete":
            assert sent.allowed_mentions == NO_PINGS, sent


def texts(sent: list[Sent]) -> list[str]:
    return [s.content for s in sent]


async def quiet(fake: FakeDiscord, seconds: float = 0.2) -> None:
    """Give the bot time to (wrongly) send something more."""
    await asyncio.sleep(seconds)


def mention(fake: FakeDiscord) -> str:
    return f"<@{fake.bot_user.id}>"


def transcript(lines: list[str]) -> None:
    """Printed with -s; the issue note quotes it."""
    print("\n" + "\n".join(lines))


# ------------------------------------------------------------------ connect
async def test_asks_only_for_the_intents_it_needs(adapter, fake):
    intents = discord.Intents._from_value(int(fake.identify["intents"]))
    assert intents.guilds and intents.guild_messages and intents.dm_messages and intents.message_content
    assert not (intents.members or intents.presences or intents.guild_reactions or intents.voice_states)
    assert intents == discord.Intents(guilds=True, guild_messages=True, dm_messages=True, message_content=True)


async def test_does_not_register_commands_on_connect(adapter, fake):
    assert ("PUT", f"/applications/{fake.app_id}/commands") not in fake.requests
    assert fake.commands == {}


# ---------------------------------------------------------------------- DMs
async def test_dm_question_and_answer(adapter, fake, world):
    _, parent, _, _ = world
    lines = []
    for question in ("is school open monday in peel?", "what about tdsb on friday?", "/board peel",
                     "do I need child care?"):
        before = len(fake.sent)
        await fake.send_dm(parent, question)
        await fake.wait_sent(before + 1)
        await quiet(fake, 0.05)
        lines.append(f"amira (DM): {question}")
        for reply in fake.sent[before:]:
            assert reply.kind == "message" and reply.channel_id == fake.dm_channels[parent.id]
            assert reply.reply_to is None  # a DM needs no reply reference
            assert reply.payload["flags"] & 4  # link previews suppressed
            lines.append("schoolbot: " + reply.content.replace("\n", "\n           "))
    answers = texts(fake.sent)
    assert answers[0].startswith("Peel District School Board, Monday, October 7")
    assert answers[1].startswith("Toronto District School Board, tomorrow, Friday, October 4")
    assert any(a.startswith("Got it: your board is Peel District School Board") for a in answers)
    transcript(lines)


async def test_dm_remembers_the_board_between_messages(adapter, fake, world, store):
    _, parent, _, _ = world
    await fake.send_dm(parent, "/board tdsb")
    await fake.wait_sent(1)
    await fake.send_dm(parent, "is school open monday?")
    sent = await fake.wait_sent(2)
    assert sent[1].content.startswith("Toronto District School Board, Monday, October 7")
    assert store.get_user("discord", str(parent.id))["board"] == "tdsb"


async def test_dm_from_another_bot_is_ignored(adapter, fake, world):
    _, parent, _, other_bot = world
    await fake.send_dm(other_bot, "is school open monday in peel?")
    await fake.send_dm(parent, "/help")  # answered after the bot's message was (not) handled
    sent = await fake.wait_sent(1)
    await quiet(fake)
    assert len(fake.sent) == 1 and sent[0].channel_id == fake.dm_channels[parent.id]


# ------------------------------------------------------------------ servers
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
        await quiet(fake, 0.1)
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
    assert answer.content.startswith("Peel District School Board, Monday, October 7")
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
    await quiet(fake)
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


# ----------------------------------------------------------- slash commands
async def test_slash_status_in_a_server_is_public(adapter, fake, world):
    guild, parent, _, _ = world
    interaction = await fake.interact(parent, "status", {"board": "tdsb", "date": "monday"}, guild=guild)
    sent = await fake.wait_sent(1)
    assert sent[0].kind == "interaction" and sent[0].interaction_id == interaction
    assert sent[0].content.startswith("Toronto District School Board, Monday, October 7")
    assert not sent[0].ephemeral  # a status answer is useful to the whole channel
    assert sent[0].allowed_mentions == NO_PINGS


async def test_slash_status_without_options_uses_the_remembered_board(adapter, fake, world):
    _, parent, _, _ = world
    await fake.interact(parent, "board", {"name": "pdsb"})
    await fake.interact(parent, "status")
    sent = await fake.wait_sent(2)
    assert "Peel District School Board" in sent[1].content and "Thursday, October 3" in sent[1].content


async def test_slash_board_is_ephemeral(adapter, fake, world, store):
    guild, parent, _, _ = world
    await fake.interact(parent, "board", {"name": "Mississauga"}, guild=guild)
    sent = await fake.wait_sent(1)
    assert sent[0].ephemeral
    assert sent[0].content.startswith("Got it: your board is Peel District School Board")
    assert store.get_user("discord", str(parent.id))["board"] == "pdsb"


async def test_slash_board_autocomplete(adapter, fake, world):
    guild, parent, _, _ = world
    await fake.interact(parent, "board", {"name": "pee"}, guild=guild, focused="name")
    await fake.interact(parent, "subscribe", {"board": ""}, guild=guild, focused="board")
    await fake.interact(parent, "status", {"board": "toronto"}, focused="board")
    await fake.interact(parent, "board", {"name": "mississauga"}, focused="name")
    sent = await fake.wait_sent(4)
    assert all(s.kind == "autocomplete" for s in sent)
    board_choices_ = sent[0].payload["choices"]
    assert board_choices_[0] == {"name": "Peel District School Board (pdsb)", "value": "pdsb"}
    assert {"name": "Dufferin-Peel Catholic District School Board (dpcdsb)", "value": "dpcdsb"} in board_choices_
    subscribe_choices = sent[1].payload["choices"]
    assert subscribe_choices[0] == {"name": "All boards", "value": "all"} and len(subscribe_choices) == 25
    # A city: its English public board first (as the core reads it), then the others there.
    assert [c["value"] for c in sent[2].payload["choices"]][:2] == ["tdsb", "tcdsb"]
    assert sent[3].payload["choices"][0]["value"] == "pdsb"


async def test_slash_subscribe_and_unsubscribe_in_a_dm(adapter, fake, world, store):
    _, parent, _, _ = world
    chat = f"dm:{parent.id}"
    await fake.interact(parent, "subscribe", {"board": "tdsb"})
    sent = await fake.wait_sent(1)
    assert sent[0].ephemeral and sent[0].content.startswith("You will now get official updates for Toronto District")
    assert store.subscriptions_of("discord", chat) == ["tdsb"]
    await fake.interact(parent, "unsubscribe")
    sent = await fake.wait_sent(2)
    assert sent[1].ephemeral and sent[1].content.startswith("Done: no more updates for Toronto District")
    assert store.subscriptions_of("discord", chat) == []


async def test_slash_subscribe_in_a_server_uses_the_members_permissions(adapter, fake, world, store):
    guild, parent, moderator, _ = world
    chat = f"channel:{guild.channel_id('announcements')}"
    await fake.interact(parent, "subscribe", {"board": "pdsb"}, guild=guild, channel="announcements")
    sent = await fake.wait_sent(1)
    assert sent[0].ephemeral and sent[0].content.startswith("Only this server's admins")
    assert store.subscriptions_of("discord", chat) == []

    await fake.interact(moderator, "subscribe", {"board": "pdsb"}, guild=guild, channel="announcements")
    sent = await fake.wait_sent(2)
    assert sent[1].ephemeral and sent[1].content.startswith("This channel will now get official updates for Peel")
    assert store.subscriptions_of("discord", chat) == ["pdsb"]

    await fake.interact(parent, "unsubscribe", guild=guild, channel="announcements")
    await fake.interact(fake.owner, "unsubscribe", guild=guild, channel="announcements")  # the server owner
    sent = await fake.wait_sent(4)
    assert sent[2].content.startswith("Only this server's admins")
    assert sent[3].content.startswith("Done: no more updates for Peel")
    assert store.subscriptions_of("discord", chat) == []


async def test_slash_help_and_whoami(adapter, fake, world):
    guild, parent, _, _ = world
    await fake.interact(parent, "help", guild=guild)
    await fake.interact(parent, "whoami")
    sent = await fake.wait_sent(2)
    assert sent[0].ephemeral and "/status [board] [date]" in sent[0].content
    assert sent[1].ephemeral and str(parent.id) in sent[1].content


def test_every_slash_command_is_defined(bot, settings):
    adapter = DiscordAdapter(bot, settings)
    assert sorted(c.name for c in adapter.tree.get_commands()) == sorted(COMMAND_NAMES)
    board = adapter.tree.get_command("board").to_dict(adapter.tree)
    assert board["options"][0]["required"] and board["options"][0]["autocomplete"]
    status = adapter.tree.get_command("status").to_dict(adapter.tree)
    assert [(o["name"], o["required"]) for o in status["options"]] == [("board", False), ("date", False)]


def test_board_choices_rank_ids_and_names_first(bot):
    choices = board_choices(bot.boards.boards, "tdsb")
    assert choices[0] == ("Toronto District School Board (tdsb)", "tdsb")
    assert len(board_choices(bot.boards.boards, "")) == 25
    assert board_choices(bot.boards.boards, "zzzz") == []


# ---------------------------------------------------------- long and unsafe text
def _long_status(store, board: str, summary: str) -> None:
    store.put_status(Status(
        id=f"test-{board}-long", board=board, start=date(2019, 10, 7), until=date(2019, 10, 7),
        status="open_reduced_services", summary=summary, source="2019-10-02-full-strike-notice-talks-friday.txt",
        published=datetime(2019, 10, 3, 8, 0, tzinfo=TORONTO), author="discord:staff",
    ))


LONG_SUMMARY = " ".join(
    f"Update {n}: schools stay open on Monday, but custodians, early childhood educators and office staff "
    f"are off the job, so classrooms will not be cleaned and some programs are cancelled."
    for n in range(1, 19)
)


async def test_a_3000_character_answer_is_split_in_two(adapter, fake, world, store, bot):
    _, parent, _, _ = world
    _long_status(store, "tdsb", LONG_SUMMARY)
    whole = bot.handle(message("/status tdsb monday"))[0].text
    assert 3000 <= len(whole) < 4000

    await fake.send_dm(parent, "/status tdsb monday")
    sent = await fake.wait_sent(2)
    await quiet(fake)
    assert len(fake.sent) == 2
    assert all(len(s.content) <= 2000 for s in sent)
    assert sent[0].content.endswith(".")  # cut at a sentence end, not mid-word
    assert " ".join(s.content for s in sent).split() == whole.split()


async def test_a_long_slash_answer_continues_in_a_followup(adapter, fake, world, store):
    guild, parent, _, _ = world
    _long_status(store, "tdsb", LONG_SUMMARY)
    await fake.interact(parent, "status", {"board": "tdsb", "date": "monday"}, guild=guild)
    sent = await fake.wait_sent(2)
    assert [s.kind for s in sent] == ["interaction", "followup"]
    assert all(len(s.content) <= 2000 and not s.ephemeral for s in sent)
    assert sent[1].interaction_id == sent[0].interaction_id


async def test_everyone_in_knowledge_or_user_text_never_pings(adapter, fake, world, store):
    guild, parent, _, _ = world
    role = fake.role_id(guild, "Moderators")
    _long_status(store, "pdsb", f"@everyone @here <@&{role}> <@{parent.id}> schools are open.")
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


# ---------------------------------------------------------------- robustness
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
    await quiet(fake)
    assert len(fake.sent) == 1 and sent[0].content.startswith("Send me a question")


# --------------------------------------------------------------- broadcasts
async def test_sender_delivers_to_a_subscribed_channel_and_a_dm(adapter, fake, world):
    guild, parent, _, _ = world
    sender = adapter.sender
    text = "TDSB update (Oct 3, 17:00): schools are open Monday. @everyone"
    assert await sender.send_text(f"channel:{guild.channel_id('announcements')}", text) == SendOutcome(SendStatus.SENT)
    assert (await sender.send_text(f"dm:{parent.id}", text)).status == SendStatus.SENT
    assert [s.channel_id for s in fake.sent] == [guild.channel_id("announcements"), fake.dm_channels[parent.id]]
    assert all(s.content == text and s.allowed_mentions == NO_PINGS for s in fake.sent)


async def _broadcast_through(sender, store, settings, board: str) -> None:
    """A broadcast delivered by the real worker through the adapter's sender."""
    from bot.outbox import DeliveryWorker, Outbox

    Outbox(store).create(board, "update", "update", "test:1")
    await DeliveryWorker(store, sender, settings, poll_interval=0.01, base_backoff=0.01).run(once=True)


async def test_closed_dms_make_the_subscription_inactive(adapter, fake, world, store, settings):
    _, parent, _, _ = world
    chat = f"dm:{parent.id}"
    store.subscribe("discord", chat, "tdsb", "private", str(parent.id))
    fake.closed_dms.add(parent.id)
    assert (await adapter.sender.send_text(chat, "update")).status == SendStatus.BLOCKED  # the sender reports
    assert store.subscriptions_of("discord", chat) == ["tdsb"]  # ...and decides nothing
    await _broadcast_through(adapter.sender, store, settings, "tdsb")
    assert store.subscriptions_of("discord", chat) == []


async def test_a_channel_it_may_no_longer_post_in_is_made_inactive(adapter, fake, world, store, settings):
    guild, _, _, _ = world
    chat = f"channel:{guild.channel_id('announcements')}"
    store.subscribe("discord", chat, "all", "group", "1")
    fake.failures[guild.channel_id("announcements")] = Failure(403, 50001, "Missing Access")
    await _broadcast_through(adapter.sender, store, settings, "all")
    assert store.subscriptions_of("discord", chat) == []


async def test_sender_retries_server_errors_and_fails_bad_ids(adapter, fake, world):
    guild, _, _, _ = world
    channel = guild.channel_id("general")
    fake.failures[channel] = Failure(503, 0, "Service Unavailable")
    outcome = await adapter.sender.send_text(f"channel:{channel}", "update")
    assert outcome.status == SendStatus.RETRY and outcome.retry_after > 0
    assert (await adapter.sender.send_text(f"channel:{channel}", "update")).status == SendStatus.SENT
    assert (await adapter.sender.send_text("telegram:123", "update")).status == SendStatus.FAILED
    fake.failures[channel] = Failure(400, 50035, "Invalid Form Body")
    assert (await adapter.sender.send_text(f"channel:{channel}", "update")).status == SendStatus.FAILED


async def test_sender_splits_long_text_and_resumes_after_a_failure(adapter, fake, world):
    guild, _, _, _ = world
    channel = guild.channel_id("general")
    text = LONG_SUMMARY
    assert (await adapter.sender.send_text(f"channel:{channel}", text)).status == SendStatus.SENT
    assert len(fake.sent) == 2
    # Second piece fails: the retry sends only that piece.
    original = fake._channel_send
    calls = {"n": 0}

    async def second_fails(channel_id, body):
        calls["n"] += 1
        if calls["n"] == 2:
            return fake._error(503, 0, "Service Unavailable")
        return await original(channel_id, body)

    fake._channel_send = second_fails
    assert (await adapter.sender.send_text(f"channel:{channel}", text + " More.")).status == SendStatus.RETRY
    assert (await adapter.sender.send_text(f"channel:{channel}", text + " More.")).status == SendStatus.SENT
    assert len(fake.sent) == 4 and fake.sent[3].content.endswith("More.")


async def test_sender_paces_dms(adapter, fake, world):
    _, parent, moderator, _ = world
    adapter.sender.dm_pace_seconds = 0.3
    users = [parent, moderator, fake.owner]
    outcomes = await asyncio.gather(*(adapter.sender.send_text(f"dm:{u.id}", "update") for u in users))
    assert all(o.status == SendStatus.SENT for o in outcomes)
    times = sorted(s.at for s in fake.sent)
    assert all(b - a >= 0.28 for a, b in itertools.pairwise(times)), times


async def test_sender_before_connecting_says_retry(bot, discord_settings):
    adapter = DiscordAdapter(bot, discord_settings)
    outcome = await adapter.sender.send_text("channel:1", "update")
    assert outcome.status == SendStatus.RETRY
    assert isinstance(adapter.sender, DiscordSender) and adapter.sender.platform == "discord"


# ------------------------------------------------------------- tokens, sync
async def test_missing_token_is_one_clear_error(bot, settings):
    with pytest.raises(SettingsError, match="no Discord bot token"):
        await run_discord(bot, settings)


async def test_rejected_token_is_one_clear_error(bot, discord_settings, fake, world):
    with pytest.raises(SettingsError, match="Discord rejected the bot token"):
        await run_discord(bot, discord_settings.replace("discord", token="wrong"))


async def test_message_content_intent_switched_off_is_one_clear_error(bot, discord_settings, fake, world):
    fake.message_content_enabled = False
    with pytest.raises(SettingsError, match="Message Content intent"):
        await asyncio.wait_for(run_discord(bot, discord_settings), 10)


def _cli(args, monkeypatch, tmp_path, token):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SCHOOLBOT_CONFIG", raising=False)
    if token is None:
        monkeypatch.delenv("SCHOOLBOT_DISCORD_TOKEN", raising=False)
    else:
        monkeypatch.setenv("SCHOOLBOT_DISCORD_TOKEN", token)
    return cli.main(args)


async def test_cli_sync_registers_the_commands_once(fake, world, monkeypatch, tmp_path, capsys):
    code = await asyncio.to_thread(_cli, ["discord", "sync"], monkeypatch, tmp_path, fake.token)
    assert code == 0
    assert sorted(c["name"] for c in fake.commands["global"]) == sorted(COMMAND_NAMES)
    assert "synced 6 slash commands" in capsys.readouterr().out
    assert not any(path == "/gateway" for _, path in fake.requests)  # HTTP only, no gateway session

    guild = world[0]
    code = await asyncio.to_thread(_cli, ["discord", "sync", "--guild", str(guild.id)], monkeypatch, tmp_path, fake.token)
    assert code == 0 and len(fake.commands[guild.id]) == 6


@pytest.mark.parametrize("token, message", [(None, "no Discord bot token"), ("wrong", "Discord rejected the bot token")])
async def test_cli_sync_token_errors_are_one_line(fake, monkeypatch, tmp_path, capsys, token, message):
    code = await asyncio.to_thread(_cli, ["discord", "sync"], monkeypatch, tmp_path, token)
    err = capsys.readouterr().err
    assert code != 0
    assert err.count("\n") == 1 and err.startswith("schoolbot: ") and message in err
    assert "Traceback" not in err


# ------------------------------------------------------------ schoolbot serve
async def test_serve_runs_discord_and_hands_its_sender_over(bot, discord_settings, fake, world, monkeypatch):
    from adapters import serve

    senders = {}
    monkeypatch.setattr(serve, "delivery_workers", lambda bot, settings, given, stop: senders.update(all=given) or {})
    stop = asyncio.Event()
    task = asyncio.create_task(serve.serve(bot, discord_settings, ["discord"], stop=stop))
    await asyncio.wait_for(fake.ready.wait(), 10)
    _, parent, _, _ = world
    await fake.send_dm(parent, "is school open monday in peel?")
    sent = await fake.wait_sent(1, timeout=10)
    assert sent[0].content.startswith("Peel District School Board, Monday, October 7")
    for _ in range(100):  # READY comes guild_ready_timeout (2 s) after the last GUILD_CREATE
        if "discord" in senders["all"]:
            break
        await asyncio.sleep(0.05)
    assert isinstance(senders["all"].get("discord"), DiscordSender)
    stop.set()
    await asyncio.wait_for(task, 20)


async def test_serve_with_a_rejected_discord_token_stops_with_one_line(bot, discord_settings, fake, world):
    from adapters import serve

    with pytest.raises(serve.PlatformStopped, match=r"^discord: Discord rejected the bot token"):
        await asyncio.wait_for(serve.serve(bot, discord_settings.replace("discord", token="wrong"), ["discord"]), 10)
