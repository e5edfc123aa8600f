"""A local fake of the parts of Discord's HTTP API and gateway that the adapter uses.

discord.py runs for real against it: its HTTP client talks to an aiohttp server on
127.0.0.1 (``discord.http.Route.BASE`` points there) and its gateway websocket
connects to the same server (``DiscordWebSocket.DEFAULT_GATEWAY``). The server
sends HELLO, checks IDENTIFY (token and intents), answers READY and GUILD_CREATE,
and the tests push MESSAGE_CREATE and INTERACTION_CREATE events (slash commands, button
presses: ``fake.press(user, sent, 2)``) through it.
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
from datetime import UTC, datetime

import discord
import yarl
from aiohttp import WSMsgType, web
from discord.gateway import DiscordWebSocket

from tests.fakes.discord.people import People
from tests.fakes.discord.records import (
    EPHEMERAL,
    NO_PINGS,
    Failure,
    Guild,
    Sent,
    User,
    check_components,
    json_response,
    mention,
    quiet,
    texts,
    transcript,
)
from tests.fakes.discord.world import World

__all__ = ["EPHEMERAL", "NO_PINGS", "Failure", "FakeDiscord", "Guild", "Sent", "User", "mention", "quiet", "texts",
           "transcript"]


class FakeDiscord(World, People):
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
        # The next N requests to an interaction's URL (/interactions/<id>/<token>/..., /webhooks/<app>/<token>/...)
        # are redirected to the very same URL, as a misconfigured proxy would: a loop the client gives up on.
        self.redirect_interactions = 0
        self.sent: list[Sent] = []
        self.requests: list[tuple[str, str]] = []  # (method, path) of every HTTP request
        self.commands: dict[str | int, list[dict]] = {}  # "global" or guild id -> registered commands
        self.identify: dict | None = None
        self._tokens: dict[str, int] = {}  # interaction token -> interaction id
        self._pressed: dict[int, dict] = {}  # interaction id -> the message whose button was pressed
        self.ready = asyncio.Event()
        self._ws: web.WebSocketResponse | None = None
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Condition()
        self.base_url = ""

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
        if self.redirect_interactions > 0 and path.startswith(("/interactions/", "/webhooks/")):
            self.redirect_interactions -= 1
            raise web.HTTPFound(location=str(request.url))
        if request.headers.get("Authorization") != f"Bot {self.token}" and not path.startswith(("/interactions/", "/webhooks/")):
            return self._error(401, 0, "401: Unauthorized")
        body = await request.json() if request.can_read_body else None
        parts = path.strip("/").split("/")
        method = request.method
        if method == "GET" and path == "/users/@me":
            return json_response({**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0})
        if method == "GET" and path == "/oauth2/applications/@me":
            return json_response(self._application())
        if parts[0] == "applications" and parts[-1] == "commands":
            where: str | int = int(parts[3]) if len(parts) == 5 else "global"
            if method == "PUT":
                self.commands[where] = [
                    {**c, "id": str(self.snowflake()), "application_id": str(self.app_id), "version": "1",
                     "default_member_permissions": c.get("default_member_permissions")} for c in body
                ]
            return json_response(self.commands.get(where, []))
        if method == "POST" and path == "/users/@me/channels":
            return json_response(self._dm_channel_payload(int(body["recipient_id"])))
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
        return json_response({"message": message, "code": code}, status=status)

    def _message_payload(self, channel_id: int, body: dict, *, author: User, guild_id: int | None = None) -> dict:
        data = {
            "id": str(self.snowflake()), "channel_id": str(channel_id), "author": author.payload(),
            "content": body.get("content") or "", "timestamp": self.clock.isoformat(), "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": [], "pinned": False, "type": 19 if body.get("message_reference") else 0,
            "flags": body.get("flags") or 0, "components": body.get("components") or [],
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
        problem = check_components(body.get("components") or [])
        if problem:
            return self._error(400, 50035, f"Invalid Form Body: {problem}")
        message = self._message_payload(channel_id, body, author=self.bot_user, guild_id=self._guild_of_channel(channel_id))
        await self._record(Sent("message", channel_id, body, message=message))
        return json_response(message)

    async def _interaction_callback(self, interaction_id: int, body: dict) -> web.Response:
        data = body.get("data") or {}
        if body["type"] == 8:  # autocomplete result
            await self._record(Sent("autocomplete", None, data, interaction_id))
            return json_response({"interaction": {"id": str(interaction_id), "type": 4}})
        if body["type"] == 7:  # UPDATE_MESSAGE: a button's message edited (here: its buttons taken off)
            pressed = self._pressed[interaction_id]
            pressed["components"] = data.get("components", pressed["components"])
            await self._record(Sent("update", int(pressed["channel_id"]), data, interaction_id, message=pressed))
            return json_response({"interaction": {"id": str(interaction_id), "type": 3},
                                  "resource": {"type": 7, "message": pressed}})
        await self._record(Sent("interaction", None, data, interaction_id))
        message = self._message_payload(0, data, author=self.bot_user)
        return json_response({
            "interaction": {"id": str(interaction_id), "type": 2, "response_message_id": message["id"],
                            "response_message_loading": False,
                            "response_message_ephemeral": bool((data.get("flags") or 0) & EPHEMERAL)},
            "resource": {"type": body["type"], "message": message},
        })

    async def _followup(self, token: str, body: dict) -> web.Response:
        interaction_id = self._tokens.get(token)
        await self._record(Sent("followup", None, body, interaction_id))
        return json_response(self._message_payload(0, body, author=self.bot_user))

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

