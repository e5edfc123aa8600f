"""The order a question is answered in: the core's Turn in, an Answer out.

bot/core.py calls :func:`answer` once per question with the Turn it made (the message, what the matcher
understood, the user's memory, one knowledge snapshot) and itself as a :class:`bot.session.Session`. The
Turn it passes is left as it was: the modules below work on a copy (they overrule the intent, choose a
card, a board, a day) and the core reads only the :class:`bot.turn.Answer`. What they change in place is
the conversation's memory, ``turn.context`` (a choice offered, a board awaited, the source kept for
"source?"), which the core saves.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bot import timeliness
from bot.answering import card_choice, following, intents, on_subject, readings, trimming
from bot.text import normalize
from bot.turn import Answer

if TYPE_CHECKING:
    from bot.session import Session
    from bot.settings import Settings
    from bot.turn import Turn

_NO_CARDS = frozenset({"set_board", "subscribe", "unsubscribe", "help"})


def answer(bot: Session, asked: Turn, text: str, fresh: bool, settings: Settings) -> Answer:
    """The answer to the turn: `text` is the message as the core read it, `fresh` whether it follows the last
    answer closely enough to lean on it."""
    turn = replace(asked, analysis=asked.analysis.copy(), meta=dict(asked.meta))
    analysis = turn.analysis
    texts = following.lean_on_context(bot, turn, normalize(text, 500), fresh)
    if texts is None:
        turn.context.stop_waiting()
        meant = readings.help_about_the_dispute(turn, bot.subjects)
        if meant is not None:  # "c quoi l'histoire de grève?": what the strike is about, not the bot's help
            analysis.intent = meant
        if readings.not_a_request(turn):  # "will the school tell me if something changes?"
            readings.read_as_a_question(turn, settings.matcher.min_confidence, bot.subjects.asks_for("time", text))
        if analysis.intent not in _NO_CARDS and not analysis.command:
            # the answer card for the question, or two close ones offered
            card_choice.find_card(turn, lambda: bot.card_index(turn.knowledge), bot.subjects)
        readings.read_again(turn, turn.question, bot.subjects, lambda: len(intents.boards_named(bot, turn)))
        texts = intents.answer(bot, turn)
    texts = on_subject.keep_on_subject(bot, turn, texts)  # a reply about what was asked, or an honest line
    texts = on_subject.without_a_wrong_opener(bot, turn, texts)  # no "Yes:" to "how will they tell us?"
    texts = timeliness.frame(settings, turn, texts)  # old news, ended disputes, which dispute
    texts = intents.last_look(turn, texts)  # not "not sure" when one text speaks of the question's rare words
    texts = trimming.trim(turn, texts)  # the full name and the source line only where they add something
    texts = [t for t in texts if t]
    if texts:
        texts[-1] = turn.voice.finish(texts[-1])  # "only in English", once, at the end
    return Answer(tuple(texts), analysis.intent, analysis.confidence, turn.topic, turn.board, turn.day, turn.card,
                  turn.meta, analysis.board.board_id if analysis.board else None, analysis.weekend)
