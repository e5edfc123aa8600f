"""What every platform's choice buttons share: which replies offer a choice, and a button's label.

The core offers a choice with ``Reply.meta["choices"]`` (card ids) and
``Reply.meta["choice_labels"]`` (their questions, in the same order); the
reply's text numbers them for the console. Telegram (adapters/telegram/choices.py)
and Discord (adapters/discord_bot/choices.py) put one button per choice under it.
"""

from __future__ import annotations

from bot.messages import Incoming, Reply
from bot.replies import say

NOT_YOURS = say("choice_not_yours", "en")  # (in English; not_yours() says it in the presser's language)


def not_yours(core, presser: Incoming | None) -> str:
    """What someone pressing another person's choice button is told, in their language (chosen,
    remembered or their app's)."""
    return say("choice_not_yours", core.language_of(presser) if presser is not None else "en")


def offered(reply: Reply) -> list[str]:
    """The labels of the choices a reply offers, in order (choice 1 first); [] for any other reply."""
    labels = reply.meta.get("choice_labels") or []
    return [str(text) for text in labels] if reply.meta.get("choices") else []


def button_label(number: int, text: str, limit: int) -> str:
    """ "1. Are EAs on strike?" on one line, cut to `limit` characters with an ellipsis."""
    full = f"{number}. {' '.join(text.split())}"
    return full if len(full) <= limit else full[: limit - 1].rstrip() + "…"
