"""The Telegram adapter: python-telegram-bot (v22) on one side, :meth:`bot.core.Bot.handle` on the other.

It stays thin. For each update it builds an :class:`~bot.messages.Incoming`
(private chat, or group with ``addressed`` set when the bot was commanded,
mentioned or replied to), asks the core, and sends the replies as plain text
(no parse mode, so nothing in the knowledge or a user's text can inject
markup), split at Telegram's 4,096-character limit. It decides nothing about
what to answer.

Delivery guarantees:

- Every handled update id is written to the ``telegram_updates`` table of
  the store, so an update Telegram serves again after a crash or restart is
  skipped, while updates that arrived while the bot was down are answered
  (pending updates are never dropped). Polling confirms an update to
  Telegram only after it was handled, so a crash loses nothing either. The
  one remaining window: a crash after a reply was sent and before the id was
  written replays that one reply.
- A failure while handling one update is logged with its update id and the
  update is skipped; the bot keeps running.
- 409 Conflict (another process polls the same token) stops this process
  with one clear error instead of fighting over updates.
- Sends go through ``AIORateLimiter`` (``[limits] telegram_per_second``;
  0 turns it off). A 429 is honoured (wait ``retry_after``, send again);
  403 means the user blocked the bot: their subscriptions become inactive.
  Network errors back off and retry.

``TelegramSender`` gives the broadcast workers the same sending with the
outcome reported instead of retried (:class:`bot.messages.Sender`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import secrets
import warnings
from collections.abc import AsyncIterator, Callable, Iterable
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

# Opt in now to python-telegram-bot v23's time periods as timedelta (handled below either way);
# without it every 429 logs a deprecation warning from inside the library.
os.environ.setdefault("PTB_TIMEDELTA", "true")

from telegram import BotCommand, LinkPreviewOptions, Message, ReplyParameters, Update
from telegram.constants import ChatMemberStatus, ChatType, MessageLimit
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.ext import AIORateLimiter, Application, ContextTypes, TypeHandler

from adapters.errors import PlatformStopped
from bot.core import Bot
from bot.messages import ChatKind, Incoming, Reply, Sender, SendLimits, SendOutcome, SendStatus
from bot.settings import Settings
from bot.text import plain, split_text
from knowledge.store import Store

log = logging.getLogger("schoolbot.telegram")

PLATFORM = "telegram"
MAX_CHARS = MessageLimit.MAX_TEXT_LENGTH  # 4096
COMMANDS: tuple[tuple[str, str], ...] = (
    ("start", "What I can answer and how to ask"),
    ("help", "Example questions and the commands"),
    ("board", "Set or show your school board: /board peel"),
    ("status", "Is school open? /status [board] [date]"),
    ("subscribe", "Get official updates: /subscribe [board|all]"),
    ("unsubscribe", "Stop the updates"),
    ("whoami", "Your Telegram user id (for the bot's admins)"),
)
# Only what the bot acts on; other kinds of update are not even fetched (and ignored if they come).
ALLOWED_UPDATES = ["message", "my_chat_member"]
ADMIN_STATUSES = {ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR}
# Messages with no text that a person sent on purpose: in a private chat they get a short hint.
USER_CONTENT = ("sticker", "photo", "voice", "video", "video_note", "animation", "audio", "document",
                "location", "contact", "dice", "poll", "venue")
NETWORK_RETRY_SECONDS = 5.0  # what TelegramSender suggests to the broadcast worker after a network error
MAX_BACKOFF = 30.0

_COMMAND = re.compile(r"^\s*/([A-Za-z0-9_]+)(?:@([A-Za-z0-9_]+))?")
_MANAGE_WORDS = re.compile(r"subscri|/stop\b", re.I)


TOKEN_RETRY_SECONDS = 60.0  # a rejected token: wait for someone to fix it, never mark recipients failed


class TelegramStopped(PlatformStopped):
    """The Telegram side cannot run: the message is one line for the operator."""


def _retry_seconds(exc: RetryAfter) -> float:
    value = getattr(exc, "_retry_after", None)
    if not isinstance(value, timedelta):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


# ----------------------------------------------------------------- journal
class UpdateJournal:
    """The update ids already handled, per bot, in the store (table ``telegram_updates``).

    A set of ids rather than a single "last id": Telegram picks update ids at
    random again after a week without updates, so "below the last id" would
    wrongly skip new updates. The newest ``keep`` ids are kept, far more than
    one getUpdates batch (100) that could be served again.
    """

    def __init__(self, store: Store, bot_key: str, keep: int = 10_000):
        self.store = store
        self.bot_key = bot_key
        self.keep = keep
        self._marks = 0
        with store.lock:
            store.conn.execute(
                "CREATE TABLE IF NOT EXISTS telegram_updates ("
                "bot TEXT NOT NULL, update_id INTEGER NOT NULL, handled TEXT NOT NULL, "
                "PRIMARY KEY (bot, update_id))"
            )

    def seen(self, update_id: int) -> bool:
        row = self.store.conn.execute(
            "SELECT 1 FROM telegram_updates WHERE bot = ? AND update_id = ?", (self.bot_key, update_id)
        ).fetchone()
        return row is not None

    def mark(self, update_id: int) -> None:
        with self.store.lock:
            self.store.conn.execute(
                "INSERT OR IGNORE INTO telegram_updates (bot, update_id, handled) VALUES (?, ?, ?)",
                (self.bot_key, update_id, datetime.now(UTC).isoformat()),
            )
            self._marks += 1
            if self._marks % 500 == 0:
                self.store.conn.execute(
                    "DELETE FROM telegram_updates WHERE bot = ? AND rowid NOT IN "
                    "(SELECT rowid FROM telegram_updates WHERE bot = ? ORDER BY rowid DESC LIMIT ?)",
                    (self.bot_key, self.bot_key, self.keep),
                )

    def last(self) -> int | None:
        """The most recently handled update id."""
        row = self.store.conn.execute(
            "SELECT update_id FROM telegram_updates WHERE bot = ? ORDER BY rowid DESC LIMIT 1", (self.bot_key,)
        ).fetchone()
        return row[0] if row else None


# ------------------------------------------------------------------ sender
class TelegramSender:
    """Plain-text sending with each Telegram error mapped to a :class:`SendOutcome`.

    Implements :class:`bot.messages.Sender` for the broadcast workers: one
    attempt per call, the worker decides when to retry.
    """

    platform = PLATFORM

    def __init__(self, tg_bot, per_second: float = 30.0):
        self.tg = tg_bot
        # Telegram's limits: about 30 messages/s ([limits] telegram_per_second), 1/s per chat, 20/min per group
        self.limits = SendLimits(per_second=per_second, per_chat_interval=1.0, group_per_minute=20, max_chars=MAX_CHARS)

    async def send_text(self, chat_id: str, text: str) -> SendOutcome:
        text = plain(text)
        if not text:
            return SendOutcome(SendStatus.FAILED, detail="empty text")
        outcome = SendOutcome(SendStatus.SENT)
        for chunk in split_text(text, MAX_CHARS):
            outcome = await self.send_chunk(chat_id, chunk)
            if outcome.status is not SendStatus.SENT:
                break
        return outcome

    async def send_chunk(self, chat_id: str, text: str, **extra) -> SendOutcome:
        """One sendMessage (at most MAX_CHARS), no parse mode, no link previews."""
        try:
            await self.tg.send_message(
                chat_id=chat_id, text=text, link_preview_options=LinkPreviewOptions(is_disabled=True), **extra
            )
        except Forbidden as exc:  # blocked by the user, kicked from the group, deactivated user
            return SendOutcome(SendStatus.BLOCKED, detail=str(exc))
        except RetryAfter as exc:
            return SendOutcome(SendStatus.RETRY, retry_after=_retry_seconds(exc), detail=f"flood control: {exc}")
        except ChatMigrated as exc:  # the group became a supergroup: deliver there
            if str(exc.new_chat_id) == str(chat_id):
                return SendOutcome(SendStatus.FAILED, detail="the chat reports it moved to itself")
            return await self.send_chunk(str(exc.new_chat_id), text, **extra)
        except BadRequest as exc:  # a subclass of NetworkError, so it must come first
            return SendOutcome(SendStatus.FAILED, detail=str(exc))
        except (TimedOut, NetworkError) as exc:
            return SendOutcome(SendStatus.RETRY, retry_after=NETWORK_RETRY_SECONDS, detail=f"network: {exc}")
        except InvalidToken:  # revoked or rotated: no recipient's fault, so hold the outbox, don't fail it
            log.error("telegram: the Bot API rejects the token; deliveries wait until it is fixed")
            return SendOutcome(SendStatus.RETRY, retry_after=TOKEN_RETRY_SECONDS, detail="the bot token was rejected")
        except TelegramError as exc:
            return SendOutcome(SendStatus.FAILED, detail=_scrub(str(exc), self.tg.token))
        return SendOutcome(SendStatus.SENT)


# ----------------------------------------------------------------- adapter
class TelegramAdapter:
    """Turns updates into core calls and replies into sendMessage calls."""

    def __init__(self, bot: Bot, application: Application, *, send_attempts: int = 5):
        self.bot = bot
        self.app = application
        self.tg = application.bot
        self.store: Store = bot.store
        self.sender = TelegramSender(self.tg, bot.settings.limits.telegram_per_second)
        self.send_attempts = send_attempts
        self.bot_id = 0
        self.username = ""
        self.journal: UpdateJournal | None = None
        self.handled = 0
        self.crashed = 0
        self._inflight: set[int] = set()
        self._mention: re.Pattern | None = None

    async def prepare(self) -> None:
        """After the application is initialised (getMe): learn who we are, register the commands."""
        self.bot_id = self.tg.id
        self.username = self.tg.username or ""
        self._mention = re.compile(rf"(?<![\w@])@{re.escape(self.username)}\b", re.I) if self.username else None
        self.journal = UpdateJournal(self.store, str(self.bot_id))
        try:
            await self.tg.set_my_commands([BotCommand(name, text) for name, text in COMMANDS])
        except TelegramError as exc:  # the menu is a convenience; answering works without it
            log.warning("telegram: could not register the command menu: %s", exc)

    # ------------------------------------------------------------ updates
    async def handle_update(self, update: Update) -> None:
        """Handle one update exactly once. Never raises (except on cancellation)."""
        uid = update.update_id
        if uid in self._inflight or (self.journal is not None and self.journal.seen(uid)):
            log.debug("telegram update %s was already handled; skipped", uid)
            return
        self._inflight.add(uid)
        try:
            try:
                await self._dispatch(update)
                self.handled += 1
            except Exception:
                self.crashed += 1
                log.exception("telegram update %s: handling failed; the update is skipped", uid)
            try:
                if self.journal is not None:
                    self.journal.mark(uid)
            except Exception:
                log.exception("telegram update %s: could not record it as handled", uid)
        finally:
            self._inflight.discard(uid)

    async def handle_batch(self, updates: Iterable[Update]) -> None:
        """Handle a batch: chats in parallel, each chat's updates in order."""
        lanes: dict[object, list[Update]] = {}
        for update in updates:
            chat = update.effective_chat
            lanes.setdefault(chat.id if chat is not None else ("update", update.update_id), []).append(update)

        async def lane(items: list[Update]) -> None:
            for item in items:
                await self.handle_update(item)

        if len(lanes) == 1:
            await lane(next(iter(lanes.values())))
            return
        results = await asyncio.gather(*(lane(items) for items in lanes.values()), return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
                log.error("telegram: a batch lane failed: %r", result)

    async def _dispatch(self, update: Update) -> None:
        if update.my_chat_member is not None:
            self._membership_changed(update)
            return
        message = update.message
        if message is not None and message.migrate_to_chat_id:  # the group became a supergroup
            moved = self.bot.chat_moved(PLATFORM, str(message.chat.id), str(message.migrate_to_chat_id))
            log.info("telegram: group %s is now %s; %d subscription(s) moved",
                     message.chat.id, message.migrate_to_chat_id, moved)
            return
        if message is None:
            # edited messages, channel posts and other kinds: nothing to answer
            log.debug("telegram update %s: nothing to answer (%s)", update.update_id, _update_kind(update))
            return
        incoming = await self.to_incoming(message)
        if incoming is None:
            return
        replies = self.bot.handle(incoming)
        if replies:
            await self.deliver(message, replies)

    def _membership_changed(self, update: Update) -> None:
        change = update.my_chat_member
        if change.new_chat_member.status in (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT):
            stopped = self.bot.chat_unreachable(PLATFORM, str(change.chat.id))
            log.info("telegram: removed from or blocked in chat %s; %d subscription(s) made inactive",
                     change.chat.id, stopped)

    async def to_incoming(self, message: Message) -> Incoming | None:
        """The Incoming for a message, or None when nobody should be answered."""
        chat = message.chat
        if chat.type == ChatType.CHANNEL:
            return None
        user, sender_chat = message.from_user, message.sender_chat
        if user is None and sender_chat is None:
            return None
        if sender_chat is None and user.is_bot:
            return None  # another bot
        text = message.text if message.text is not None else (message.caption or "")
        if not text and not any(getattr(message, kind, None) for kind in USER_CONTENT):
            return None  # a service message (member joined, pinned message, ...)
        if chat.type == ChatType.PRIVATE:
            kind = ChatKind.PRIVATE
            addressed, text = True, self._strip_address(text)[1]
        else:
            kind = ChatKind.GROUP
            addressed, text = self._addressed(message, text)
        if sender_chat is not None:  # an anonymous group admin or a linked channel speaking
            user_id, name = str(sender_chat.id), sender_chat.title or ""
        else:
            user_id, name = str(user.id), user.full_name
        group_admin = False
        if kind == ChatKind.GROUP and addressed and _MANAGE_WORDS.search(text):
            group_admin = await self.is_group_admin(message)
        return Incoming(PLATFORM, str(chat.id), user_id, text, message.date, kind, addressed, name, group_admin)

    def _strip_address(self, text: str) -> tuple[bool, str]:
        """(mentioned us?, text without '@us' in commands and mentions)."""
        mentioned = False
        m = _COMMAND.match(text)
        if m and m.group(2) and m.group(2).lower() == self.username.lower():
            text = text[: m.start(2) - 1] + text[m.end(2):]
        if self._mention is not None:
            text, count = self._mention.subn(" ", text)
            if count:
                mentioned = True
                text = re.sub(r"[ \t]+", " ", text)
                text = re.sub(r" ([,.!?;:])", r"\1", text).strip().lstrip(",:;- ").strip()
        return mentioned, text

    def _addressed(self, message: Message, text: str) -> tuple[bool, str]:
        """In a group: is the message for us (command, mention, reply to us)? And its text without '@us'."""
        m = _COMMAND.match(text)
        if m and m.group(2) and m.group(2).lower() != self.username.lower():
            return False, text  # /command@another_bot
        mentioned, text = self._strip_address(text)
        replied = message.reply_to_message
        to_us = bool(replied and replied.from_user and replied.from_user.id == self.bot_id)
        return bool(m) or mentioned or to_us, text

    async def is_group_admin(self, message: Message) -> bool:
        """Does Telegram say the sender administers this group? (Asked only for subscription commands.)"""
        if message.sender_chat is not None:
            # Anonymous admins post as the group itself; a linked channel is not an admin.
            return message.sender_chat.id == message.chat.id
        try:
            member = await self.tg.get_chat_member(message.chat.id, message.from_user.id)
        except TelegramError as exc:
            log.warning("telegram: could not check whether user %s administers chat %s: %s",
                        message.from_user.id, message.chat.id, exc)
            return False
        return member.status in ADMIN_STATUSES

    # ------------------------------------------------------------ replies
    async def deliver(self, message: Message, replies: list[Reply]) -> None:
        """Send the replies, in order, as plain text split at 4,096 characters."""
        in_group = message.chat.type != ChatType.PRIVATE
        thread = message.message_thread_id if message.is_topic_message else None
        first = True
        for reply in replies:
            text = plain(reply.text)
            if not text:
                continue
            for chunk in split_text(text, MAX_CHARS):
                extra: dict = {}
                if thread:
                    extra["message_thread_id"] = thread
                if in_group and first:  # in a busy group, say which message this answers
                    extra["reply_parameters"] = ReplyParameters(message.message_id, allow_sending_without_reply=True)
                first = False
                outcome = await self.send_reply(reply.chat_id, chunk, **extra)
                if outcome.status is not SendStatus.SENT:
                    log.warning("telegram: reply to chat %s not delivered (%s): %s",
                                reply.chat_id, outcome.status.value, outcome.detail)
                    if outcome.status is SendStatus.BLOCKED:
                        self.bot.chat_unreachable(PLATFORM, str(reply.chat_id))
                    return

    async def send_reply(self, chat_id: str, text: str, **extra) -> SendOutcome:
        """Send one chunk, waiting out 429s and backing off on network errors."""
        outcome = SendOutcome(SendStatus.FAILED, detail="not sent")
        for attempt in range(self.send_attempts):
            outcome = await self.sender.send_chunk(chat_id, text, **extra)
            if outcome.status is not SendStatus.RETRY or attempt == self.send_attempts - 1:
                break
            rate_limited = outcome.detail.startswith("flood")
            wait = outcome.retry_after if rate_limited else min(MAX_BACKOFF, 0.5 * 2**attempt)
            log.info("telegram: sending to chat %s: %s; trying again in %.1fs", chat_id, outcome.detail, wait)
            await asyncio.sleep(wait)
        return outcome

    # ------------------------------------------------------------ polling
    async def poll(self, stop: asyncio.Event, *, timeout: int = 30) -> None:
        """Long polling until `stop` is set. An update is confirmed only after it is handled."""
        await _until(self.tg.delete_webhook(drop_pending_updates=False), stop)
        offset: int | None = None  # None: start at the earliest update Telegram has not seen confirmed
        failures = 0
        log.info("telegram: polling as @%s", self.username)
        while not stop.is_set():
            try:
                updates = await _until(
                    self.tg.get_updates(offset=offset, timeout=timeout, allowed_updates=ALLOWED_UPDATES), stop
                )
            except Conflict as exc:
                raise TelegramStopped(
                    "telegram: another process is already receiving this bot's updates "
                    f"(409 Conflict: {exc.message}). Stop it first; this one is stopping instead of fighting over updates."
                ) from None
            except InvalidToken:  # its message quotes the token: not repeated here
                raise TelegramStopped("telegram: the Bot API rejected the token") from None
            except RetryAfter as exc:
                wait = _retry_seconds(exc)
                log.warning("telegram: getUpdates rate limited; waiting %.0fs", wait)
            except TelegramError as exc:  # NetworkError, TimedOut, server errors
                failures += 1
                wait = min(MAX_BACKOFF, 2.0 ** (failures - 1))
                log.warning("telegram: getUpdates failed (%s); retrying in %.0fs", exc, wait)
            else:
                failures = 0
                if updates:
                    await self.handle_batch(updates)
                    offset = updates[-1].update_id + 1
                continue
            await _sleep(wait, stop)
        if offset is not None:  # confirm what was handled, so Telegram does not serve it again
            try:
                await self.tg.get_updates(offset=offset, timeout=0, allowed_updates=ALLOWED_UPDATES)
            except TelegramError as exc:
                log.info("telegram: could not confirm the last updates on the way out (%s); "
                         "they will be skipped when served again", exc)

    # ------------------------------------------------------------ webhook
    async def serve_webhook(self, stop: asyncio.Event, *, url: str, listen: str, port: int, secret: str) -> None:
        """Receive updates on an HTTP listener behind an HTTPS proxy, until `stop` is set."""
        self.app.add_handler(TypeHandler(Update, self._on_webhook_update))
        self.app.add_error_handler(self._on_error)
        path = urlsplit(url).path.strip("/")
        await self.app.start()
        try:
            await self.app.updater.start_webhook(
                listen=listen, port=port, url_path=path, webhook_url=url, secret_token=secret,
                allowed_updates=ALLOWED_UPDATES, drop_pending_updates=False,
            )
            log.info("telegram: receiving updates for @%s at %s (listening on %s:%s/%s)",
                     self.username, url, listen, port, path)
            await stop.wait()
        finally:
            if self.app.updater.running:
                await self.app.updater.stop()
            await self.app.stop()

    async def _on_webhook_update(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.handle_update(update)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        uid = getattr(update, "update_id", None)
        log.error("telegram update %s: %s", uid, context.error, exc_info=context.error)


async def _until(coro, stop: asyncio.Event):
    """Await `coro` unless `stop` is set first (then cancel it and return None)."""
    task = asyncio.ensure_future(coro)
    stopper = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait((task, stopper), return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopper.cancel()
        if not task.done():
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
    if task.cancelled():
        return None
    return task.result()


async def _sleep(seconds: float, stop: asyncio.Event) -> None:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass


def _scrub(text: str, token: str) -> str:
    """Text with the bot token blanked out (python-telegram-bot quotes it in some errors)."""
    token = token.strip()
    return text.replace(token, "<token>") if token else text


def _update_kind(update: Update) -> str:
    for name in ("edited_message", "channel_post", "edited_channel_post", "callback_query", "inline_query"):
        if getattr(update, name, None) is not None:
            return name
    return "other"


# -------------------------------------------------------------- running
def build_application(settings: Settings) -> Application:
    """A python-telegram-bot Application for the configured token, API server and rate limit."""
    t = settings.telegram
    builder = Application.builder().token(t.token.strip())
    if t.base_url:
        builder = builder.base_url(t.base_url)
    rate = settings.limits.telegram_per_second
    if rate > 0:
        # max_retries=0: a 429 comes back to us, so replies wait it out and the broadcast
        # workers get SendStatus.RETRY with Telegram's retry_after.
        builder = builder.rate_limiter(AIORateLimiter(overall_max_rate=rate, overall_time_period=1, max_retries=0))
    return builder.build()


@contextlib.asynccontextmanager
async def open_sender(settings: Settings) -> AsyncIterator[TelegramSender]:
    """A TelegramSender on its own client, for delivering the outbox without polling.

    Raises :class:`TelegramStopped` with one line (never the token) when the
    token is rejected or the Bot API cannot be reached.
    """
    t = settings.telegram
    app = build_application(settings)
    where = urlsplit(t.base_url).netloc if t.base_url else "api.telegram.org"
    try:
        await app.bot.initialize()  # getMe: checks the token
    except InvalidToken:  # its message quotes the token: not repeated here
        raise TelegramStopped(f"telegram: the Bot API at {where} rejected the token; check SCHOOLBOT_TELEGRAM_TOKEN") from None
    except TelegramError as exc:
        raise TelegramStopped(f"telegram: cannot reach the Bot API at {where}: {_scrub(str(exc), t.token)}") from None
    try:
        yield TelegramSender(app.bot, settings.limits.telegram_per_second)
    finally:
        await app.bot.shutdown()


async def run_telegram(
    bot: Bot,
    settings: Settings,
    *,
    stop: asyncio.Event | None = None,
    on_ready: Callable[[Sender], None] | None = None,
    poll_timeout: int = 30,
    startup_attempts: int = 5,
) -> None:
    """Run the bot on Telegram until `stop` is set: long polling, or a webhook if [telegram] webhook_url is set.

    Raises :class:`TelegramStopped` (one-line message) when the token is missing
    or rejected, the API cannot be reached at start, or another instance polls.
    `on_ready` receives the :class:`TelegramSender` once connected (for broadcast workers).
    """
    t = settings.telegram
    if not t.token.strip():
        raise TelegramStopped("telegram: no bot token; set SCHOOLBOT_TELEGRAM_TOKEN or [telegram] token")
    stop = stop if stop is not None else asyncio.Event()
    app = build_application(settings)
    where = urlsplit(t.base_url).netloc if t.base_url else "api.telegram.org"
    for attempt in range(startup_attempts):
        try:
            await app.initialize()  # getMe: checks the token
            break
        except InvalidToken:  # its message quotes the token: not repeated here
            raise TelegramStopped(
                f"telegram: the Bot API at {where} rejected the token; "
                "check SCHOOLBOT_TELEGRAM_TOKEN or [telegram] token (BotFather's /token shows it)"
            ) from None
        except TelegramError as exc:
            reason = _scrub(str(exc), t.token)
            if attempt == startup_attempts - 1:
                raise TelegramStopped(f"telegram: cannot reach the Bot API at {where}: {reason}") from None
            wait = min(MAX_BACKOFF, 2.0**attempt)
            log.warning("telegram: cannot reach the Bot API at %s (%s); retrying in %.0fs", where, reason, wait)
            await _sleep(wait, stop)
            if stop.is_set():
                return
    try:
        adapter = TelegramAdapter(bot, app)
        await adapter.prepare()
        if on_ready is not None:
            on_ready(adapter.sender)
        if t.webhook_url:
            secret = t.webhook_secret or secrets.token_urlsafe(32)  # set anew with every setWebhook
            await adapter.serve_webhook(stop, url=t.webhook_url, listen=t.webhook_listen,
                                        port=t.webhook_port, secret=secret)
        else:
            await adapter.poll(stop, timeout=poll_timeout)
    finally:
        try:
            await app.shutdown()
        except Exception:  # pragma: no cover - best effort on the way out
            log.debug("telegram: shutdown failed", exc_info=True)
