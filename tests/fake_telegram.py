"""A fake Telegram Bot API server for tests and benchmarks (aiohttp, 127.0.0.1, random port).

Point python-telegram-bot at it with ``base_url=fake.base_url``. It answers
the methods the bot uses the way the real Bot API does (same JSON shapes and
error codes), records every call, and lets a test:

- queue updates that ``getUpdates`` serves (honouring ``offset``, ``limit``
  and long-poll ``timeout``; an ``offset`` confirms the updates before it,
  as on Telegram, so unconfirmed updates are served again after a restart);
- make the next calls fail: ``fake.fail("sendMessage", 429, retry_after=1)``,
  ``fake.fail("sendMessage", 403, chat_ids=["42"])``, ``fake.fail("getUpdates", 409)``;
- say who administers a group: ``fake.set_member(chat_id, user_id, "administrator")``;
- read what the bot sent: ``fake.sent(chat_id)``, ``fake.transcript(chat_id)``;
- deliver an update to a webhook the bot registered with ``setWebhook``.

Used in-process (``async with FakeTelegram() as fake``) or as a separate
process for benchmarks: ``python tests/fake_telegram.py`` prints its base URL
and accepts ``POST /_fake/updates`` (a JSON list of updates or of
``{"private": {...}}`` / ``{"group": {...}}`` shorthands) and
``GET /_fake/stats``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from aiohttp import ClientSession, web

DEFAULT_TOKEN = "123456:TEST-token-for-the-fake-server"
BOT_ID = 123456
BOT_USERNAME = "schoolbot_test_bot"
# The scenario clock of the tests: Thursday 2019-10-03 09:00 in Toronto.
SCENARIO_TIME = datetime(2019, 10, 3, 9, 0, tzinfo=ZoneInfo("America/Toronto"))
ANONYMOUS_ADMIN_ID = 1087968824  # Telegram's "GroupAnonymousBot"

_MISSING = object()
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
    result: Any = _MISSING
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


_DESCRIPTIONS = {
    400: "Bad Request: chat not found",
    401: "Unauthorized",
    403: "Forbidden: bot was blocked by the user",
    404: "Not Found",
    409: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
    429: "Too Many Requests: retry after {retry_after}",
    500: "Internal Server Error",
    502: "Bad Gateway",
}


class FakeTelegram:
    def __init__(self, *, token: str = DEFAULT_TOKEN, bot_id: int = BOT_ID, username: str = BOT_USERNAME,
                 first_update_id: int = 5000, host: str = "127.0.0.1", port: int = 0):
        self.token = token
        self.bot_id = bot_id
        self.username = username
        self.host = host
        self.port = port
        self.clock: datetime = SCENARIO_TIME  # the date put on messages users send
        self.calls: list[Call] = []
        self.updates: list[dict] = []  # not yet confirmed by an offset
        self.all_updates: list[dict] = []
        self.events: list[Event] = []
        self.failures: list[Failure] = []
        self.members: dict[tuple[str, str], str] = {}
        self.sent_messages: list[dict] = []  # Message objects the bot sent, in order
        self.commands: dict[str, list] = {}
        self.webhook: dict | None = None
        self.record_calls = True
        self.send_count = 0
        self._update_ids = itertools.count(first_update_id)
        self._message_ids: dict[str, itertools.count] = {}
        self._changed = asyncio.Event()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._session: ClientSession | None = None

    # ------------------------------------------------------------- lifecycle
    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/bot"

    async def start(self) -> FakeTelegram:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_post("/_fake/updates", self._control_updates)
        app.router.add_get("/_fake/stats", self._control_stats)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # the random port we got
        return self

    async def stop(self) -> None:
        self._closing = True
        self._notify()
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeTelegram:
        return await self.start()

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    # ----------------------------------------------------- injecting updates
    def bot_user(self) -> dict:
        return {"id": self.bot_id, "is_bot": True, "first_name": "School Bot", "username": self.username}

    @staticmethod
    def user(user_id: int | str, name: str = "") -> dict:
        user = {"id": int(user_id), "is_bot": False, "first_name": name or f"Parent{user_id}"}
        return user

    def chat(self, chat_id: int | str, kind: str | None = None, title: str = "") -> dict:
        chat_id = int(chat_id)
        if kind is None:
            kind = "private" if chat_id > 0 else "supergroup"
        if kind == "private":
            return {"id": chat_id, "type": "private", "first_name": f"Parent{chat_id}"}
        return {"id": chat_id, "type": kind, "title": title or f"Parents group {chat_id}"}

    def _next_message_id(self, chat_id: int | str) -> int:
        counter = self._message_ids.setdefault(str(chat_id), itertools.count(1))
        return next(counter)

    def message(self, text: str | None = None, *, chat_id: int | str, user_id: int | str | None = None,
                chat_type: str | None = None, name: str = "", reply_to: dict | None = None,
                date: datetime | None = None, entities: list[dict] | None = None, **extra: Any) -> dict:
        """A Message object as Telegram sends it (text gets its entities computed)."""
        chat = self.chat(chat_id, chat_type)
        msg: dict[str, Any] = {
            "message_id": self._next_message_id(chat_id),
            "date": int((date or self.clock).timestamp()),
            "chat": chat,
        }
        if user_id is not None:
            msg["from"] = self.user(user_id, name)
        if text is not None:
            msg["text"] = text
            ents = auto_entities(text) if entities is None else entities
            if ents:
                msg["entities"] = ents
        if reply_to is not None:
            msg["reply_to_message"] = reply_to
        msg.update(extra)
        return msg

    def add_update(self, update: dict) -> dict:
        """Queue a raw update (update_id is assigned). Returns the full update."""
        update = {"update_id": next(self._update_ids), **update}
        self.updates.append(update)
        self.all_updates.append(update)
        for key in ("message", "edited_message", "channel_post"):
            msg = update.get(key)
            if msg is not None:
                who = (msg.get("from") or {}).get("first_name") or "channel"
                label = {"message": "", "edited_message": " (edited)", "channel_post": " (channel post)"}[key]
                content = msg.get("text") if msg.get("text") is not None else "<" + _kind_of(msg) + ">"
                self.events.append(Event(str(msg["chat"]["id"]), f"{who}{label}", content))
        self._notify()
        return update

    def private(self, text: str | None, *, user_id: int | str = 1001, name: str = "", **extra: Any) -> dict:
        """A private-chat message from a user to the bot (chat id = user id)."""
        return self.add_update({"message": self.message(text, chat_id=user_id, user_id=user_id, name=name, **extra)})

    def group(self, text: str | None, *, chat_id: int | str = -1001234567890, user_id: int | str = 2001,
              name: str = "", **extra: Any) -> dict:
        """A message in a (super)group the bot is a member of."""
        return self.add_update({"message": self.message(text, chat_id=chat_id, user_id=user_id, name=name, **extra)})

    def edited(self, text: str, *, chat_id: int | str = 1001, user_id: int | str = 1001) -> dict:
        msg = self.message(text, chat_id=chat_id, user_id=user_id, edit_date=int(self.clock.timestamp()) + 60)
        return self.add_update({"edited_message": msg})

    def channel_post(self, text: str | None, *, chat_id: int | str = -1009876543210) -> dict:
        msg = self.message(text, chat_id=chat_id, chat_type="channel",
                           sender_chat=self.chat(chat_id, "channel"))
        return self.add_update({"channel_post": msg})

    def sticker(self, *, chat_id: int | str = 1001, user_id: int | str = 1001) -> dict:
        sticker = {"file_id": "CAACAgIAAxkBAAE", "file_unique_id": "AgADBAADu", "type": "regular",
                   "width": 512, "height": 512, "is_animated": False, "is_video": False, "emoji": "👍"}
        return self.add_update({"message": self.message(None, chat_id=chat_id, user_id=user_id, sticker=sticker)})

    def membership(self, new_status: str, *, chat_id: int | str = 1001, user_id: int | str = 1001,
                   old_status: str = "member") -> dict:
        """A my_chat_member update: the bot's own status in a chat changed (e.g. "kicked" = blocked)."""
        def member(status: str) -> dict:
            data: dict[str, Any] = {"status": status, "user": self.bot_user()}
            if status == "kicked":
                data["until_date"] = 0
            return data

        return self.add_update({"my_chat_member": {
            "chat": self.chat(chat_id), "from": self.user(user_id), "date": int(self.clock.timestamp()),
            "old_chat_member": member(old_status), "new_chat_member": member(new_status),
        }})

    # -------------------------------------------------------- failure control
    def fail(self, method: str, status: int, *, times: int = 1, retry_after: float | None = None,
             chat_ids: Iterable[str | int] | None = None, description: str | None = None,
             result: Any = _MISSING, migrate_to: int | None = None) -> None:
        """Answer the next `times` calls of `method` (to these chats) with an error.

        status 429 sends parameters.retry_after; status 200 with `result`
        answers ok with that (possibly malformed) result instead; `migrate_to`
        answers that the group became that supergroup.
        """
        if status == 429 and retry_after is None:
            retry_after = 1
        ids = {str(c) for c in chat_ids} if chat_ids is not None else None
        self.failures.append(Failure(method, status, times, retry_after, ids, description, result, migrate_to))

    def set_member(self, chat_id: int | str, user_id: int | str, status: str) -> None:
        """status: creator, administrator, member, restricted, left or kicked."""
        self.members[(str(chat_id), str(user_id))] = status

    # --------------------------------------------------------------- reading
    def calls_to(self, method: str) -> list[dict]:
        return [c.params for c in self.calls if c.method == method]

    def sent(self, chat_id: int | str | None = None) -> list[dict]:
        """Parameters of every successful sendMessage (to one chat)."""
        return [m["_params"] for m in self.sent_messages if chat_id is None or str(m["chat"]["id"]) == str(chat_id)]

    def sent_texts(self, chat_id: int | str | None = None) -> list[str]:
        return [p["text"] for p in self.sent(chat_id)]

    def last_sent_message(self, chat_id: int | str) -> dict:
        """The Message object (as returned to the bot) of the bot's latest message in a chat."""
        for m in reversed(self.sent_messages):
            if str(m["chat"]["id"]) == str(chat_id):
                return {k: v for k, v in m.items() if k != "_params"}
        raise LookupError(f"the bot sent nothing to {chat_id}")

    def confirmed(self, update_id: int) -> bool:
        """Did the bot confirm (acknowledge with a later offset) this update?"""
        return all(u["update_id"] != update_id for u in self.updates)

    def transcript(self, chat_id: int | str) -> str:
        lines = []
        for e in self.events:
            if e.chat_id == str(chat_id):
                text = e.text.replace("\n", "\n    ")
                lines.append(f"{e.who}: {text}")
        return "\n".join(lines)

    async def wait_for(self, condition: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout}s waiting for {what}")
            await asyncio.sleep(0.01)

    async def wait_sent(self, count: int, chat_id: int | str | None = None, timeout: float = 10.0) -> list[str]:
        await self.wait_for(lambda: len(self.sent(chat_id)) >= count, timeout, f"{count} messages to {chat_id}")
        return self.sent_texts(chat_id)

    async def wait_confirmed(self, update: dict | int, timeout: float = 10.0) -> None:
        """Wait until the bot acknowledged an update, i.e. has finished handling it."""
        update_id = update if isinstance(update, int) else update["update_id"]
        await self.wait_for(lambda: self.confirmed(update_id), timeout, f"update {update_id} to be confirmed")

    # ------------------------------------------------------------- webhook
    async def deliver(self, update: dict, *, secret: str | None = _MISSING) -> int:  # type: ignore[assignment]
        """POST an update to the registered webhook, as Telegram does. Returns the HTTP status."""
        if self.webhook is None:
            raise LookupError("no webhook is set")
        if secret is _MISSING:
            secret = self.webhook.get("secret_token")
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret else {}
        if self._session is None:
            self._session = ClientSession()
        async with self._session.post(self.webhook["url"], json=update, headers=headers) as resp:
            return resp.status

    # ------------------------------------------------------------ the server
    async def _params(self, request: web.Request) -> dict:
        params: dict[str, Any] = dict(request.query)
        if request.method == "POST" and request.can_read_body:
            if request.content_type == "application/json":
                body = await request.json()
                if isinstance(body, dict):
                    params.update(body)
            else:
                form = await request.post()
                for key, value in form.items():
                    params[key] = _decode(value) if isinstance(value, str) else value
        return params

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params = await self._params(request)
        if self.record_calls:
            self.calls.append(Call(method, params, time.monotonic()))
        if request.match_info["token"] != self.token:
            return _error(401)
        for failure in self.failures:
            if failure.matches(method, params):
                failure.times -= 1
                if failure.status == 200:
                    return web.json_response({"ok": True, "result": failure.result})
                return _error(failure.status, failure.description, failure.retry_after, failure.migrate_to)
        handler = getattr(self, "_api_" + method, None)
        if handler is None:
            return _error(404)
        try:
            result = await handler(params)
        except _ApiError as exc:
            return _error(exc.status, exc.description)
        return web.json_response({"ok": True, "result": result})

    async def _api_getMe(self, params: dict) -> dict:
        return {**self.bot_user(), "can_join_groups": True, "can_read_all_group_messages": False,
                "supports_inline_queries": False}

    async def _api_getUpdates(self, params: dict) -> list[dict]:
        if self.webhook is not None:
            raise _ApiError(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first")
        offset = int(params.get("offset") or 0)
        limit = int(params.get("limit") or 100)
        timeout = float(params.get("timeout") or 0)
        if offset:
            self.updates = [u for u in self.updates if u["update_id"] >= offset]  # confirm
        deadline = time.monotonic() + timeout
        while True:
            pending = [u for u in self.updates if u["update_id"] >= offset][:limit]
            remaining = deadline - time.monotonic()
            if pending or remaining <= 0 or self._closing:
                return pending
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except TimeoutError:
                pass

    async def _api_deleteWebhook(self, params: dict) -> bool:
        self.webhook = None
        if params.get("drop_pending_updates") in (True, "true", "True"):
            self.updates.clear()
        return True

    async def _api_setWebhook(self, params: dict) -> bool:
        if not str(params.get("url", "")).startswith(("https://", "http://")):
            if params.get("url"):
                raise _ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
            self.webhook = None
            return True
        self.webhook = {"url": params["url"], "secret_token": params.get("secret_token")}
        if params.get("drop_pending_updates") in (True, "true", "True"):
            self.updates.clear()
        return True

    async def _api_getWebhookInfo(self, params: dict) -> dict:
        return {"url": (self.webhook or {}).get("url", ""), "has_custom_certificate": False,
                "pending_update_count": len(self.updates)}

    async def _api_setMyCommands(self, params: dict) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list) or not commands:
            raise _ApiError(400, "Bad Request: commands must be a non-empty list")
        for c in commands:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", c.get("command", "")) or not 1 <= len(c.get("description", "")) <= 256:
                raise _ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
        self.commands[_scope_key(params)] = commands
        return True

    async def _api_getMyCommands(self, params: dict) -> list:
        return self.commands.get(_scope_key(params), [])

    async def _api_deleteMyCommands(self, params: dict) -> bool:
        self.commands.pop(_scope_key(params), None)
        return True

    async def _api_sendMessage(self, params: dict) -> dict:
        chat_id = str(params.get("chat_id", ""))
        if not re.fullmatch(r"-?\d+", chat_id):
            raise _ApiError(400, "Bad Request: chat not found")
        text = params.get("text")
        if not isinstance(text, str) or not text.strip():
            raise _ApiError(400, "Bad Request: message text is empty")
        if utf16_len(text) > 4096:
            raise _ApiError(400, "Bad Request: message is too long")
        if params.get("parse_mode") not in (None, ""):
            _check_markup(text, params["parse_mode"])
        self.send_count += 1
        msg: dict[str, Any] = {
            "message_id": self._next_message_id(chat_id),
            "date": int(self.clock.timestamp()),
            "chat": self.chat(chat_id),
            "from": self.bot_user(),
            "text": text,
        }
        if params.get("message_thread_id"):
            msg["message_thread_id"] = int(params["message_thread_id"])
        if self.record_calls:
            self.sent_messages.append({**msg, "_params": params})
            self.events.append(Event(chat_id, "bot", text))
        return msg

    async def _api_sendChatAction(self, params: dict) -> bool:
        return True

    def _member(self, chat_id: str, user_id: str) -> dict:
        status = self.members.get((chat_id, user_id), "member")
        user = self.user(user_id) if int(user_id) != self.bot_id else self.bot_user()
        data: dict[str, Any] = {"status": status, "user": user}
        if status == "creator":
            data["is_anonymous"] = False
        elif status == "administrator":
            data.update({k: True for k in (
                "can_be_edited", "can_manage_chat", "can_delete_messages", "can_manage_video_chats",
                "can_restrict_members", "can_promote_members", "can_change_info", "can_invite_users",
                "can_post_stories", "can_edit_stories", "can_delete_stories")})
            data["can_be_edited"] = False
            data["is_anonymous"] = False
        elif status == "restricted":
            data.update({k: False for k in (
                "can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos",
                "can_send_videos", "can_send_video_notes", "can_send_voice_notes", "can_send_polls",
                "can_send_other_messages", "can_add_web_page_previews", "can_change_info",
                "can_invite_users", "can_pin_messages", "can_manage_topics")})
            data.update({"is_member": True, "until_date": 0})
        elif status == "kicked":
            data["until_date"] = 0
        return data

    async def _api_getChatMember(self, params: dict) -> dict:
        chat_id, user_id = str(params.get("chat_id", "")), str(params.get("user_id", ""))
        if not re.fullmatch(r"-?\d+", chat_id) or not re.fullmatch(r"\d+", user_id):
            raise _ApiError(400, "Bad Request: chat not found")
        return self._member(chat_id, user_id)

    async def _api_getChatAdministrators(self, params: dict) -> list[dict]:
        chat_id = str(params.get("chat_id", ""))
        return [self._member(c, u) for (c, u), s in self.members.items()
                if c == chat_id and s in ("creator", "administrator")]

    # ------------------------------------------------ out-of-process control
    async def _control_updates(self, request: web.Request) -> web.Response:
        items = await request.json()
        added = []
        for item in items if isinstance(items, list) else [items]:
            if "private" in item:
                added.append(self.private(**item["private"]))
            elif "group" in item:
                added.append(self.group(**item["group"]))
            else:
                added.append(self.add_update(item))
        return web.json_response([u["update_id"] for u in added])

    async def _control_stats(self, request: web.Request) -> web.Response:
        return web.json_response({"sent": self.send_count, "pending_updates": len(self.updates),
                                  "calls": len(self.calls)})


