"""Choice buttons on Telegram: the core's offered choices as an inline keyboard, a click as the user's pick.

When the core offers a choice, its reply carries ``meta["choices"]`` (card ids)
and ``meta["choice_labels"]`` (their questions). The reply's text already
numbers them; :func:`keyboard` adds one button per choice whose
``callback_data`` is ``choice:<number>:<asker's user id>``. A press comes back
as a ``callback_query`` update; :func:`pick_to_incoming` turns it into the
message the user could have typed ("2"), from the same user in the same chat,
so the core answers the pick and logs it. In a group, only the asker's press
counts (``0`` as the asker: anyone's, for an anonymous admin's question).
"""

from __future__ import annotations

import re
from datetime import datetime

from telegram import CallbackQuery
from telegram.constants import ChatType

from adapters.choices import button_label, offered
from adapters.telegram.convert import PLATFORM
from bot.messages import ChatKind, Incoming, Reply

PREFIX = "choice:"
MAX_LABEL = 60  # characters on a button; Telegram cuts long ones itself, this keeps them readable
_DATA = re.compile(r"choice:(?P<number>[1-9][0-9]?):(?P<asker>-?[0-9]{1,20})")  # at most 45 of the 64 bytes allowed


def keyboard(reply: Reply, asker: str) -> dict | None:
    """The inline keyboard (Bot API JSON) for a reply that offers a choice to `asker` (a user id), else None."""
    rows = [[{"text": label(number, text), "callback_data": f"{PREFIX}{number}:{asker}"}]
            for number, text in enumerate(offered(reply), start=1)]
    return {"inline_keyboard": rows} if rows else None


def label(number: int, text: str) -> str:
    return button_label(number, text, MAX_LABEL)


def parse(data: str | None) -> tuple[int, str] | None:
    """(number, asker's user id) from a button's callback_data ("choice:2:1001"); None for anything else."""
    match = _DATA.fullmatch(data or "")
    return (int(match["number"]), match["asker"]) if match else None


def pressed_by_another(query: CallbackQuery) -> bool:
    """Someone other than the asker pressed (in a group); "0" means anyone may."""
    parsed = parse(query.data)
    return parsed is not None and parsed[1] != "0" and parsed[1] != str(query.from_user.id)


def pick_to_incoming(query: CallbackQuery, now: datetime) -> Incoming | None:
    """The press as the text the user could have typed ("2"); None when it is not one of our buttons.

    Telegram does not date a press: `now` is the bot's clock.
    """
    parsed = parse(query.data)
    message = query.message
    if parsed is None or message is None or query.from_user is None or query.from_user.is_bot:
        return None
    chat = message.chat
    kind = ChatKind.PRIVATE if chat.type == ChatType.PRIVATE else ChatKind.GROUP
    user = query.from_user
    return Incoming(PLATFORM, str(chat.id), str(user.id), str(parsed[0]), now, kind, True, user.full_name,
                    language=user.language_code or "", buttons=True)
