"""Slash commands generated from the command registry, through discord.py against the fake Discord."""

from __future__ import annotations

import asyncio

import pytest

from adapters import cli
from adapters.discord_bot.slash import SlashCommands
from bot.commands import COMMANDS
from tests.fakes.discord import NO_PINGS

COMMAND_NAMES = [c.name for c in COMMANDS if c.menu]


async def test_slash_status_in_a_server_is_public(adapter, fake, world):
    guild, parent, _, _ = world
    interaction = await fake.interact(parent, "status", {"board": "tdsb", "date": "monday"}, guild=guild)
    sent = await fake.wait_sent(1)
    assert sent[0].kind == "interaction" and sent[0].interaction_id == interaction
    assert sent[0].content.startswith("TDSB, Monday, October 7")
    assert not sent[0].ephemeral  # a status answer is useful to the whole channel
    assert sent[0].allowed_mentions == NO_PINGS


async def test_slash_status_without_options_uses_the_remembered_board(adapter, fake, world):
    _, parent, _, _ = world
    await fake.interact(parent, "board", {"name": "pdsb"})
    await fake.interact(parent, "status")
    sent = await fake.wait_sent(2)
    assert sent[1].content.startswith("Peel DSB, today, Thursday, October 3")


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


def test_the_slash_commands_are_generated_from_the_registry(bot):
    """SlashCommands stands on its own (no client, no network): one command per menu entry, as the registry says."""
    import discord
    from discord import app_commands

    slash = SlashCommands(bot)
    assert slash.names == COMMAND_NAMES and "language" in slash.names
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    slash.install(tree)
    for entry in COMMANDS:
        if not entry.menu:
            assert tree.get_command(entry.name) is None
            continue
        payload = tree.get_command(entry.name).to_dict(tree)
        assert payload["description"] == entry.describe("en")
        assert [(o["name"], o["description"], o["required"], o.get("autocomplete", False)) for o in payload["options"]] \
            == [(a.name, a.description["en"], a.required, a.boards) for a in entry.arguments]
        assert payload["contexts"] == [0, 1] and payload["integration_types"] == [0]  # servers and DMs, not group DMs


def test_board_suggestions_come_from_the_core_board_finder(bot):
    slash = SlashCommands(bot)
    choices = slash.choices("tdsb")
    assert (choices[0].name, choices[0].value) == ("Toronto District School Board (tdsb)", "tdsb")
    assert [c.value for c in choices] == [b.id for b in bot.boards.suggest("tdsb", 25)]
    assert len(slash.choices("")) == 25 and slash.choices("zzzz") == []
    assert slash.choices("", include_all=True)[0].value == "all" and len(slash.choices("", include_all=True)) == 25
    assert all(c.value != "all" for c in slash.choices("peel", include_all=True))
    french = slash.choices("tous", include_all=True, language="fr")
    assert (french[0].name, french[0].value) == ("Tous les conseils", "all")


async def test_a_french_user_sees_all_boards_in_french(adapter, fake, world):
    _, parent, _, _ = world
    await fake.interact(parent, "subscribe", {"board": ""}, focused="board", locale="fr")
    sent = await fake.wait_sent(1)
    assert sent[0].payload["choices"][0] == {"name": "Tous les conseils", "value": "all"}


async def test_french_descriptions_reach_discord_when_synced(fake, world, monkeypatch, tmp_path):
    code = await asyncio.to_thread(_cli, ["discord", "sync"], monkeypatch, tmp_path, fake.token)
    assert code == 0
    synced = {c["name"]: c for c in fake.commands["global"]}
    for entry in COMMANDS:
        if not entry.menu:
            continue
        payload = synced[entry.name]
        assert payload["description"] == entry.description["en"]  # English is the default
        assert payload["description_localizations"] == {"fr": entry.description["fr"]}
        for option, argument in zip(payload.get("options", []), entry.arguments, strict=True):
            assert option["description_localizations"] == {"fr": argument.description["fr"]}
    status = synced["status"]
    assert status["description_localizations"]["fr"].startswith("L'école est-elle ouverte?")
    assert "name_localizations" not in status or not status["name_localizations"]  # names are typed: they stay


async def test_a_long_slash_answer_continues_in_a_followup(adapter, fake, world, store, put_status, long_summary):
    guild, parent, _, _ = world
    put_status("tdsb", long_summary)
    await fake.interact(parent, "status", {"board": "tdsb", "date": "monday"}, guild=guild)
    sent = await fake.wait_sent(2)
    assert [s.kind for s in sent] == ["interaction", "followup"]
    assert all(len(s.content) <= 2000 and not s.ephemeral for s in sent)
    assert sent[1].interaction_id == sent[0].interaction_id


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
    assert f"synced {len(COMMAND_NAMES)} slash commands" in capsys.readouterr().out
    assert not any(path == "/gateway" for _, path in fake.requests)  # HTTP only, no gateway session

    guild = world[0]
    code = await asyncio.to_thread(_cli, ["discord", "sync", "--guild", str(guild.id)], monkeypatch, tmp_path, fake.token)
    assert code == 0 and len(fake.commands[guild.id]) == len(COMMAND_NAMES)


@pytest.mark.parametrize("token, message", [(None, "no Discord bot token"), ("wrong", "Discord rejected the bot token")])
async def test_cli_sync_token_errors_are_one_line(fake, monkeypatch, tmp_path, capsys, token, message):
    code = await asyncio.to_thread(_cli, ["discord", "sync"], monkeypatch, tmp_path, token)
    err = capsys.readouterr().err
    assert code != 0
    assert err.count("\n") == 1 and err.startswith("schoolbot: ") and message in err
    assert "Traceback" not in err
