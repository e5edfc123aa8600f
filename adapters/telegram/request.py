"""python-telegram-bot's HTTP layer on aiohttp: the library's own extension point (a ``BaseRequest``).

PTB's default client (httpx/httpcore/anyio) costs about five times the CPU of
an aiohttp POST per Bot API call, and a broadcast is one call per recipient.
Everything above the HTTP exchange stays the library's: ``BaseRequest.post``
turns status codes into ``RetryAfter``, ``Forbidden``, ``ChatMigrated``,
``InvalidToken`` ... exactly as with httpx. Here, only: one keep-alive
session, the default timeouts, JSON or multipart bodies, and aiohttp's errors
mapped to ``TimedOut`` / ``NetworkError``.
"""

from __future__ import annotations

import asyncio
import json

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from adapters.redaction import redact

# The library's "no value given" for a timeout (BaseRequest.DEFAULT_NONE and the like): use the request's own.
_DEFAULT = type(BaseRequest.DEFAULT_NONE)
_JSON = {"Content-Type": "application/json", "User-Agent": BaseRequest.USER_AGENT}
_PLAIN = {"User-Agent": BaseRequest.USER_AGENT}


class AiohttpRequest(BaseRequest):
    """A ``BaseRequest`` on one ``aiohttp.ClientSession`` (created on first use, closed by ``shutdown``)."""

    __slots__ = ("_connect_timeout", "_pool_size", "_read_timeout", "_session", "_write_timeout")

    def __init__(self, *, pool_size: int = 64, read_timeout: float | None = 5.0,
                 write_timeout: float | None = 5.0, connect_timeout: float | None = 5.0):
        self._pool_size = pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size, enable_cleanup_closed=True),
                skip_auto_headers=("Content-Type",),
            )

    async def shutdown(self) -> None:
        session, self._session = self._session, None
        if session is not None and not session.closed:
            await session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout=BaseRequest.DEFAULT_NONE,
        write_timeout=BaseRequest.DEFAULT_NONE,
        connect_timeout=BaseRequest.DEFAULT_NONE,
        pool_timeout=BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("AiohttpRequest is not initialized")
        read = self._read_timeout if isinstance(read_timeout, _DEFAULT) else read_timeout
        write = self._write_timeout if isinstance(write_timeout, _DEFAULT) else write_timeout
        connect = self._connect_timeout if isinstance(connect_timeout, _DEFAULT) else connect_timeout
        # aiohttp has no separate write timeout: the whole exchange gets read + write.
        total = None if read is None or write is None else read + write
        timeout = aiohttp.ClientTimeout(total=total, sock_connect=connect, sock_read=read)
        headers, body = _PLAIN, None
        if request_data is not None:
            if request_data.contains_files:
                body = aiohttp.FormData(request_data.json_parameters)
                for name, content in request_data.multipart_data.items():
                    filename, data, mimetype = content if isinstance(content, tuple) else (name, content, None)
                    body.add_field(name, data, filename=filename, content_type=mimetype)
            else:  # one JSON body (the Bot API takes application/json); json.dumps is cheaper than form encoding
                headers, body = _JSON, json.dumps(request_data.parameters).encode()
        try:
            async with self._session.request(method, url, data=body, headers=headers, timeout=timeout) as response:
                return response.status, await response.read()
        except TimeoutError as exc:
            raise TimedOut from exc
        except asyncio.CancelledError:
            raise
        except aiohttp.ClientError as exc:
            # aiohttp quotes the URL, /bot<TOKEN>/ and all (a redirect loop, a bad proxy): never pass that on
            raise NetworkError(redact(f"aiohttp.{type(exc).__name__}: {exc}")) from exc
