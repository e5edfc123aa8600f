"""Webhook: Telegram POSTs each update to an HTTP listener (behind an HTTPS proxy), journal first.

Telegram forgets an update once it gets HTTP 200, so the listener writes the
update to the journal *before* answering 200 and handles it afterwards; if
the process dies in between, the next start handles every update journalled
but not handled (:meth:`UpdateJournal.unhandled`), before listening again.
If the journal cannot be written the answer is 500 and Telegram sends the
update again later. An update Telegram sends twice is answered once.

Each chat's updates are handled in the order they arrived, different chats
in parallel, as with long polling.
"""

from __future__ import annotations

import asyncio
import hmac
import json
from urllib.parse import urlsplit

from aiohttp import web
from telegram import Bot as TelegramBot
from telegram import Update

from adapters.redaction import redact, redacting_logger
from adapters.telegram.convert import chat_key
from adapters.telegram.polling import ALLOWED_UPDATES
from adapters.telegram.updates import UpdateHandler

log = redacting_logger("schoolbot.telegram")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20  # an update is a few kB; Telegram's own limit on what it sends is far below this
DRAIN_SECONDS = 10.0  # on a graceful stop, how long updates being handled may finish (the rest wait in the journal)


class WebhookListener:
    """The HTTP side: check the secret, journal, answer, then hand the update to the UpdateHandler."""

    def __init__(self, tg: TelegramBot, handler: UpdateHandler, secret: str):
        self.tg = tg
        self.handler = handler
        self.secret = secret
        self._lanes: dict[object, asyncio.Task] = {}

    async def receive(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), self.secret.encode()):
            log.warning("telegram webhook: a request without the right secret token was refused")
            return web.Response(status=403)
        try:
            payload = json.loads(await request.read())
            update_id = payload["update_id"]
            if not isinstance(update_id, int):
                raise TypeError("update_id is not a number")
        except (ValueError, TypeError, KeyError) as exc:
            log.warning("telegram webhook: not an update (%s)", redact(exc))
            return web.Response(status=400)
        try:
            fresh = self.handler.journal.receive(update_id, payload)
        except Exception:  # the database is busy or gone: Telegram will send it again
            log.exception("telegram update %s: could not journal it; answering 500 so Telegram retries", update_id)
            return web.Response(status=500)
        if fresh:
            self.schedule(payload)
        return web.Response(status=200)

    def schedule(self, payload: dict) -> None:
        """Handle a journalled update after the ones before it from the same chat."""
        try:
            update = Update.de_json(payload, self.tg)
        except Exception:  # journalled, so it must not come back at every start
            log.exception("telegram update %s: not a readable update; skipped", payload.get("update_id"))
            self.handler.journal.mark(payload["update_id"])
            return
        key = chat_key(update)
        previous = self._lanes.get(key)
        task = asyncio.create_task(self._after(previous, update), name=f"telegram-update-{update.update_id}")
        self._lanes[key] = task
        task.add_done_callback(lambda done: self._lanes.pop(key, None) if self._lanes.get(key) is done else None)

    async def _after(self, previous: asyncio.Task | None, update: Update) -> None:
        if previous is not None:
            await asyncio.wait([previous])
        await self.handler.handle(update)

    async def drain(self, timeout: float) -> None:
        """Let the updates being handled finish; cancel what is left (it stays in the journal)."""
        pending = list(self._lanes.values())
        if not pending:
            return
        _, late = await asyncio.wait(pending, timeout=timeout)
        for task in late:
            task.cancel()
        if late:
            log.warning("telegram: %d update(s) still being handled at shutdown; they will be handled at the next start",
                        len(late))
            await asyncio.wait(late)


async def serve_webhook(tg: TelegramBot, handler: UpdateHandler, stop: asyncio.Event, *,
                        url: str, listen: str, port: int, secret: str) -> None:
    """Handle what the journal holds, listen on `listen:port`, register `url` with Telegram, until `stop`."""
    listener = WebhookListener(tg, handler, secret)
    left_over = handler.journal.unhandled()
    if left_over:
        log.warning("telegram: %d update(s) were acknowledged but not handled before the last stop; handling them now",
                    len(left_over))
        for payload in left_over:
            listener.schedule(payload)
    path = "/" + urlsplit(url).path.strip("/")
    app = web.Application(client_max_size=MAX_BODY)
    app.router.add_post(path, listener.receive)
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    graceful = False
    try:
        await web.TCPSite(runner, listen, port).start()
        await tg.set_webhook(url=url, secret_token=secret, allowed_updates=ALLOWED_UPDATES, drop_pending_updates=False)
        log.info("telegram: receiving updates for @%s at %s (listening on %s:%s%s)",
                 handler.me.username, redact(url), listen, port, redact(path))
        await stop.wait()
        graceful = True
    finally:
        await runner.cleanup()  # no new requests; then let what was acknowledged finish (not when cancelled)
        await listener.drain(DRAIN_SECONDS if graceful else 0)
