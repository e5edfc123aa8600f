"""The Telegram adapter: python-telegram-bot (v22) on one side, :meth:`bot.core.Bot.handle` on the other.

It only converts and delivers; it decides nothing about what to answer.

    request.py   the library's HTTP layer on aiohttp (a BaseRequest)
    startup.py   the client, getMe with retries, one-line start-up errors, open_sender
    convert.py   Update -> Incoming (private/group, addressed or not)
    sender.py    plain-text sendMessage, errors mapped to SendOutcome; Telegram's SendLimits
    choices.py   the core's offered choices as inline buttons; a click as the user's pick
    journal.py   which updates arrived and were handled (the store's telegram_updates)
    updates.py   each update once through the core, its replies queued (bot/reply_queue.py) with the
                 journal mark and sent per chat in order (bot/reply_lanes.py)
    polling.py   long polling (getUpdates)
    webhook.py   the webhook listener, journal before HTTP 200
                 (waits and back-off: bot/retry.py, shared with the broadcast worker)
    run.py       run_telegram: all of the above together
    platform.py  TELEGRAM, its entry in the platform registry (adapters/platforms.py)
"""

from importlib import import_module

# What the package exports, and the module each comes from: imported when first asked for, so that
# reading the platform registry (adapters/telegram/platform.py) imports no part of the library.
_EXPORTS = {"run_telegram": "run", "MAX_CHARS": "sender", "PLATFORM": "sender", "telegram_limits": "sender",
            "TelegramSender": "sender", "TelegramStopped": "startup", "connect": "startup",
            "open_sender": "startup", "telegram_client": "startup", "TELEGRAM": "platform"}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'adapters.telegram' has no attribute {name!r}")
    return getattr(import_module(f"adapters.telegram.{_EXPORTS[name]}"), name)
