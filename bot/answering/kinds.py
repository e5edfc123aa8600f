"""What kind of answer a question asks for (why, how much, when, how long), and whether an answer card's own
question asks for the same kind: a card asked "When does the strike start?" does not answer "why do they strike?".
The kinds' words are config/subjects.yaml's `asks_for` (bot/subjects.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.subjects import Subjects


def card_asks(subjects: Subjects, kind: str, card) -> bool:
    """Whether the card's own question (English or French) asks for that kind of answer."""
    return subjects.asks_for(kind, card.question) or subjects.asks_for(kind, (card.fr or {}).get("question") or "")


KINDS_ALIKE = ("reason", "amount", "time", "duration")


def asked_alike(card, question: str, subjects: Subjects) -> bool:
    """Whether the card's own question asks for the one kind of answer the question asks for (why, how much, when,
    how long it lasts). How long something lasts is a kind of its own: "how long until the strike" asks when, and a
    card asked "How long will it last?" does not answer it."""
    kinds = alike_kinds(lambda kind: subjects.asks_for(kind, question))
    return len(kinds) == 1 and kinds[0] in alike_kinds(lambda kind: card_asks(subjects, kind, card))


def asked_otherwise(card, question: str, subjects: Subjects) -> bool:
    """Whether the question asks for one kind of answer (why, how much, when, how long) and the card's own question
    for another: "why do chicago teachers want to strike?" is not answered by "When does the strike start?"."""
    kinds = alike_kinds(lambda kind: subjects.asks_for(kind, question))
    theirs = alike_kinds(lambda kind: card_asks(subjects, kind, card))
    return len(kinds) == 1 and bool(theirs) and kinds[0] not in theirs


def alike_kinds(asks: Callable[[str], bool]) -> list[str]:
    """The kinds of KINDS_ALIKE a text asks for; how long something lasts alone when it asks that ("combien de
    temps vont durer" is a duration, not an amount)."""
    kinds = [kind for kind in KINDS_ALIKE if asks(kind)]
    return ["duration"] if "duration" in kinds else kinds
