"""discord.py's own objects parsed from the fake's payloads, without a connection (for property tests)."""

from __future__ import annotations

import discord

from tests.fakes.discord import FakeDiscord


class Offline:
    """discord.py's own Message and Interaction objects, parsed from the fake's payloads with no connection.

    For property tests that feed thousands of odd messages through the adapter's
    conversion: the same parsing discord.py does on a gateway event, without the socket.
    """

    def __init__(self, fake: FakeDiscord):
        self.fake = fake
        self.client = discord.Client(intents=discord.Intents(guilds=True, guild_messages=True, dm_messages=True,
                                                             message_content=True))
        self.state = self.client._connection
        self.state.user = discord.ClientUser(state=self.state, data={**fake.bot_user.payload(), "verified": True,
                                                                     "mfa_enabled": False, "flags": 0})
        for guild in fake.guilds.values():
            self.state._add_guild(discord.Guild(data=fake.guild_payload(guild), state=self.state))

    def message(self, data: dict) -> discord.Message:
        if "guild_id" in data:
            channel = self.state._get_guild(int(data["guild_id"])).get_channel(int(data["channel_id"]))
        else:
            user_id = int(data["author"]["id"])
            channel = discord.DMChannel(me=self.state.user, state=self.state,
                                        data=self.fake._dm_channel_payload(user_id))
        return discord.Message(state=self.state, channel=channel, data=data)

    def interaction(self, data: dict) -> discord.Interaction:
        return discord.Interaction(data=data, state=self.state)

