"""Choice buttons on Telegram: the core's offered choices as an inline keyboard, a click as the user's pick.

When the core offers a choice, its reply carries ``meta["choices"]`` (card ids)
and ``meta["choice_labels"]`` (their questions). The reply's text already
numbers them; :func:`keyboard` adds one button per choice whose
``callback_data`` is ``choice:<number>``. A click comes back as a
``callback_query`` update; :func:`pick_to_incoming` turns it into the message
the user could have typed ("2"), from the same user in the same chat, so the
core answers the pick and logs it.
"""

from __future__ import annotations

from datetime import datetime

from telegram import CallbackQuery
from telegram.constants import ChatType

from adapters.telegram.convert import PLATFORM
from bot.messages import ChatKind, Incoming, Reply

PREFIX = "choice:"
MAX_LABEL = 60  # characters on a button; Telegram cuts long ones itself, this keeps them readable
MAX_CALLBACK_BYTES = 64  # Telegram's limit for callback_data


def keyboard(reply: Reply) -> dict | None:
    """The inline keyboard (Bot API JSON) for a reply that offers a choice, else None."""
    labels = reply.meta.get("choice_labels") or []
    if not reply.meta.get("choices") or not labels:
        return None
    rows = [[{"text": label(number, text), "callback_data": f"{PREFIX}{number}"}]
            for number, text in enumerate(labels, start=1)]
    return {"inline_keyboard": rows}


def label(number: int, text: str) -> str:
    """ "1. Are EAs on strike?", cut to MAX_LABEL characters with an ellipsis."""
    full = f"{number}. {' '.join(str(text).split())}"
    return full if len(full) <= MAX_LABEL else full[: MAX_LABEL - 1].rstrip() + "…"


def picked_number(data: str | None) -> int | None:
    """The number in a button's callback_data ("choice:2" -> 2); None for anything else."""
    if not data or not data.startswith(PREFIX) or len(data.encode()) > MAX_CALLBACK_BYTES:
        return None
    digits = data[len(PREFIX):]
    return int(digits) if digits.isdigit() and 0 < int(digits) < 100 else None


def pick_to_incoming(query: CallbackQuery, now: datetime) -> Incoming | None:
    """The click as the text the user could have typed; None when it is not one of our buttons.

    Telegram does not date a click: `now` is the bot's clock.
    """
    number = picked_number(query.data)
    message = query.message
    if number is None or message is None or query.from_user is None or query.from_user.is_bot:
        return None
    chat = message.chat
    kind = ChatKind.PRIVATE if chat.type == ChatType.PRIVATE else ChatKind.GROUP
    user = query.from_user
    return Incoming(PLATFORM, str(chat.id), str(user.id), str(number), now, kind, True, user.full_name,
                    language=user.language_code or "")
