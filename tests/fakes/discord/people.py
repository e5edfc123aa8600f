"""What people do on the fake Discord: DMs, server messages, slash commands, button presses (gateway events)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tests.fakes.discord.records import BOT_PERMISSIONS, Guild, Sent, User


class People:
    """Mixed into FakeDiscord: each method dispatches the event Discord would send the bot."""

    _tokens: dict[str, int]
    _pressed: dict[int, dict]  # interaction id -> the message whose button was pressed
    commands: dict

    def _base_message(self, user: User, channel_id: int, content: str, *, at: datetime | None) -> dict:
        return {
            "id": str(self.snowflake(at)), "channel_id": str(channel_id), "author": user.payload(), "content": content,
            "timestamp": (at or self.clock).isoformat(), "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
            "pinned": False, "type": 0, "flags": 0, "components": [],
        }

    async def send_dm(self, user: User, content: str, *, at: datetime | None = None) -> dict:
        """The user writes to the bot in a DM."""
        channel = self._dm_channel_payload(user.id)
        data = self._base_message(user, int(channel["id"]), content, at=at)
        await self.dispatch("MESSAGE_CREATE", data)
        return data

    def guild_message_payload(self, guild: Guild, channel: str, user: User, content: str, *,
                              mentions: tuple[User, ...] = (), role_mentions: tuple[int, ...] = (),
                              reply_to: dict | None = None, at: datetime | None = None) -> dict:
        """MESSAGE_CREATE's data for a member posting in a server channel."""
        data = self._base_message(user, guild.channel_id(channel), content, at=at)
        data["guild_id"] = str(guild.id)
        data["member"] = self._member_payload(guild, user.id, with_user=False)
        data["mentions"] = [{**u.payload(), "member": self._member_payload(guild, u.id, with_user=False)} for u in mentions]
        data["mention_roles"] = [str(r) for r in role_mentions]
        data["mention_everyone"] = "@everyone" in content or "@here" in content
        if reply_to is not None:
            data["type"] = 19
            data["message_reference"] = {"type": 0, "message_id": reply_to["id"], "channel_id": reply_to["channel_id"],
                                         "guild_id": str(guild.id)}
            data["referenced_message"] = reply_to
        return data

    async def send_guild_message(self, guild: Guild, channel: str, user: User, content: str, **options: Any) -> dict:
        """A member posts in a server channel. `mentions` are the users Discord resolved from <@id> in content."""
        data = self.guild_message_payload(guild, channel, user, content, **options)
        await self.dispatch("MESSAGE_CREATE", data)
        return data

    def interaction_payload(self, user: User, command: str, options: dict[str, str] | None = None, *,
                            guild: Guild | None = None, channel: str = "general", focused: str | None = None,
                            at: datetime | None = None, locale: str = "en-US") -> dict:
        """INTERACTION_CREATE's data for a slash command (or autocomplete, when `focused` names an option)."""
        interaction_id = self.snowflake(at)
        token = f"token-{interaction_id}"
        self._tokens[token] = interaction_id
        opts = [{"name": k, "type": 3, "value": v, **({"focused": True} if k == focused else {})}
                for k, v in (options or {}).items()]
        command_id = next((c["id"] for c in self.commands.get("global", []) if c["name"] == command), str(self.snowflake()))
        data: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(self.app_id), "type": 4 if focused else 2,
            "token": token, "version": 1, "locale": locale, "entitlements": [], "attachment_size_limit": 10 * 1024 * 1024,
            "data": {"id": command_id, "name": command, "type": 1, "options": opts},
            "app_permissions": str(BOT_PERMISSIONS.value),
        }
        return self._place(data, user, guild, guild.channels[channel] if guild is not None else None)

    def _place(self, data: dict, user: User, guild: Guild | None, channel: dict | None) -> dict:
        """An interaction's where and who: a server channel and the member, or the user's DM."""
        if guild is not None:
            data.update(guild_id=str(guild.id), channel_id=channel["id"], channel=channel,
                        guild_locale="en-US", context=0, authorizing_integration_owners={"0": str(guild.id)},
                        guild={"id": str(guild.id), "locale": "en-US", "features": []})
            member = self._member_payload(guild, user.id)
            member["permissions"] = str(self.member_permissions(guild, user.id).value)
            data["member"] = member
        else:
            dm = self._dm_channel_payload(user.id)
            data.update(channel_id=dm["id"], channel=dm, user=user.payload(), context=1,
                        authorizing_integration_owners={"0": str(user.id)})
        return data

    async def press(self, user: User, sent: Sent, number: int) -> int:
        """The user presses button `number` (1-based) under a message the bot sent; returns the interaction id."""
        message = sent.message
        buttons = [c for row in (message or {}).get("components", []) for c in row["components"]]
        if not 1 <= number <= len(buttons):
            raise LookupError(f"the message has {len(buttons)} buttons, not {number}")
        interaction_id = self.snowflake()
        token = f"token-{interaction_id}"
        self._tokens[token] = interaction_id
        self._pressed[interaction_id] = message
        data: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(self.app_id), "type": 3, "token": token, "version": 1,
            "locale": "en-US", "entitlements": [], "attachment_size_limit": 10 * 1024 * 1024,
            "data": {"custom_id": buttons[number - 1]["custom_id"], "component_type": 2}, "message": message,
            "app_permissions": str(BOT_PERMISSIONS.value),
        }
        guild = self.guilds.get(int(message.get("guild_id") or 0))
        channel = next((c for c in guild.channels.values() if c["id"] == message["channel_id"]), None) if guild else None
        await self.dispatch("INTERACTION_CREATE", self._place(data, user, guild, channel))
        return interaction_id

    async def interact(self, user: User, command: str, options: dict[str, str] | None = None, **where: Any) -> int:
        """The user runs a slash command (or types in an option, when `focused` names it: autocomplete)."""
        data = self.interaction_payload(user, command, options, **where)
        await self.dispatch("INTERACTION_CREATE", data)
        return int(data["id"])

