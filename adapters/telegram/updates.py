"""Handling updates: each one exactly once, through :meth:`bot.core.Bot.handle`, its replies queued.

Delivery guarantees:

- Handling an update computes its replies and writes them to the reply queue
  (:mod:`bot.reply_queue`) in the same transaction as the update's id goes to
  the journal (:mod:`adapters.telegram.journal`): an update served again after
  a crash or restart is skipped, and its replies are sent from the queue.
- Handling does not wait for the sends: the reply lanes (:mod:`bot.reply_lanes`)
  send each chat's replies in order, a chat under flood control waiting alone.
- A failure while handling one update is logged with its update id and the
  update is skipped; the bot keeps running.
- Replies are plain text split at 4,096 characters; a 429 is waited out in the
  chat's lane, a 5xx or network error backs off, a 403 means the chat is gone:
  the core makes its subscriptions inactive.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterable

from telegram import Bot as TelegramBot
from telegram import CallbackQuery, Message, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError

from adapters.choices import not_yours
from adapters.redaction import redact, redacting_logger
from adapters.telegram.choices import keyboard, pick_to_incoming, pressed_by_another
from adapters.telegram.convert import (
    PLATFORM,
    Identity,
    chat_key,
    chat_left,
    chat_migrated,
    to_incoming,
    update_kind,
)
from adapters.telegram.journal import UpdateJournal
from adapters.telegram.sender import TelegramSender
from bot.core import Bot
from bot.messages import Reply, SendOutcome
from bot.reply_lanes import ReplyLanes
from bot.reply_queue import Outgoing, ReplyQueue
from bot.text import plain, split_text

log = redacting_logger("schoolbot.telegram")

ADMIN_STATUSES = {ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR}


class UpdateHandler:
    """Turns updates into core calls and replies into queued sends."""

    def __init__(self, bot: Bot, tg: TelegramBot, sender: TelegramSender, journal: UpdateJournal, me: Identity,
                 *, window: int = 8):
        self.bot = bot
        self.tg = tg
        self.sender = sender
        self.journal = journal
        self.me = me
        self.lanes = ReplyLanes(ReplyQueue(bot.store, PLATFORM, journal.bot_key), self.send, window=window,
                                on_blocked=lambda chat: bot.chat_unreachable(PLATFORM, chat), logger=log)
        self.handled = 0
        self.crashed = 0
        self._inflight: set[int] = set()

    async def handle(self, update: Update) -> None:
        """Handle one update exactly once and queue its replies. Never raises (except on cancellation)."""
        uid = update.update_id
        if uid in self._inflight or self.journal.seen(uid):
            log.debug("telegram update %s was already handled; skipped", uid)
            return
        self._inflight.add(uid)
        try:
            replies: list[Outgoing] = []
            try:
                replies = await self._dispatch(update)
                self.handled += 1
            except Exception:
                self.crashed += 1
                log.exception("telegram update %s: handling failed; the update is skipped", uid)
            try:  # the replies and the mark in one transaction: neither without the other after a kill
                self.lanes.queue_and_send(replies, lambda: self.journal.mark(uid))
            except Exception:
                log.exception("telegram update %s: could not queue its replies or record it as handled", uid)
        finally:
            self._inflight.discard(uid)

    async def handle_batch(self, updates: Iterable[Update]) -> None:
        """Handle a batch: chats in parallel, each chat's updates in order."""
        lanes: dict[object, list[Update]] = {}
        for update in updates:
            lanes.setdefault(chat_key(update), []).append(update)

        async def lane(items: list[Update]) -> None:
            for item in items:
                await self.handle(item)

        if len(lanes) == 1:
            await lane(next(iter(lanes.values())))
            return
        results = await asyncio.gather(*(lane(items) for items in lanes.values()), return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
                log.error("telegram: a batch lane failed: %s", redact(repr(result)))

    async def _dispatch(self, update: Update) -> list[Outgoing]:
        """The replies to one update (none for most kinds but a message or a click)."""
        left = chat_left(update)
        if left is not None:
            stopped = self.bot.chat_unreachable(PLATFORM, left)
            log.info("telegram: removed from or blocked in chat %s; %d subscription(s) made inactive", left, stopped)
            return []
        moved = chat_migrated(update)
        if moved is not None:
            count = self.bot.chat_moved(PLATFORM, *moved)
            log.info("telegram: group %s is now %s; %d subscription(s) moved", *moved, count)
            return []
        if update.callback_query is not None:
            return await self._dispatch_click(update.callback_query)
        message = update.message
        if message is None:  # edited messages, channel posts and other kinds: nothing to answer
            log.debug("telegram update %s: nothing to answer (%s)", update.update_id, update_kind(update))
            return []
        incoming = to_incoming(message, self.me)
        if incoming is None:
            return []
        if self.bot.needs_group_admin(incoming):
            incoming = dataclasses.replace(incoming, group_admin=await self.is_group_admin(message))
        return self.outgoing(message, self.bot.handle(incoming))

    async def _dispatch_click(self, query: CallbackQuery) -> list[Outgoing]:
        """A choice button: answer the click (the spinner stops), take the buttons off, then the pick as a message."""
        another = pressed_by_another(query)
        told = not_yours(self.bot, pick_to_incoming(query, self.bot.clock())) if another else None
        try:
            await self.tg.answer_callback_query(query.id, text=told)
        except TelegramError as exc:  # only the spinner; the pick is still answered
            log.info("telegram: could not answer callback query %s: %s", query.id, redact(exc))
        if another:
            return []
        incoming = pick_to_incoming(query, self.bot.clock())
        if incoming is None:
            return []
        message = query.message
        try:
            await self.tg.edit_message_reply_markup(chat_id=message.chat.id, message_id=message.message_id)
        except TelegramError as exc:  # the buttons stay; a second click is answered as a plain "1"
            log.info("telegram: could not remove the choice buttons in chat %s: %s", message.chat.id, redact(exc))
        return self.outgoing(message, self.bot.handle(incoming))

    async def is_group_admin(self, message: Message) -> bool:
        """Does Telegram say the sender administers this group? (Asked only when the core needs to know.)"""
        if message.sender_chat is not None:
            # Anonymous admins post as the group itself; a linked channel is not an admin.
            return message.sender_chat.id == message.chat.id
        try:
            member = await self.tg.get_chat_member(message.chat.id, message.from_user.id)
        except TelegramError as exc:
            log.warning("telegram: could not check whether user %s administers chat %s: %s",
                        message.from_user.id, message.chat.id, redact(exc))
            return False
        return member.status in ADMIN_STATUSES

    def outgoing(self, message: Message, replies: list[Reply]) -> list[Outgoing]:
        """The replies as the messages to send, in order: plain text split at 4,096 characters, buttons under the last."""
        in_group = message.chat.type != ChatType.PRIVATE
        thread = message.message_thread_id if getattr(message, "is_topic_message", False) else None  # None on a press under an old message
        first = True
        user, sender_chat = getattr(message, "from_user", None), getattr(message, "sender_chat", None)
        asker = str(user.id) if user is not None and sender_chat is None else "0"  # "0": an anonymous admin asked
        out: list[Outgoing] = []
        for reply in replies:
            text = plain(reply.text)
            if not text:
                continue
            chunks = split_text(text, self.sender.limits.max_chars)
            buttons = keyboard(reply, asker)
            for index, chunk in enumerate(chunks):
                extra: dict = {}
                if buttons is not None and index == len(chunks) - 1:
                    extra["reply_markup"] = buttons
                if thread:
                    extra["message_thread_id"] = thread
                if in_group and first:  # in a busy group, say which message this answers
                    extra["reply_parameters"] = {"message_id": message.message_id, "allow_sending_without_reply": True}
                first = False
                out.append(Outgoing(str(reply.chat_id), chunk, extra))
        return out

    async def send(self, item: Outgoing) -> SendOutcome:
        """One try of one queued reply (the lanes wait and try again)."""
        return await self.sender.send_chunk(item.chat_id, item.text, **item.extra)
