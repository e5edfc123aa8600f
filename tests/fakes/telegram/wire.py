"""What the fake Bot API shares: its identity, the records of calls, and the wire format (errors, form values)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from aiohttp import web

DEFAULT_TOKEN = "123456:TEST-token-for-the-fake-server"
BOT_ID = 123456
BOT_USERNAME = "schoolbot_test_bot"
# The scenario clock of the tests: Thursday 2019-10-03 09:00 in Toronto.
SCENARIO_TIME = datetime(2019, 10, 3, 9, 0, tzinfo=ZoneInfo("America/Toronto"))
ANONYMOUS_ADMIN_ID = 1087968824  # Telegram's "GroupAnonymousBot"

MISSING = object()
_COMMAND = re.compile(r"(?<![\w/])/[A-Za-z0-9_]+(?:@[A-Za-z0-9_]+)?")
_MENTION = re.compile(r"(?<![\w@])@[A-Za-z0-9_]{5,32}")


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def auto_entities(text: str) -> list[dict]:
    """bot_command and mention entities as Telegram computes them (UTF-16 offsets)."""
    entities = []
    for pattern, kind in ((_COMMAND, "bot_command"), (_MENTION, "mention")):
        for m in pattern.finditer(text):
            entities.append({"type": kind, "offset": utf16_len(text[: m.start()]), "length": utf16_len(m.group())})
    return sorted(entities, key=lambda e: e["offset"])


@dataclass
class Call:
    method: str
    params: dict
    at: float


@dataclass
class Failure:
    method: str
    status: int
    times: int
    retry_after: float | None = None
    chat_ids: set[str] | None = None
    description: str | None = None
    result: Any = MISSING
    migrate_to: int | None = None  # 400 "group chat was upgraded to a supergroup chat"

    def matches(self, method: str, params: dict) -> bool:
        if self.times <= 0 or method != self.method:
            return False
        return self.chat_ids is None or str(params.get("chat_id")) in self.chat_ids


@dataclass
class Event:
    """One line of a chat transcript: who said what."""

    chat_id: str
    who: str  # "user:<name>" or "bot"
    text: str


DESCRIPTIONS = {
    400: "Bad Request: chat not found",
    401: "Unauthorized",
    403: "Forbidden: bot was blocked by the user",
    404: "Not Found",
    409: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
    429: "Too Many Requests: retry after {retry_after}",
    500: "Internal Server Error",
    502: "Bad Gateway",
}



class ApiError(Exception):
    def __init__(self, status: int, description: str):
        super().__init__(description)
        self.status = status
        self.description = description


def error(status: int, description: str | None = None, retry_after: float | None = None,
           migrate_to: int | None = None) -> web.Response:
    text = description or DESCRIPTIONS.get(status, "Error").format(retry_after=retry_after)
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": text}
    if retry_after is not None:
        body["parameters"] = {"retry_after": retry_after}
    if migrate_to is not None:
        body["description"] = description or "Bad Request: group chat was upgraded to a supergroup chat"
        body["parameters"] = {"migrate_to_chat_id": migrate_to}
    return web.json_response(body, status=status)


def decode(value: str) -> Any:
    """Form values: python-telegram-bot JSON-encodes objects and lists, and sends numbers as text."""
    if value[:1] in "[{" or value in ("true", "false", "null"):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def scope_key(params: dict) -> str:
    scope = params.get("scope") or {"type": "default"}
    return json.dumps([scope, params.get("language_code") or ""], sort_keys=True)


def check_markup(text: str, mode: str) -> None:
    if mode.lower().startswith("markdown") and text.count("*") % 2:
        raise ApiError(400, "Bad Request: can't parse entities: Can't find end of the entity")
    if mode.lower() == "html" and re.search(r"<(?![/a-z])", text):
        raise ApiError(400, "Bad Request: can't parse entities: Unsupported start tag")


def check_keyboard(markup: Any) -> dict:
    """An inline keyboard as Telegram checks it: rows of buttons, each with text and 1-64 bytes of callback_data."""
    rows = markup.get("inline_keyboard") if isinstance(markup, dict) else None
    if not isinstance(rows, list) or not all(isinstance(row, list) and row for row in rows):
        raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
    for button in (b for row in rows for b in row):
        if not isinstance(button, dict) or not str(button.get("text", "")).strip():
            raise ApiError(400, "Bad Request: can't parse inline keyboard button: Text buttons are unallowed")
        if not 1 <= len(str(button.get("callback_data", "")).encode()) <= 64:
            raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
    return markup


def kind_of(msg: dict) -> str:
    for key in ("sticker", "photo", "voice", "video", "document", "animation", "location", "contact",
                "new_chat_members", "left_chat_member"):
        if key in msg:
            return key
    return "no text"

