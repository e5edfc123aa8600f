"""The Bot API side of the fake: each method the bot calls, answered as Telegram does."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from aiohttp import web

from tests.fakes.telegram.wire import (
    ApiError,
    Call,
    Event,
    check_keyboard,
    check_markup,
    decode,
    error,
    scope_key,
    utf16_len,
)


class BotApi:
    """Mixed into FakeTelegram: the HTTP handler and one ``_api_<method>`` per Bot API method."""

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
                    params[key] = decode(value) if isinstance(value, str) else value
        return params

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params = await self._params(request)
        if self.record_calls:
            self.calls.append(Call(method, params, time.monotonic()))
        if request.match_info["token"] != self.token:
            return error(401)
        for failure in self.failures:
            if failure.matches(method, params):
                failure.times -= 1
                if failure.status == 302:  # a misconfigured proxy: back to the same URL, until the client gives up
                    raise web.HTTPFound(location=str(request.url))
                if failure.status == 200:
                    return web.json_response({"ok": True, "result": failure.result})
                return error(failure.status, failure.description, failure.retry_after, failure.migrate_to)
        if self.flakiness is not None and self.flakiness[0] == method:
            _, rates, rng, retry_after = self.flakiness
            draw = rng.random()
            for status, rate in rates:
                if draw < rate:
                    self.flaked[status] = self.flaked.get(status, 0) + 1
                    return error(status, retry_after=retry_after if status == 429 else None)
                draw -= rate
        handler = getattr(self, "_api_" + method, None)
        if handler is None:
            return error(404)
        try:
            result = await handler(params)
        except ApiError as exc:
            return error(exc.status, exc.description)
        return web.json_response({"ok": True, "result": result})

    async def _api_getMe(self, params: dict) -> dict:
        return {**self.bot_user(), "can_join_groups": True, "can_read_all_group_messages": False,
                "supports_inline_queries": False}

    async def _api_getUpdates(self, params: dict) -> list[dict]:
        if self.webhook is not None:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first")
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
                raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
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
            raise ApiError(400, "Bad Request: commands must be a non-empty list")
        for c in commands:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", c.get("command", "")) or not 1 <= len(c.get("description", "")) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
        self.commands[scope_key(params)] = commands
        return True

    async def _api_getMyCommands(self, params: dict) -> list:
        return self.commands.get(scope_key(params), [])

    async def _api_deleteMyCommands(self, params: dict) -> bool:
        self.commands.pop(scope_key(params), None)
        return True

    async def _api_sendMessage(self, params: dict) -> dict:
        chat_id = str(params.get("chat_id", ""))
        if not re.fullmatch(r"-?\d+", chat_id):
            raise ApiError(400, "Bad Request: chat not found")
        text = params.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if utf16_len(text) > 4096:
            raise ApiError(400, "Bad Request: message is too long")
        if params.get("parse_mode") not in (None, ""):
            check_markup(text, params["parse_mode"])
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
        if params.get("reply_markup") is not None:
            msg["reply_markup"] = check_keyboard(params["reply_markup"])
        if self.record_calls:
            self.sent_messages.append({**msg, "_params": params})
            self.events.append(Event(chat_id, "bot", text))
        return msg

    async def _api_sendChatAction(self, params: dict) -> bool:
        return True

    async def _api_answerCallbackQuery(self, params: dict) -> bool:
        query_id = str(params.get("callback_query_id", ""))
        if query_id not in self.clicks or query_id in self.answered_clicks:
            raise ApiError(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        self.answered_clicks.append(query_id)
        return True

    async def _api_editMessageReplyMarkup(self, params: dict) -> dict:
        chat_id, message_id = str(params.get("chat_id", "")), int(params.get("message_id") or 0)
        for sent in self.sent_messages:
            if str(sent["chat"]["id"]) == chat_id and sent["message_id"] == message_id:
                markup = params.get("reply_markup")
                if markup is None and "reply_markup" not in sent:
                    raise ApiError(400, "Bad Request: message is not modified")
                if markup is None:
                    del sent["reply_markup"]
                else:
                    sent["reply_markup"] = check_keyboard(markup)
                return {k: v for k, v in sent.items() if k != "_params"}
        raise ApiError(400, "Bad Request: message to edit not found")

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
            raise ApiError(400, "Bad Request: chat not found")
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

