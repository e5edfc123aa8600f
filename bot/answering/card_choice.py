"""Which card answers a question: the bars a card must clear against the matcher's intent, a choice offered only
between cards whose answers differ, and a topic the intents leave out answered by a card that names it.

The cards are found and scored by bot/cards.py (``CardIndex``); this module decides among them. The bars were
tuned on our own development questions, never on a held-out or blind set.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from bot.answering import kinds, readings
from bot.asked import asks_for_list, words_of
from bot.cards import Match
from bot.intent_data import INTENTS
from bot.text import named, normalize
from knowledge.model import Card

if TYPE_CHECKING:
    from bot.cards import CardIndex
    from bot.subjects import Subjects
    from bot.turn import Turn

ANSWER_BAR = 0.40  # a card in the question's topic (the matcher sure of it) answers from here
ACROSS_BAR = 0.41  # with the intent unsure, the best card answers from here...
ACROSS_LEAD = 0.06  # ...when it leads the next card by this much
OVERRULE_BAR = 0.58  # a card of another topic than a sure intent's needs this much (and the lead)
SURE = 0.5  # the matcher's confidence from which its intent is taken as sure
CLOSE = 0.03  # two cards this close, both over ACROSS_BAR, with different answers: offer the choice
_LISTS = frozenset({"withdrawn_services", "strike_dates"})  # intents whose answer can be the whole list


def find_card(turn: Turn, card_index: Callable[[], CardIndex], subjects: Subjects) -> None:
    """Choose the answer card for the question (`card_index` gives the cards, built on first use), or offer two
    close ones: turn.card, or turn.meta["choices"]; the intent reported becomes the card's topic where the matcher
    was not sure."""
    analysis = turn.analysis
    if analysis.intent == "school_status" and analysis.date:
        return  # a day's status comes from the statuses, always
    if analysis.intent in _LISTS and asks_for_list(turn.question):
        return  # "what services stopped?": the whole list, staff updates included
    index = card_index()
    if not index.cards:
        return
    matches = index.find(analysis.processed, turn.msg.time, turn.board.id if turn.board else None, analysis.english)
    matches = readings.asked_the_same_way(matches, turn.question, subjects)  # "what day": a card on when
    if analysis.date is not None and not subjects.asks_for("reason", turn.question):
        # "is cupe striking monday": a day asked about is never answered by "Why are they striking?"
        matches = [m for m in matches if not kinds.card_asks(subjects, "reason", m.card)]
    turn.meta["matches"] = matches[:2]  # the nearest cards, should the intent's own answer have nothing to say
    if analysis.board is not None:  # "is peel closing if...": only a card about that board, not a general one
        general = [m for m in matches if _general_status(m.card)]
        matches = [m for m in matches if not _general_status(m.card)]
        unsure = analysis.abstained or analysis.intent == "unknown" or analysis.confidence < SURE
        if general and unsure and general[0].score >= max([OVERRULE_BAR, *(m.score for m in matches[:1])]):
            analysis.intent = "school_status"  # "online learning tmrw for tdsb?": the board's own status answers
            return
    if analysis.out_of_scope is not None and analysis.intent == "unknown":
        # A topic the intents leave out ("buses"): only a card about it answers, one of that topic or one that
        # names it (a pack's card on the parent payment, where the shipped list only says where to look).
        topic = analysis.out_of_scope.keywords
        keywords = named(normalize(turn.question, 500), topic)
        # about the topic: a card whose own question names it ("Will a nurse give medication?"), or whose
        # phrasings use the question's word for it (not one that says "picture day" in passing)
        naming = [m for m in matches if (keywords and names_any(m.card, keywords)) or asks_about(m.card, topic)]
        # ...or a card of the pack's own topic ("Will the lost school days be made up?"): the pack before the list
        matches = [m for m in matches if m.card.topic == "unknown" or m.card.pack_topic or m in naming]
        pick = choose_on_topic(matches, naming, turn.question)  # the pack's word before "no information"
    else:
        intent = analysis.intent
        if matches and matches[0].card.topic != intent and kinds.asked_alike(matches[0].card, turn.question, subjects):
            intent = matches[0].card.topic  # "why are teachers striking?": a card asked why answers, not who
        pick = choose(matches, intent, analysis.confidence, analysis.abstained)
    # The intent reported stays the matcher's when it was sure; a card found where it was not
    # sure reports the card's topic (an intent, or "unknown").
    if pick.card is not None:
        turn.card = pick.card
        if analysis.abstained or analysis.intent == "unknown" or analysis.confidence < SURE:
            analysis.intent = pick.card.topic
    elif pick.choices and one_topic(pick.choices):
        # "strike monday?", "will the teachers be there?": two cards of one topic, close; the closer answers
        # (the subject asked still keeps the one asked that way), no needless "1 or 2"
        turn.card = asked_more_alike(pick.choices, turn.question, shortest=4) or pick.choices[0]
        if analysis.abstained or analysis.intent == "unknown" or analysis.confidence < SURE:
            analysis.intent = turn.card.topic
    elif pick.choices:
        turn.meta["choices"] = [c.id for c in pick.choices]
        if analysis.abstained or analysis.intent == "unknown" or analysis.confidence < SURE:
            analysis.intent = pick.choices[0].topic


def _general_status(card: Card) -> bool:
    """Whether a card says how schools are everywhere (no board's, not of a topic of the pack's own)."""
    return not card.boards and card.topic == "school_status" and not card.pack_topic


def one_topic(choices: tuple[Card, ...]) -> bool:
    """Whether the cards offered are all of one intent (not "unknown": cards on topics the intents leave out), asked
    differently ("Are teachers on strike?", "Will teachers be at school?"). Two cards asked alike with different
    answers (staff taught both) are still offered: only the parent can tell."""
    topics = {card.topic for card in choices}
    asked = {normalize(card.question).strip(" ?") for card in choices}
    return len(topics) == 1 and len(asked) == len(choices) and next(iter(topics)) in INTENTS \
        and next(iter(topics)) != "unknown"


@dataclass(frozen=True, slots=True)
class Pick:
    """What the cards say about a question: one card to answer, a choice to offer, or nothing."""

    card: Card | None = None
    choices: tuple[Card, ...] = ()


def names_any(card: Card, keywords: tuple[str, ...]) -> bool:
    """Whether the card's question or phrasings name one of `keywords` (normalised words, as in
    config/intents.yaml's out_of_scope): a pack's card about the parent payment is about "parent payment"."""
    return _names_any(card.question, tuple(card.phrasings) + tuple((card.fr or {}).get("phrasings") or ()), keywords)


def asks_about(card: Card, keywords: tuple[str, ...]) -> bool:
    """Whether the card's own question (English or French) names one of `keywords`."""
    return _names_any(card.question, ((card.fr or {}).get("question") or "",), keywords)


