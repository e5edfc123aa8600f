"""The bot token never reaches the logs, even when the Bot API (or a proxy before it) answers with a redirect loop,
after which aiohttp's error quotes the URL, token and all."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from telegram_support import PARENT, REPO

from adapters.telegram import open_sender
from bot.messages import SendStatus


async def test_a_redirect_loop_never_puts_the_token_in_the_logs(fake, bot, tg_settings, running, caplog):
    """Everything `serve --debug` logs: the bot's debug lines, the libraries' from INFO up (python-telegram-bot's
    own debug lines print its URLs; `serve` never shows them)."""
    token = tg_settings.telegram.token
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="schoolbot")
    fake.fail("getMe", 302, times=10)  # the first start-up try loops (aiohttp gives up at the 10th redirect)
    fake.fail("getUpdates", 302, times=10)  # so does the first poll
    async with running(bot, tg_settings, fake):
        await fake.wait_for(lambda: "getUpdates failed" in caplog.text, what="the failed poll logged")
        fake.fail("sendMessage", 302, times=10 * 2)  # two tries of the reply loop; the third is sent
        await fake.wait_confirmed(fake.private("/help", user_id=PARENT), timeout=20)
        await fake.wait_sent(1, PARENT)
    logged = caplog.text
    assert "cannot reach the Bot API" in logged and "getUpdates failed" in logged  # the loops were logged ...
    assert logged.count("trying again") == 2 and "TooManyRedirects" in logged
    assert logged.count(token) == 0 and token.split(":")[1] not in logged  # ... without the token
    assert "/bot<redacted>/getUpdates" in logged  # what was wrong is still said


async def test_a_broadcast_send_in_a_redirect_loop_reports_no_token(fake, tg_settings, caplog):
    token = tg_settings.telegram.token
    with caplog.at_level(logging.DEBUG, logger="schoolbot"):
        async with open_sender(tg_settings) as sender:
            fake.fail("sendMessage", 302, times=10)
            outcome = await sender.send_text(str(PARENT), "Schools are open Monday.")
    assert outcome.status is SendStatus.RETRY and "TooManyRedirects" in outcome.detail
    assert token not in outcome.detail and token not in caplog.text  # the detail is stored with the delivery


async def test_serve_logs_a_redirect_loop_without_the_token(fake, serve_env):
    """The real `schoolbot serve --debug`: its stderr names the loop and hides the token."""
    serve_env["SCHOOLBOT_TELEGRAM_TOKEN"] = fake.token
    fake.fail("getUpdates", 302, times=10)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "adapters.cli", "serve", "--telegram", "--debug", cwd=str(REPO), env=serve_env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await fake.wait_for(lambda: len(fake.calls_to("getUpdates")) > 10, timeout=30, what="a poll after the loop")
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    text = err.decode()
    assert proc.returncode == 0, text
    assert "getUpdates failed" in text and "/bot<redacted>/getUpdates" in text
    assert fake.token not in text and fake.token.split(":")[1] not in text
