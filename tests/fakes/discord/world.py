"""The fake Discord's world: ids, users, servers with channels, roles and members, and their payloads."""

from __future__ import annotations

import itertools
from datetime import datetime

import discord

from tests.fakes.discord.records import BOT_PERMISSIONS, EVERYONE_PERMISSIONS, Guild, User


class World:
    """Mixed into FakeDiscord: who and what exists, as Discord would describe it."""

    clock: datetime
    _ids: itertools.count
    bot_user: User
    owner: User
    users: dict[int, User]
    guilds: dict[int, Guild]
    dm_channels: dict[int, int]

    def snowflake(self, at: datetime | None = None) -> int:
        """A unique id whose timestamp is `at` (default: the fake's clock)."""
        moment = at or self.clock
        return discord.utils.time_snowflake(moment) + next(self._ids)

    # ------------------------------------------------------------------ world
    def add_user(self, username: str, *, bot: bool = False) -> User:
        user = User(self.snowflake(), username, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, channels: tuple[str, ...] = ("general",)) -> Guild:
        guild_id = self.snowflake()
        guild = Guild(guild_id, name, self.owner.id)
        guild.roles["@everyone"] = self._role(guild_id, "@everyone", EVERYONE_PERMISSIONS, 0)
        guild.roles["Moderators"] = self._role(self.snowflake(), "Moderators", discord.Permissions(manage_guild=True), 2)
        bot_role = self._role(self.snowflake(), self.bot_user.username, BOT_PERMISSIONS, 1, managed=True)
        bot_role["tags"] = {"bot_id": str(self.bot_user.id)}
        guild.roles[self.bot_user.username] = bot_role
        for position, channel in enumerate(channels):
            guild.channels[channel] = {
                "id": str(self.snowflake()), "type": 5 if channel == "announcements" else 0, "guild_id": str(guild_id),
                "name": channel, "position": position, "permission_overwrites": [], "nsfw": False,
                "parent_id": None, "topic": None, "last_message_id": None, "rate_limit_per_user": 0, "flags": 0,
            }
        guild.members[self.bot_user.id] = [int(bot_role["id"])]
        guild.members[self.owner.id] = []
        self.guilds[guild_id] = guild
        return guild

    def add_member(self, guild: Guild, user: User, *roles: str) -> None:
        guild.members[user.id] = [int(guild.roles[r]["id"]) for r in roles]

    @staticmethod
    def _role(role_id: int, name: str, permissions: discord.Permissions, position: int, managed: bool = False) -> dict:
        return {"id": str(role_id), "name": name, "color": 0, "colors": {"primary_color": 0}, "hoist": False,
                "icon": None, "unicode_emoji": None, "position": position, "permissions": str(permissions.value),
                "managed": managed, "mentionable": False, "flags": 0}

    def role_id(self, guild: Guild, name: str) -> int:
        return int(guild.roles[name]["id"])

    def member_permissions(self, guild: Guild, user_id: int) -> discord.Permissions:
        if user_id == guild.owner_id:
            return discord.Permissions.all()
        value = int(guild.roles["@everyone"]["permissions"])
        for role_id in guild.members.get(user_id, []):
            role = next(r for r in guild.roles.values() if int(r["id"]) == role_id)
            value |= int(role["permissions"])
        perms = discord.Permissions(value)
        return discord.Permissions.all() if perms.administrator else perms

    def _member_payload(self, guild: Guild, user_id: int, *, with_user: bool = True) -> dict:
        data = {"roles": [str(r) for r in guild.members.get(user_id, [])], "joined_at": "2019-09-01T12:00:00+00:00",
                "deaf": False, "mute": False, "flags": 0, "nick": None, "avatar": None, "pending": False,
                "premium_since": None, "communication_disabled_until": None}
        if with_user:
            data["user"] = self.users[user_id].payload()
        return data

    def guild_payload(self, guild: Guild) -> dict:
        return {
            "id": str(guild.id), "name": guild.name, "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(guild.owner_id), "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "roles": list(guild.roles.values()),
            "emojis": [], "stickers": [], "features": [], "mfa_level": 0, "application_id": None,
            "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None,
            "public_updates_channel_id": None, "preferred_locale": "en-US", "premium_tier": 0, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "joined_at": "2019-09-01T12:00:00+00:00", "large": False,
            "unavailable": False, "member_count": len(guild.members),
            # Without the members intent, Discord sends only the bot's own member here.
            "members": [self._member_payload(guild, self.bot_user.id)],
            "channels": list(guild.channels.values()), "threads": [], "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        }

    def _dm_channel_payload(self, user_id: int) -> dict:
        channel_id = self.dm_channels.setdefault(user_id, self.snowflake())
        return {"id": str(channel_id), "type": 1, "last_message_id": None, "recipients": [self.users[user_id].payload()]}

