"""The users' side of the fake Bot API: messages, clicks and membership changes queued as updates."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from tests.fakes.telegram.wire import MISSING, Event, Failure, auto_entities, kind_of


class Users:
    """Mixed into FakeTelegram: what users do (each becomes an update ``getUpdates`` serves)."""

    bot_id: int
    username: str
    clock: datetime
    updates: list[dict]
    all_updates: list[dict]
    events: list[Event]
    failures: list[Failure]
    members: dict[tuple[str, str], str]
    sent_messages: list[dict]
    clicks: dict[str, dict]
    _update_ids: itertools.count
    _message_ids: dict[str, itertools.count]

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
                content = msg.get("text") if msg.get("text") is not None else "<" + kind_of(msg) + ">"
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

    def click(self, chat_id: int | str, number: int, *, user_id: int | str | None = None) -> dict:
        """The user presses button `number` (1-based) under the bot's latest message with buttons in the chat."""
        for sent in reversed(self.sent_messages):
            if str(sent["chat"]["id"]) == str(chat_id) and sent.get("reply_markup"):
                message = {k: v for k, v in sent.items() if k != "_params"}
                break
        else:
            raise LookupError(f"no message with buttons in chat {chat_id}")
        button = [b for row in message["reply_markup"]["inline_keyboard"] for b in row][number - 1]
        user_id = user_id if user_id is not None else chat_id
        query = {"id": str(len(self.clicks) + 1), "from": self.user(user_id), "message": message,
                 "chat_instance": f"instance-{chat_id}", "data": button["callback_data"]}
        self.clicks[query["id"]] = query
        self.events.append(Event(str(chat_id), f"Parent{user_id} (pressed)", button["text"]))
        return self.add_update({"callback_query": query})

    # -------------------------------------------------------- failure control
    def fail(self, method: str, status: int, *, times: int = 1, retry_after: float | None = None,
             chat_ids: Iterable[str | int] | None = None, description: str | None = None,
             result: Any = MISSING, migrate_to: int | None = None) -> None:
        """Answer the next `times` calls of `method` (to these chats) with an error.

        status 429 sends parameters.retry_after; status 302 redirects to the very same URL (a
        redirect loop, as a misconfigured proxy makes; each hop counts as one call); status 200 with `result`
        answers ok with that (possibly malformed) result instead; `migrate_to`
        answers that the group became that supergroup.
        """
        if status == 429 and retry_after is None:
            retry_after = 1
        ids = {str(c) for c in chat_ids} if chat_ids is not None else None
        self.failures.append(Failure(method, status, times, retry_after, ids, description, result, migrate_to))

    def flaky(self, method: str, rates: dict[int, float], *, seed: int = 0, retry_after: float = 1) -> None:
        """From now on answer each call of `method` with an error at random: {429: 0.05, 500: 0.01} is 5% 429s
        (with `retry_after`) and 1% 500s, the rest as usual. Seeded, so a run is the same every time."""
        self.flakiness = (method, sorted(rates.items()), random.Random(seed), retry_after)

    def set_member(self, chat_id: int | str, user_id: int | str, status: str) -> None:
        """status: creator, administrator, member, restricted, left or kicked."""
        self.members[(str(chat_id), str(user_id))] = status

