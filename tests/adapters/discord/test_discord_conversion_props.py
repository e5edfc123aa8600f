"""Property test: Discord's message and interaction conversion never raises on odd input.

discord.py parses the fake's payloads exactly as it parses gateway events; the
adapter's conversion must give an ``Incoming`` or None for anything a person,
a bot or Discord itself can send: any content, mentions of anyone, empty or huge text.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.discord_bot.convert import (
    PLATFORM,
    command_text,
    interaction_to_incoming,
    message_to_incoming,
    parse_chat_id,
)
from bot.commands import COMMANDS
from bot.messages import ChatKind, Incoming
from tests.fakes.discord import FakeDiscord
from tests.fakes.discord.offline import Offline

FAKE = FakeDiscord()
GUILD = FAKE.add_guild("Peel Parents", channels=("general", "announcements"))
PARENT = FAKE.add_user("amira")
MODERATOR = FAKE.add_user("jordan")
OTHER_BOT = FAKE.add_user("newsbot", bot=True)
for _member, *_roles in ((PARENT,), (MODERATOR, "Moderators"), (OTHER_BOT,)):
    FAKE.add_member(GUILD, _member, *_roles)
OFFLINE = Offline(FAKE)
BOT = FAKE.bot_user
PEOPLE = (PARENT, MODERATOR, FAKE.owner)
AUTHORS = (*PEOPLE, OTHER_BOT, BOT)
ROLE_IDS = (FAKE.role_id(GUILD, "Moderators"), FAKE.role_id(GUILD, BOT.username), GUILD.id, 1)
MESSAGE_TYPES = (0, 19, 7, 6, 8, 18, 20, 46)  # default, reply, join, pin, boost, thread created, command, poll result

PIECES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["@everyone", "@here", f"<@{BOT.id}>", f"<@!{BOT.id}>", f"<@&{ROLE_IDS[1]}>", f"<@{PARENT.id}>",
                     "/subscribe all", "/status", "\x00", "\ud800", "\u202e", "**bold**", "```", "\n", " "]),
)
CONTENT = st.one_of(
    st.just(""),
    st.lists(PIECES, max_size=8).map("".join),
    st.tuples(st.text(min_size=1, max_size=20), st.integers(100, 600)).map(lambda t: t[0] * t[1]),  # huge
)


@st.composite
def messages(draw) -> tuple[dict, object]:
    author = draw(st.sampled_from(AUTHORS))
    content = draw(CONTENT)
    if draw(st.booleans()):
        data = FAKE._base_message(author, int(FAKE._dm_channel_payload(author.id)["id"]), content, at=None)
    else:
        reply_to = draw(st.sampled_from([None, BOT, PARENT]))
        replied = None
        if reply_to is not None:
            replied = FAKE._base_message(reply_to, GUILD.channel_id("general"), draw(st.text(max_size=20)), at=None)
            replied["guild_id"] = str(GUILD.id)
        data = FAKE.guild_message_payload(
            GUILD, draw(st.sampled_from(["general", "announcements"])), author, content,
            mentions=tuple(draw(st.lists(st.sampled_from(AUTHORS), max_size=3, unique_by=lambda u: u.id))),
            role_mentions=tuple(draw(st.lists(st.sampled_from(ROLE_IDS), max_size=2, unique=True))),
            reply_to=replied,
        )
    data["type"] = draw(st.sampled_from(MESSAGE_TYPES)) if draw(st.booleans()) else data["type"]
    return data, author


@settings(max_examples=300, deadline=None)
@given(messages())
def test_message_conversion_never_raises(drawn):
    data, author = drawn
    message = OFFLINE.message(data)
    incoming = message_to_incoming(message, OFFLINE.state.user)
    if author.bot or data["type"] not in (0, 19):
        assert incoming is None
        return
    assert isinstance(incoming, Incoming) and incoming.platform == PLATFORM
    assert isinstance(incoming.text, str) and incoming.user_id == str(author.id)
    assert parse_chat_id(incoming.chat_id) is not None
    if "guild_id" not in data:
        assert incoming.chat_kind == ChatKind.PRIVATE and incoming.addressed and incoming.text == data["content"]
        return
    assert incoming.chat_kind == ChatKind.GROUP
    assert incoming.group_admin == (author in (MODERATOR, FAKE.owner))  # Manage Server, or the owner
    if any(int(u["id"]) == BOT.id for u in data["mentions"]):
        assert incoming.addressed and f"<@{BOT.id}>" not in incoming.text and f"<@!{BOT.id}>" not in incoming.text
    if not incoming.addressed:
        assert incoming.text == data["content"]  # passed on untouched; the core stays silent


SLASH = [c for c in COMMANDS if c.menu]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(SLASH), values=st.lists(st.one_of(st.none(), CONTENT), min_size=2, max_size=2),
       user=st.sampled_from(PEOPLE), in_server=st.booleans(), locale=st.sampled_from(["en-US", "fr", "xx"]))
def test_slash_command_conversion_never_raises(command, values, user, in_server, locale):
    options = {a.name: v for a, v in zip(command.arguments, values, strict=False) if v is not None}
    data = FAKE.interaction_payload(user, command.name, options, guild=GUILD if in_server else None, locale=locale)
    text = command_text(command.name, *(options.get(a.name) for a in command.arguments))
    incoming = interaction_to_incoming(OFFLINE.interaction(data), text)
    assert incoming.addressed and incoming.text.startswith(f"/{command.name}")
    assert "\n" not in incoming.text and incoming.user_id == str(user.id)
    assert incoming.chat_kind == (ChatKind.GROUP if in_server else ChatKind.PRIVATE)


@pytest.mark.parametrize("text", ["", " ", "\ud800", "x" * 10_000, "@everyone", "<@&1>", "toronto\n\t", "🙂"])
def test_board_suggestions_take_any_text(bot, text):
    from adapters.discord_bot.slash import SlashCommands

    choices = SlashCommands(bot).choices(text, include_all=True)
    assert len(choices) <= 25 and all(len(c.name) <= 100 for c in choices)