@lru_cache(maxsize=4096)
def _names_any(question: str, phrasings: tuple[str, ...], keywords: tuple[str, ...]) -> bool:
    return bool(named(" | ".join(normalize(text, 300) for text in (question, *phrasings)), keywords))


TOPIC_BAR = 0.30  # a card about a topic the intents leave out answers from here (else: where to look)


def choose_on_topic(matches: list[Match], naming: list[Match], question: str = "") -> Pick:
    """The card for a question on a topic the intents leave out ("exams"): as `choose` with the intent unsure,
    among the cards of no intent and those `naming` the topic; else the best of those naming it from TOPIC_BAR
    (a pack's card on the parent payment beats "I have no information on payments"), or a choice of the two
    best when they are within CLOSE and answer differently."""
    pick = choose(matches, "unknown", 0.0, True)
    if pick.card is not None or pick.choices or not naming or naming[0].score < TOPIC_BAR:
        return pick
    runner = naming[1] if len(naming) > 1 else None
    if runner is not None and naming[0].score - runner.score <= CLOSE and runner.score >= TOPIC_BAR \
            and runner.card.answer != naming[0].card.answer:
        alike = asked_more_alike((naming[0].card, runner.card), question)
        # "examen ... c'est quand / ça compte pour 50%?": asked as much like both, the parent chooses
        return Pick(card=alike) if alike is not None else Pick(choices=(naming[0].card, runner.card))
    return Pick(card=naming[0].card)


def asked_more_alike(cards: tuple[Card, ...], question: str, shortest: int = 1) -> Card | None:
    """Of two cards, the one whose own question (English or French) is asked in more of the parent's words of
    `shortest` letters or more, by their first letters ("is the bus running": buses run; "cancelling fall break to
    make up days": fall break, with `shortest` 4); None when neither is."""
    asked = {word[:3] for word in words_of(question) if len(word) >= shortest}
    shared = [len(asked & {word[:3] for text in (card.question, (card.fr or {}).get("question") or "")
                           for word in words_of(text)}) for card in cards[:2]]
    if len(shared) < 2 or shared[0] == shared[1]:
        return None
    return cards[0] if shared[0] > shared[1] else cards[1]


def choose(matches: list[Match], intent: str, confidence: float, abstained: bool) -> Pick:
    """The card that answers, given the coarse intent and how sure the matcher was of it.

    A card of the question's own topic answers from ANSWER_BAR; any other
    card needs OVERRULE_BAR (ACROSS_BAR when the intent is unsure) and a lead
    of ACROSS_LEAD over the next. Two cards within CLOSE of each other, both over
    ACROSS_BAR and with different answers, are offered as a choice.
    """
    if not matches:
        return Pick()
    best = matches[0]
    runner = matches[1] if len(matches) > 1 else None
    sure = not abstained and intent != "unknown" and confidence >= SURE
    # With a sure intent, a choice is offered between two cards about it, or two cards strong enough to
    # overrule it; two weaker cards about something else are no answer to offer.
    settled = sure and runner is not None and best.score < OVERRULE_BAR \
        and not (best.card.topic == intent and runner.card.topic == intent)
    if runner is not None and best.score - runner.score <= CLOSE and runner.score >= ACROSS_BAR \
            and runner.card.answer != best.card.answer and not settled:
        return Pick(choices=(best.card, runner.card))
    lead = best.score - (runner.score if runner is not None else 0.0)
    if sure:
        own = next((m for m in matches if m.card.topic == intent), None)
        if own is not None and own.score >= ANSWER_BAR and (own is best or best.score - own.score <= CLOSE):
            return Pick(card=own.card)
        if best.score >= OVERRULE_BAR and lead >= ACROSS_LEAD:
            return Pick(card=best.card)
        return Pick()
    if best.score >= ACROSS_BAR and lead >= ACROSS_LEAD:
        return Pick(card=best.card)
    return Pick()


EMPTY_BAR = 0.30  # instead of an intent's "I have no news on that yet", the nearest card answers from here


def instead_of_nothing(matches: list[Match]) -> Card | None:
    """The card to answer with when the intent's own answer has nothing to say ("I have no news on the talks
    yet"): the nearest card from EMPTY_BAR, when it leads the next by CLOSE or answers as it does."""
    if not matches or matches[0].score < EMPTY_BAR:
        return None
    best, runner = matches[0], (matches[1] if len(matches) > 1 else None)
    if runner is None or best.score - runner.score > CLOSE or runner.card.answer == best.card.answer:
        return best.card
    return None
