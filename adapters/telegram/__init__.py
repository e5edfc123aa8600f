"""The Telegram adapter: python-telegram-bot (v22) on one side, :meth:`bot.core.Bot.handle` on the other.

It only converts and delivers; it decides nothing about what to answer.

    request.py   the library's HTTP layer on aiohttp (a BaseRequest)
    startup.py   the client, getMe with retries, one-line start-up errors, open_sender
    convert.py   Update -> Incoming (private/group, addressed or not)
    sender.py    plain-text sendMessage, errors mapped to SendOutcome; Telegram's SendLimits
    choices.py   the core's offered choices as inline buttons; a click as the user's pick
    journal.py   which updates arrived and were handled (SQLite table telegram_updates)
    updates.py   each update once through the core, its replies queued (bot/reply_queue.py) with the
                 journal mark and sent per chat in order (bot/reply_lanes.py)
    polling.py   long polling (getUpdates)
    webhook.py   the webhook listener, journal before HTTP 200
                 (waits and back-off: bot/retry.py, shared with the broadcast worker)
    run.py       run_telegram: all of the above together
"""

from adapters.telegram.run import run_telegram
from adapters.telegram.sender import MAX_CHARS, PLATFORM, TelegramSender, telegram_limits
from adapters.telegram.startup import TelegramStopped, connect, open_sender, telegram_client

__all__ = ["MAX_CHARS", "PLATFORM", "TelegramSender", "TelegramStopped", "connect", "open_sender",
           "run_telegram", "telegram_client", "telegram_limits"]
