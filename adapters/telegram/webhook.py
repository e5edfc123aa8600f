"""Webhook: Telegram POSTs each update to an HTTP listener (behind an HTTPS proxy), journal first.

Telegram forgets an update once it gets HTTP 200, so the listener writes the
update to the journal *before* answering 200 and handles it afterwards; if
the process dies in between, the next start handles every update journalled
but not handled (:meth:`UpdateJournal.unhandled`), before listening again.
If the journal cannot be written the answer is 500 and Telegram sends the
update again later. An update Telegram sends twice is answered once.

Telegram sends a request again for as long as it is not answered 2xx. A body no
retry can make usable (not JSON, nested too deep to read, no update id, an id
SQLite cannot hold) is therefore answered 200 and dropped with one warning
(:func:`read_update`): a 400 or a 500 would have it sent again forever.

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
from knowledge.store_errors import STORE_ERRORS

log = redacting_logger("schoolbot.telegram")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20  # an update is a few kB; Telegram's own limit on what it sends is far below this
MAX_UPDATE_ID = 2**63 - 1  # what SQLite's INTEGER holds; Telegram's ids are far below it
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
        body = await request.read()
        try:
            update_id, payload = read_update(body)
        except NotAnUpdate as exc:
            log.warning("telegram webhook: dropped a request that is not a usable update (%s; %d bytes); "
                        "answered 200 so that Telegram does not send it again", redact(exc), len(body))
            return web.Response(status=200)
        try:
            fresh = self.handler.journal.receive(update_id, payload)
        except STORE_ERRORS:  # the database is busy, full or gone: Telegram will send it again
            log.exception("telegram update %s: could not journal it; answering 500 so Telegram retries", update_id)
            return web.Response(status=500)
        except Exception:  # this update itself cannot be stored: sending it again would fail the same way
            log.exception("telegram update %s: cannot be journalled; dropped (answered 200 so that Telegram "
                          "does not send it again)", update_id)
            return web.Response(status=200)
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


class NotAnUpdate(ValueError):
    """A webhook body that no retry can make into an update; the message says what is wrong, in a few words."""


def read_update(body: bytes) -> tuple[int, dict]:
    """(update id, the update as JSON) from a webhook request's body, or :class:`NotAnUpdate`."""
    try:
        payload = json.loads(body)
    except RecursionError:
        raise NotAnUpdate("JSON nested too deep") from None
    except ValueError as exc:  # not JSON, or not UTF-8
        raise NotAnUpdate(f"not JSON: {redact(exc)}"[:120]) from None
    if not isinstance(payload, dict):
        raise NotAnUpdate(f"a JSON {type(payload).__name__}, not an object")
    update_id = payload.get("update_id")
    if isinstance(update_id, bool) or not isinstance(update_id, int):
        raise NotAnUpdate("no numeric update_id")
    if not 0 <= update_id <= MAX_UPDATE_ID:
        raise NotAnUpdate(f"update_id out of range ({str(update_id)[:30]})")
    try:
        json.dumps(payload)  # what the journal will store: checked here, so that it cannot fail there
    except (RecursionError, ValueError) as exc:
        raise NotAnUpdate(f"cannot be stored: {type(exc).__name__}") from None
    return update_id, payload


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
