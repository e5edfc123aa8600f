"""A fake Telegram Bot API server for tests and benchmarks (aiohttp, 127.0.0.1, random port).

Point python-telegram-bot at it with ``base_url=fake.base_url``. It answers
the methods the bot uses the way the real Bot API does (same JSON shapes and
error codes), records every call, and lets a test:

- queue updates that ``getUpdates`` serves (honouring ``offset``, ``limit``
  and long-poll ``timeout``; an ``offset`` confirms the updates before it,
  as on Telegram, so unconfirmed updates are served again after a restart);
- make the next calls fail: ``fake.fail("sendMessage", 429, retry_after=1)``,
  ``fake.fail("sendMessage", 403, chat_ids=["42"])``, ``fake.fail("getUpdates", 409)``,
  or a share of all calls at random: ``fake.flaky("sendMessage", {429: 0.05, 500: 0.01})``;
- press a button under the bot's message: ``fake.click(chat_id, 2)``;
- say who administers a group: ``fake.set_member(chat_id, user_id, "administrator")``;
- read what the bot sent: ``fake.sent(chat_id)``, ``fake.transcript(chat_id)``;
- deliver an update to a webhook the bot registered with ``setWebhook``.

Used in-process (``async with FakeTelegram() as fake``) or as a separate
process for benchmarks: ``python -m tests.fakes.telegram`` prints its base URL
and accepts ``POST /_fake/updates`` (a JSON list of updates or of
``{"private": {...}}`` / ``{"group": {...}}`` shorthands) and
``GET /_fake/stats``.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from datetime import datetime

from aiohttp import ClientSession, web

from tests.fakes.telegram.api import BotApi
from tests.fakes.telegram.wire import (
    ANONYMOUS_ADMIN_ID,
    BOT_ID,
    BOT_USERNAME,
    DEFAULT_TOKEN,
    MISSING,
    SCENARIO_TIME,
    Call,
    Event,
    Failure,
    auto_entities,
    utf16_len,
)
from tests.fakes.telegram.world import Users

__all__ = ["ANONYMOUS_ADMIN_ID", "BOT_ID", "BOT_USERNAME", "DEFAULT_TOKEN", "SCENARIO_TIME", "FakeTelegram",
           "auto_entities", "utf16_len"]


class FakeTelegram(Users, BotApi):
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
        self.flakiness: tuple | None = None  # fake.flaky(...): random errors on one method
        self.flaked: dict[int, int] = {}  # errors given by flakiness, by status
        self.members: dict[tuple[str, str], str] = {}
        self.sent_messages: list[dict] = []  # Message objects the bot sent, in order
        self.clicks: dict[str, dict] = {}  # callback queries (button presses) by id
        self.answered_clicks: list[str] = []  # ids the bot answered with answerCallbackQuery
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
    async def deliver(self, update: dict | bytes, *, secret: str | None = MISSING) -> int:  # type: ignore[assignment]
        """POST an update to the registered webhook, as Telegram does (bytes: that body as it is). Returns the HTTP status."""
        if self.webhook is None:
            raise LookupError("no webhook is set")
        if secret is MISSING:
            secret = self.webhook.get("secret_token")
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret else {}
        if self._session is None:
            self._session = ClientSession()
        body = {"data": update, "headers": {**headers, "Content-Type": "application/json"}} \
            if isinstance(update, bytes) else {"json": update, "headers": headers}
        async with self._session.post(self.webhook["url"], **body) as resp:
            return resp.status

