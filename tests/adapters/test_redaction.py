"""adapters/redaction.py: the one function every logged URL, error text and outcome detail goes through."""

from __future__ import annotations

import io
import logging

from adapters.redaction import Redacting, redact, remember_secrets
from bot.settings import Settings

TOKEN = "7012345678:AAH0fakefakefakefakefakefakefake_abc"


def test_tokens_in_bot_api_and_discord_urls_are_hidden_and_the_rest_kept():
    assert redact(f"url='https://api.telegram.org/bot{TOKEN}/getUpdates'") == \
        "url='https://api.telegram.org/bot<redacted>/getUpdates'"
    assert redact(f"https://api.telegram.org/file/bot{TOKEN}/photos/1.jpg") == \
        "https://api.telegram.org/file/bot<redacted>/photos/1.jpg"
    assert redact("https://discord.com/api/v10/interactions/123/aW50ZXJhY3Rpb24/callback") == \
        "https://discord.com/api/v10/interactions/123/<redacted>/callback"
    assert redact("POST /webhooks/456/aW50ZXJhY3Rpb24/messages/@original") == "POST /webhooks/456/<redacted>/messages/@original"
    assert redact(f"the token {TOKEN} was rejected") == "the token <redacted> was rejected"
    assert redact("Bad Request: chat not found at 12:30") == "Bad Request: chat not found at 12:30"


def test_configured_secrets_are_hidden_wherever_they_appear():
    remember_secrets(Settings().replace("telegram", webhook_secret="hook-Secret-4242").replace(
        "discord", token="discord.bot.token-XYZ"))
    assert redact("header X-Telegram-Bot-Api-Secret-Token: hook-Secret-4242") == \
        "header X-Telegram-Bot-Api-Secret-Token: <redacted>"
    assert redact(ValueError("Bot discord.bot.token-XYZ")) == "Bot <redacted>"


def test_the_log_filter_redacts_messages_and_tracebacks():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(Redacting())
    logger = logging.getLogger("test.redaction")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            raise ConnectionError(f"url='https://api.telegram.org/bot{TOKEN}/sendMessage'")
        except ConnectionError as exc:
            logger.exception("sending failed: %s", exc)
    finally:
        logger.removeHandler(handler)
    text = stream.getvalue()
    assert TOKEN not in text
    assert "failed: url='https://api.telegram.org/bot<redacted>/sendMessage'" in text  # the line ...
    assert "ConnectionError: url='https://api.telegram.org/bot<redacted>/sendMessage'" in text  # ... and the traceback