class _ApiError(Exception):
    def __init__(self, status: int, description: str):
        super().__init__(description)
        self.status = status
        self.description = description


def _error(status: int, description: str | None = None, retry_after: float | None = None,
           migrate_to: int | None = None) -> web.Response:
    text = description or _DESCRIPTIONS.get(status, "Error").format(retry_after=retry_after)
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": text}
    if retry_after is not None:
        body["parameters"] = {"retry_after": retry_after}
    if migrate_to is not None:
        body["description"] = description or "Bad Request: group chat was upgraded to a supergroup chat"
        body["parameters"] = {"migrate_to_chat_id": migrate_to}
    return web.json_response(body, status=status)


def _decode(value: str) -> Any:
    """Form values: python-telegram-bot JSON-encodes objects and lists, and sends numbers as text."""
    if value[:1] in "[{" or value in ("true", "false", "null"):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _scope_key(params: dict) -> str:
    scope = params.get("scope") or {"type": "default"}
    return json.dumps([scope, params.get("language_code") or ""], sort_keys=True)


def _check_markup(text: str, mode: str) -> None:
    if mode.lower().startswith("markdown") and text.count("*") % 2:
        raise _ApiError(400, "Bad Request: can't parse entities: Can't find end of the entity")
    if mode.lower() == "html" and re.search(r"<(?![/a-z])", text):
        raise _ApiError(400, "Bad Request: can't parse entities: Unsupported start tag")


def _kind_of(msg: dict) -> str:
    for key in ("sticker", "photo", "voice", "video", "document", "animation", "location", "contact",
                "new_chat_members", "left_chat_member"):
        if key in msg:
            return key
    return "no text"


async def _serve_forever(port: int) -> None:
    fake = await FakeTelegram(port=port).start()
    fake.record_calls = False  # a long benchmark must not grow memory without bound
    print(f"fake Bot API listening: {fake.base_url} token {fake.token}", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await fake.stop()


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Run the fake Telegram Bot API server")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    try:
        asyncio.run(_serve_forever(args.port))
    except KeyboardInterrupt:
        pass
