"""What the fake Discord records and is made of: sent messages, injected failures, users, servers; test helpers."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import discord
from aiohttp import web

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

    kind: str  # "message" (channel send) | "interaction" (callback) | "update" (a message edited) | "followup"
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


def check_components(rows: list) -> str:
    """What Discord would refuse in a message's buttons ("" when fine): at most 5 rows of 5, labels of 80."""
    if len(rows) > 5:
        return "components: at most 5 action rows"
    for row in rows:
        buttons = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(buttons) <= 5:
            return "components: an action row holds 1 to 5 components"
        for button in buttons:
            if len(button.get("label") or "") > 80 or not 1 <= len(button.get("custom_id") or "") <= 100:
                return "components: a button's label is at most 80 characters, its custom_id 1 to 100"
    return ""


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON exactly as Discord labels it (discord.py checks for a bare application/json)."""
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


NO_PINGS = {"parse": []}  # allowed_mentions as Discord receives AllowedMentions.none()


def texts(sent: list[Sent]) -> list[str]:
    return [s.content for s in sent]


async def quiet(seconds: float = 0.2) -> None:
    """Give the bot time to (wrongly) send something more."""
    await asyncio.sleep(seconds)


def mention(fake: Any) -> str:
    return f"<@{fake.bot_user.id}>"


def transcript(lines: list[str]) -> None:
    """Printed with -s; the issue note quotes it."""
    print("\n" + "\n".join(lines))
