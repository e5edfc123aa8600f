"""How a message's intent scores become its intent, read beside what else it names.

The matcher (bot/matcher.py) scores every intent; these rules pick the intent from the scores when the message
also names a board or a day: a board and a day asked together are a day's status, not a board to keep; a
sentence of only "school" and a day asks that day's status whatever else the message says; and a subscription
is never changed on a guess beside a day's question.
"""

from __future__ import annotations

import re
from collections.abc import Callable

DAY_QUESTION = 0.64  # the least a sentence of only school and a day scores as a day's status
ACTION_MARGIN = 0.06
BOARD_DAY_SURE = 0.5  # below this, another intent gives way to the day's status of a board and a day named  # a subscription changed by a message must lead a day's status by this much
ACTIONS = frozenset({"subscribe", "unsubscribe"})  # intents that change what a chat receives

# A sentence of only these words (its day blanked) asks a day's status: "school tomorrow for real?", "classes lundi?"
_DAY_SCHOOL = frozenset({"school", "schools", "class", "classes", "ecole", "cours", "send"})  # "do i send her today"
_DAY_SCHOOL_ASIDES = _DAY_SCHOOL | frozenset({"for", "real", "really", "right", "still", "on", "or", "not", "normal",
                                              "open", "again", "then", "yet", "ok", "there", "is", "any", "a",
                                              # "anyone know what's happening with school tomorrow?"
                                              "anyone", "know", "what", "whats", "happening", "going", "with",
                                              # "do i send her today or what", "should i send my kid tomorrow"
                                              "do", "i", "should", "her", "him", "them", "my", "kid", "kids"})
_SENT = frozenset({"her", "him", "them", "kid", "kids"})  # who "send" sends to school
_SENTENCE_ENDS = re.compile(r"[?!.\n]+")


def asks_school_that_day(sentence: str, filler: frozenset[str] = frozenset()) -> bool:
    """Whether a prepared sentence (its day blanked) is only school and words around it: "school for real"."""
    words = sentence.split()
    school = _DAY_SCHOOL.intersection(words)
    if school == {"send"} and _SENT.isdisjoint(words):
        return False  # "send me updates today": the bot's messages, not a child sent to school
    return bool(school) and all(w in _DAY_SCHOOL_ASIDES or w in filler for w in words)


def a_sentence_asks_school_that_day(blanked: str, words_of: Callable[[str], tuple[str, ...]],
                                    filler: frozenset[str]) -> bool:
    """Whether one sentence of a message (its board and day blanked) is only school and a day: "school tmrw? i
    heard the support staff made a deal" (such a sentence is too short to be scored on its own)."""
    return any(asks_school_that_day(" ".join(words_of(part)), filler) for part in _SENTENCE_ENDS.split(blanked)
               if part.strip())


# What a message changing its chat's subscription speaks of, unless it is a few words ("stop", "no more"): the
# bot's messages. "they cant take cash for pizza lunch anymore??" is no request to stop them.
_MESSAGING = frozenset({"message", "messages", "messaging", "text", "texts", "texting", "alert", "alerts", "update",
                        "updates", "notification", "notifications", "notify", "subscribe", "subscribed",
                        "subscription", "unsubscribe", "spam", "spamming", "bot", "sending", "send", "receive",
                        "recevoir", "alertes", "textos", "mises", "abonne", "abonnement", "desabonner",
                        "envoyer", "envoie", "me", "moi", "mute", "silence", "news", "nouvelles", "nouveau",
                        "warned", "notified", "informed", "know", "tell", "updated", "averti", "avertir", "prevenir",
                        "informe", "alerted", "ping"})
ACTION_WORDS = 4  # a message of at most this many words may change a subscription without naming the messages


def ranked(scores: dict[str, float], *, board: bool, when: bool, day_asked: bool, min_confidence: float,
           min_margin: float, words: tuple[str, ...] = ()) -> tuple[str, float, float, dict[str, float]]:
    """(intent, its score, the next intent's score, the scores as read) from a message's scores, given whether it
    names a board and a day and whether a sentence of it asks only for a day's status."""
    if words and len(words) > ACTION_WORDS and _MESSAGING.isdisjoint(words):
        scores = {**scores, **dict.fromkeys(ACTIONS, 0.0)}
    if day_asked:
        # "school tomorrow for real? what time", "school tmrw? i heard the support staff made a deal": that
        # day's status, whatever the rest says; and no subscription changed beside it ("no more strike")
        status = max(scores["school_status"], DAY_QUESTION)
        scores = {**scores, "school_status": status,
                  **{action: min(scores[action], status - min_margin) for action in ACTIONS}}
    order = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
    (best, best_score), (runner, second_score) = order[0], order[1]
    if best != "school_status" and board and when and best_score < BOARD_DAY_SURE \
            and scores["school_status"] >= min_confidence:
        # "Kanata mom here, my kids are at an elementary school off Hazeldean. do we need to worry about monday?":
        # a board and a day, and nothing else read surely: that board's day
        best, best_score = "school_status", max(scores["school_status"], best_score)
        second_score = min(second_score, best_score - min_margin)
    elif best == "set_board" and when and scores["school_status"] >= min_confidence:
        # "I'm in Peel btw, are we open monday": a board and a day asked about, not only a board to keep.
        best, best_score = "school_status", scores["school_status"]
        second_score = min(second_score, best_score - min_margin)
    elif {best, runner} == {"school_status", "strike_dates"} and board and best_score - second_score < min_margin:
        # "is there going to be a strike at my kids school?? tdsb": that board's day says it
        best, best_score = "school_status", scores["school_status"]
        second_score = min(second_score, best_score - min_margin)
    elif best in ACTIONS and runner == "school_status" and best_score - second_score < ACTION_MARGIN:
        # "can you just tell me if the school near me is closing": a day's status as near as the action is
        # asked, and a chat is never subscribed (or unsubscribed) on a guess
        best, best_score = order[1]
        second_score = min(order[2][1], best_score - min_margin)
    return best, best_score, second_score, scores
