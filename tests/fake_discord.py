"""A local fake of the parts of Discord's HTTP API and gateway that the adapter uses.

discord.py runs for real against it: its HTTP client talks to an aiohttp server on
127.0.0.1 (``discord.http.Route.BASE`` points there) and its gateway websocket
connects to the same server (``DiscordWebSocket.DEFAULT_GATEWAY``). The server
sends HELLO, checks IDENTIFY (token and intents), answers READY and GUILD_CREATE,
and the tests push MESSAGE_CREATE and INTERACTION_CREATE events through it.
Everything the bot sends (channel messages, interaction callbacks, follow-ups) is
recorded with its full JSON payload, so tests can check ``allowed_mentions`` and
the ephemeral flag exactly as Discord would receive them.

dpytest 0.7.0 was checked with discord.py 2.7.1 and does not fit: it needs the
privileged members intent to create a message (the adapter does not ask for it),
has no interactions (slash commands, autocomplete), and drops the payload of a
send, so ``allowed_mentions`` cannot be checked.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
import yarl
from aiohttp import WSMsgType, web
from discord.gateway import DiscordWebSocket

EPHEMERAL = 1 << 6
SUPPRESS_EMBEDS = 1 << 2
EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True, use_application_commands=True,
    send_messages_in_threads=True, add_reactions=True, embed_links=True, attach_files=True,
)
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True, read_message_history=True,
)


@dataclass
class Sent:
    """One message the bot sent, as Discord received it."""

    kind: str  # "message" (channel send) | "interaction" (callback) | "followup"
    channel_id: int | None
    payload: dict
    interaction_id: int | None = None
    message: dict | None = None  # the message Discord created, for channel sends
    at: float = 0.0  # the event loop's clock when it arrived

    @property
    def content(self) -> str:
        return self.payload.get("content") or ""

    @property
    def allowed_mentions(self) -> dict | None:
        return self.payload.get("allowed_mentions")

    @property
    def ephemeral(self) -> bool:
        return bool((self.payload.get("flags") or 0) & EPHEMERAL)

    @property
    def reply_to(self) -> int | None:
        ref = self.payload.get("message_reference")
        return int(ref["message_id"]) if ref else None


@dataclass
class Failure:
    status: int
    code: int
    message: str
    times: int = 1


@dataclass
class User:
    id: int
    username: str
    bot: bool = False

    def payload(self) -> dict:
        return {"id": str(self.id), "username": self.username, "global_name": self.username.title(),
                "discriminator": "0", "avatar": None, "bot": self.bot, "public_flags": 0}


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    channels: dict[str, dict] = field(default_factory=dict)  # name -> channel payload
    roles: dict[str, dict] = field(default_factory=dict)  # name -> role payload
    members: dict[int, list[int]] = field(default_factory=dict)  # user id -> role ids

    def channel_id(self, name: str) -> int:
        return int(self.channels[name]["id"])


def _json(data: Any, status: int = 200) -> web.Response:
    """JSON exactly as Discord labels it (discord.py checks for a bare application/json)."""
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


class FakeDiscord:
    """Start with ``await fake.start()``; ``fake.install(monkeypatch)`` points discord.py at it."""

    def __init__(self, token: str = "fake-bot-token", *, message_content_enabled: bool = True,
                 clock: datetime | None = None):
        self.token = token
        self.message_content_enabled = message_content_enabled  # the portal switch for the privileged intent
        self.clock = clock or datetime(2019, 10, 3, 13, 0, tzinfo=UTC)
        self._ids = itertools.count(1)
        self.app_id = self.snowflake()
        self.bot_user = User(self.app_id, "schoolbot", bot=True)
        self.owner = User(self.snowflake(), "owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.closed_dms: set[int] = set()  # users who closed their DMs (or blocked the bot)
        self.failures: dict[int, Failure] = {}  # channel id -> injected error for sends
        self.sent: list[Sent] = []
        self.requests: list[tuple[str, str]] = []  # (method, path) of every HTTP request
        self.commands: dict[str | int, list[dict]] = {}  # "global" or guild id -> registered commands
        self.identify: dict | None = None
        self._tokens: dict[str, int] = {}  # interaction token -> interaction id
        self.ready = asyncio.Event()
        self._ws: web.WebSocketResponse | None = None
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Condition()
        self.base_url = ""

    # ------------------------------------------------------------------ ids, time
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

    # ------------------------------------------------------------------ server
    async def start(self) -> str:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._api)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        return self.base_url

    def install(self, monkeypatch) -> None:
        """Point discord.py's HTTP routes and gateway at this server (its own constants, nothing of ours)."""
        monkeypatch.setattr(discord.http.Route, "BASE", f"{self.base_url}/api/v10")
        monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(f"ws://{self.base_url[7:]}/gateway"))

    async def stop(self) -> None:
        if self._ws is not None and not self._ws.closed:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # ------------------------------------------------------------------ gateway
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._ws = ws
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}, "s": None, "t": None}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            op = data.get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif op == 2:
                self.identify = data["d"]
                if data["d"].get("token") != self.token:
                    await ws.close(code=4004, message=b"Authentication failed.")
                    break
                intents = discord.Intents._from_value(int(data["d"]["intents"]))
                if intents.message_content and not self.message_content_enabled:
                    await ws.close(code=4014, message=b"Disallowed intent(s).")
                    break
                await self._send_ready()
        return ws

    async def _send_ready(self) -> None:
        await self.dispatch("READY", {
            "v": 10, "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
            "session_id": "fake-session", "resume_gateway_url": f"ws://{self.base_url[7:]}/gateway",
            "application": {"id": str(self.app_id), "flags": 0}, "private_channels": [], "relationships": [],
        })
        for guild in self.guilds.values():
            await self.dispatch("GUILD_CREATE", self.guild_payload(guild))
        self.ready.set()

    async def dispatch(self, event: str, data: dict) -> None:
        assert self._ws is not None, "the bot is not connected"
        self._seq += 1
        await self._ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))

    # ------------------------------------------------------------------ HTTP API
    async def _api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        self.requests.append((request.method, path))
        if request.headers.get("Authorization") != f"Bot {self.token}" and not path.startswith(("/interactions/", "/webhooks/")):
            return self._error(401, 0, "401: Unauthorized")
        body = await request.json() if request.can_read_body else None
        parts = path.strip("/").split("/")
        method = request.method
        if method == "GET" and path == "/users/@me":
            return _json({**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0})
        if method == "GET" and path == "/oauth2/applications/@me":
            return _json(self._application())
        if parts[0] == "applications" and parts[-1] == "commands":
            where: str | int = int(parts[3]) if len(parts) == 5 else "global"
            if method == "PUT":
                self.commands[where] = [
                    {**c, "id": str(self.snowflake()), "application_id": str(self.app_id), "version": "1",
                     "default_member_permissions": c.get("default_member_permissions")} for c in body
                ]
            return _json(self.commands.get(where, []))
        if method == "POST" and path == "/users/@me/channels":
            return _json(self._dm_channel_payload(int(body["recipient_id"])))
        if method == "POST" and len(parts) == 3 and parts[0] == "channels" and parts[2] == "messages":
            return await self._channel_send(int(parts[1]), body)
        if method == "POST" and parts[0] == "interactions" and parts[-1] == "callback":
            return await self._interaction_callback(int(parts[1]), body)
        if method == "POST" and parts[0] == "webhooks":
            return await self._followup(parts[2], body)
        return self._error(404, 0, f"404: Not Found ({method} {path} is not faked)")

    def _application(self) -> dict:
        return {"id": str(self.app_id), "name": "schoolbot", "icon": None, "description": "", "bot_public": True,
                "bot_require_code_grant": False, "owner": self.owner.payload(), "verify_key": "0" * 64,
                "team": None, "flags": 0, "summary": "", "rpc_origins": [], "tags": [], "redirect_uris": [],
                "interactions_endpoint_url": None, "approximate_guild_count": len(self.guilds)}

    @staticmethod
    def _error(status: int, code: int, message: str) -> web.Response:
        return _json({"message": message, "code": code}, status=status)

    def _dm_channel_payload(self, user_id: int) -> dict:
        channel_id = self.dm_channels.setdefault(user_id, self.snowflake())
        return {"id": str(channel_id), "type": 1, "last_message_id": None, "recipients": [self.users[user_id].payload()]}

    def _message_payload(self, channel_id: int, body: dict, *, author: User, guild_id: int | None = None) -> dict:
        data = {
            "id": str(self.snowflake()), "channel_id": str(channel_id), "author": author.payload(),
            "content": body.get("content") or "", "timestamp": self.clock.isoformat(), "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": [], "pinned": False, "type": 19 if body.get("message_reference") else 0,
            "flags": body.get("flags") or 0, "components": [],
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return data

    def _guild_of_channel(self, channel_id: int) -> int | None:
        for guild in self.guilds.values():
            if any(int(c["id"]) == channel_id for c in guild.channels.values()):
                return guild.id
        return None

    async def _record(self, sent: Sent) -> None:
        sent.at = asyncio.get_running_loop().time()
        async with self._changed:
            self.sent.append(sent)
            self._changed.notify_all()

    async def _channel_send(self, channel_id: int, body: dict) -> web.Response:
        failure = self.failures.get(channel_id)
        if failure is not None:
            failure.times -= 1
            if failure.times <= 0:
                del self.failures[channel_id]
            return self._error(failure.status, failure.code, failure.message)
        dm_user = next((u for u, c in self.dm_channels.items() if c == channel_id), None)
        if dm_user is not None and dm_user in self.closed_dms:
            return self._error(403, 50007, "Cannot send messages to this user")
        message = self._message_payload(channel_id, body, author=self.bot_user, guild_id=self._guild_of_channel(channel_id))
        await self._record(Sent("message", channel_id, body, message=message))
        return _json(message)

    async def _interaction_callback(self, interaction_id: int, body: dict) -> web.Response:
        data = body.get("data") or {}
        if body["type"] == 8:  # autocomplete result
            await self._record(Sent("autocomplete", None, data, interaction_id))
            return _json({"interaction": {"id": str(interaction_id), "type": 4}})
        await self._record(Sent("interaction", None, data, interaction_id))
        message = self._message_payload(0, data, author=self.bot_user)
        return _json({
            "interaction": {"id": str(interaction_id), "type": 2, "response_message_id": message["id"],
                            "response_message_loading": False,
                            "response_message_ephemeral": bool((data.get("flags") or 0) & EPHEMERAL)},
            "resource": {"type": body["type"], "message": message},
        })

    async def _followup(self, token: str, body: dict) -> web.Response:
        interaction_id = self._tokens.get(token)
        await self._record(Sent("followup", None, body, interaction_id))
        return _json(self._message_payload(0, body, author=self.bot_user))

    # ------------------------------------------------------------------ events from users
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
        if guild is not None:
            channel_payload = guild.channels[channel]
            data.update(guild_id=str(guild.id), channel_id=channel_payload["id"], channel=channel_payload,
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

    async def interact(self, user: User, command: str, options: dict[str, str] | None = None, **where: Any) -> int:
        """The user runs a slash command (or types in an option, when `focused` names it: autocomplete)."""
        data = self.interaction_payload(user, command, options, **where)
        await self.dispatch("INTERACTION_CREATE", data)
        return int(data["id"])

    # ------------------------------------------------------------------ waiting
    async def wait_for(self, predicate: Callable[[list[Sent]], bool], timeout: float = 5.0) -> list[Sent]:
        async def until() -> None:
            async with self._changed:
                await self._changed.wait_for(lambda: predicate(self.sent))

        await asyncio.wait_for(until(), timeout)
        return self.sent

    async def wait_sent(self, count: int, timeout: float = 5.0) -> list[Sent]:
        """Wait until `count` messages were sent in all; returns every message sent so far."""
        return await self.wait_for(lambda sent: len(sent) >= count, timeout)


# ---------------------------------------------------------------------- without a connection
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


# ---------------------------------------------------------------------- helpers for tests
NO_PINGS = {"parse": []}  # allowed_mentions as Discord receives AllowedMentions.none()


def texts(sent: list[Sent]) -> list[str]:
    return [s.content for s in sent]


async def quiet(seconds: float = 0.2) -> None:
    """Give the bot time to (wrongly) send something more."""
    await asyncio.sleep(seconds)


def mention(fake: FakeDiscord) -> str:
    return f"<@{fake.bot_user.id}>"


def transcript(lines: list[str]) -> None:
    """Printed with -s; the issue note quotes it."""
    print("\n" + "\n".join(lines))
