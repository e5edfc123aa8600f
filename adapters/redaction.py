"""The one place that hides secrets in what the bot logs or reports: :func:`redact`.

A Bot API URL carries the Telegram token in its path (``/bot<TOKEN>/getUpdates``),
a Discord interaction's follow-up URL its token (``/webhooks/<app>/<token>``), and
HTTP libraries quote the URL in their errors (aiohttp's ``TooManyRedirects`` after a
proxy's redirect loop, for one). So every URL, exception text or outcome detail the
adapters log, store or print goes through :func:`redact`, which blanks those path
parts, anything shaped like a Telegram token, and every secret the settings hold
(:func:`remember_secrets`: both tokens and the webhook secret).

:class:`Redacting` is the same function as a logging filter, for what a call site
cannot reach: tracebacks (``log.exception``) and the libraries' own log lines. The
adapters' loggers carry it (:func:`redacting_logger`), and the command line puts it
on its log handlers.
"""

from __future__ import annotations

import logging
import re
import threading

HIDDEN = "<redacted>"
_PATTERNS = (
    # Telegram Bot API paths: /bot<TOKEN>/method and /file/bot<TOKEN>/path
    re.compile(r"(?<=/bot)[^/\s'\"?#<>]+"),
    # Discord interaction paths: /interactions/<id>/<token>/callback, /webhooks/<application id>/<token>/...
    re.compile(r"(?<=/interactions/)(\d+/)[^/\s'\"?#<>]+"),
    re.compile(r"(?<=/webhooks/)(\d+/)[^/\s'\"?#<>]+"),
    # a Telegram token on its own: <bot id>:<35 characters>
    re.compile(r"\b\d{5,}:[A-Za-z0-9_-]{20,}"),
)
_MIN_SECRET = 6  # shorter configured values would blank ordinary words
_secrets: set[str] = set()
_lock = threading.Lock()


def remember_secrets(settings) -> None:
    """Hide the secrets these settings hold from now on: the Telegram and Discord tokens and the webhook secret."""
    values = (settings.telegram.token, settings.telegram.webhook_secret, settings.discord.token)
    with _lock:
        _secrets.update(v.strip() for v in values if v and len(v.strip()) >= _MIN_SECRET)


def redact(text: object) -> str:
    """`text` (an exception, a URL, any object) as a string with every token and configured secret blanked."""
    out = str(text)
    for secret in sorted(_secrets, key=len, reverse=True):
        if secret in out:
            out = out.replace(secret, HIDDEN)
    for pattern in _PATTERNS:
        out = pattern.sub(lambda m: (m.group(1) if m.groups() else "") + HIDDEN, out)
    return out


class Redacting(logging.Filter):
    """A log filter: the record's message and its traceback, redacted. Never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: leave it to the handler's own error report
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def redact_handlers(logger: logging.Logger | None = None) -> None:
    """Put :class:`Redacting` on every handler of `logger` (the root logger by default), once each."""
    for handler in (logger or logging.getLogger()).handlers:
        if not any(isinstance(f, Redacting) for f in handler.filters):
            handler.addFilter(Redacting())


def redacting_logger(name: str) -> logging.Logger:
    """The logger `name` with :class:`Redacting` on it: every record it makes, tracebacks included, is redacted
    whatever handler shows it (the command line's, a test's, an embedding program's)."""
    logger = logging.getLogger(name)
    if not any(isinstance(f, Redacting) for f in logger.filters):
        logger.addFilter(Redacting())
    return logger
