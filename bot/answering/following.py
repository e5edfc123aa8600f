"""The turns that lean on the conversation: "2" after a choice, "peel" after "which board?", "thanks", "more",
"why?", "what about tuesday?", "and tcdsb?", "we're peel" after a question whose answer depends on the board.

:func:`lean_on_context` answers such a turn through the intents' handlers (bot/answering/intents.py), or returns None
for a new question.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import TYPE_CHECKING

from bot import answer_memo, answers, conversation, replies, timeliness
from bot.answering import card_choice, social_turns
from bot.answering.intents import ASKED_AGAIN_TOPICS, BOARD_DAY_TOPICS, DAY_TOPICS, HANDLERS, on_dispute_issues
from bot.boards import KIND_WORDS, BoardMention
from bot.matcher import FILLER
from bot.text import normalize

if TYPE_CHECKING:
    from bot.session import Session
    from bot.turn import Turn


def lean_on_context(bot: Session, turn: Turn, norm: str, fresh: bool) -> list[str] | None:
    """Answer a turn that leans on the conversation, or None to answer it as a new question."""
    context, analysis, now = turn.context, turn.analysis, turn.msg.time
    if analysis.command:
        return None
    if context.waiting("choice", now):
        number = conversation.picked(norm)
        if number is not None and number <= len(context.choices):
            card = turn.knowledge.card_by_id.get(context.choices[number - 1])
            if card is not None:
                turn.card, analysis.intent = card, card.topic
                bot.log_pick(turn, number, card)
                context.stop_waiting()
                return [answer_memo.card_answer(turn.knowledge, card, now, voice=turn.voice)]
    if context.waiting("board", now):
        texts = _board_given(bot, turn)
        if texts is not None:
            return texts
    social = social_turns.social_turn(norm)
    if social is None and analysis.intent in ("help", "unknown") and analysis.board is None \
            and analysis.date is None and not analysis.weekend and not bot.subjects.find(norm):
        social = social_turns.reaction(norm)
    if social is None:
        social = social_turns.plan_stated(norm)  # "ok I'll ask the teacher": nothing asked
    if social is not None:
        analysis.intent = "help"
        lang = turn.voice.language
        if fresh:
            _stay_in_conversation(turn)  # "thanks" after a question on Peel is still about Peel
        if social == "thanks":
            return [replies.welcome(bot.subscribed(turn.msg), lang)]
        if social == "ok":
            return [replies.acknowledged(lang)]
        return [replies.hello(lang) if social == "hello" else replies.goodbye(lang)]
    if social_turns.asks_about_the_bot(norm) and analysis.board is None and analysis.date is None:
        analysis.intent = "help"  # "are you a real person?", "who made you": what the bot is, in one line
        if fresh:
            _stay_in_conversation(turn)
        return [turn.voice.say("about_me")]
    recent = _how_recent(turn) if social_turns.asks_how_recent(norm) and analysis.date is None else None
    if recent is not None:
        analysis.intent = "updates_source"  # "why don't you know?", "so basically nobody knows": how old the news is
        if fresh:
            _stay_in_conversation(turn)
        return [recent]
    if not fresh or context.topic not in HANDLERS:
        if conversation.asks_everywhere(norm):  # "is it the whole province striking or just toronto?"
            analysis.intent = "who_is_affected"
            return [answers.scope(turn.knowledge, None, turn.today, turn.today, now, voice=turn.voice)]
        return None
    board = turn.board
    if analysis.board is None and context.board:  # a follow-up is about the board of the last answer...
        other = bot.boards.counterpart(context.board, norm)
        if other is not None:  # ...or "and the catholic one?": the other kind of board there, as if named
            analysis.board = BoardMention(other, 0, 0, "counterpart")
        turn.board = turn.knowledge.board(other or context.board) or turn.board
    if context.topic in _STEPS_OF_THE_DISPUTE and social_turns.asks_what_it_means_for_us(norm) \
            and analysis.date is None:
        analysis.intent = "school_status"  # "so what does that mean for my kid" after the talks: the day it means
        return HANDLERS["school_status"](bot, turn)
    if context.topic in BOARD_DAY_TOPICS and analysis.date is None and _REST_OF_THE_WEEK.match(norm):
        # "what about the rest of the week" after Monday's status: the next school day's, as a day asked
        analysis.intent = context.topic
        turn.day = answers.next_school_day((context.the_day() or turn.today) + timedelta(days=1))
        return HANDLERS[context.topic](bot, turn)
    texts = _lean_on_last_answer(bot, turn, norm)
    if texts is None:
        turn.board = board  # not a follow-up: the user's own board again...
        _stay_in_conversation(turn, conversation.continues(norm))  # ...unless they have none, or it continues
    return texts


# "what about the rest of the week", "et le reste de la semaine?": the days after the one just answered
_REST_OF_THE_WEEK = re.compile(r"^(?:(?:ok|and|so|but|et|pis|mais)\s+)?(?:what about |how about |and |et |pis )?"
                               r"(?:the |le |les )?(?:rest of (?:the|this) week|reste de la semaine|other days|autres jours)\W*$")


# A step of the dispute (talks, what it is about), after which "what does that mean for my kid" asks
# the day it means; the other answers say it themselves (what stops, the day, the care, who is out).
_STEPS_OF_THE_DISPUTE = frozenset({"negotiations", "dispute_issues"})


def _how_recent(turn: Turn) -> str | None:
    """The day of the newest news the bot has at the message's time, where boards post first, and the board's site
    (None when it has no news at all)."""
    newest = timeliness.newest_news(turn.knowledge, turn.msg.time)
    if newest is None:
        return None
    text = turn.voice.say("news_as_of", day=timeliness.day_text(newest, turn.voice.language))
    board = turn.board or (turn.knowledge.board(turn.context.board) if turn.context.board else None)
    if board is not None and board.website:
        text += "\n" + turn.voice.say("check_website", website=board.website)
    return text


def _stay_in_conversation(turn: Turn, continued: bool = False) -> None:
    """A new question a minute after another, naming no board, is about the board just talked about when the
    user has not set one ("is tcdsb open tomorrow?" then "ok, when does the strike start?"); a status or
    child-care question naming no day, asked after one about a day, is about that day ("are peel schools
    closed monday?" then "what do I do with the kids?"; "is tdsb closed today?" then "what about the
    catholic ones in toronto?"). A question that `continued` the last one ("and daycare?", "pis la
    garderie?") keeps its board and its day whatever board the user set."""
    context, analysis = turn.context, turn.analysis
    if analysis.board is None and context.board and (continued or not turn.remembered_board):
        turn.board = turn.knowledge.board(context.board) or turn.board
    if turn.day is None and not analysis.weekend and context.day and (
            (continued and (analysis.intent in DAY_TOPICS or analysis.out_of_scope is not None))
            or (analysis.intent in BOARD_DAY_TOPICS and context.topic in BOARD_DAY_TOPICS)):
        turn.day = context.the_day()


def _lean_on_last_answer(bot: Session, turn: Turn, norm: str) -> list[str] | None:
    context, analysis = turn.context, turn.analysis
    kind = conversation.follow_up_kind(norm)
    if kind == "same":  # "is it the same in catholic schools?": scope; "...for the catholic schools in markham?": there
        kind = "scope" if analysis.board is None or conversation.asks_everywhere(norm) else None
    if kind is not None:
        return _follow_up(turn, kind)
    if analysis.out_of_scope is not None:
        return None
    named_a_kind = analysis.board is not None and analysis.board.how == "counterpart"  # "what about the public one"
    # after a day's status, "open?" asks it again; after child care, "are tdsb schools open monday?" asks a status
    status_asked = _OPEN_OR_CLOSED if context.topic == "school_status" else frozenset()
    only_board_or_day = (analysis.intent in ("set_board", "school_status") or named_a_kind) \
        and not _content(analysis, also=status_asked)
    # "and what about my son at dpcdsb", "but peel said something right?": a board, and words that ask nothing new
    only_board = analysis.board is not None and not _content(analysis, bot)
    leans = (only_board_or_day or only_board) and context.topic in BOARD_DAY_TOPICS
    if not leans and (analysis.board is not None or analysis.date is not None) and _corrects(analysis, bot, norm):
        leans = True  # "i meant monday obviously. toronto catholic", "je voulais dire lundi": the last question again
        if context.topic not in BOARD_DAY_TOPICS:
            context.topic = "school_status"  # ...which named a day or a board: that day's status
    # After the dates of a day talked about ("is monday happening?"), a board named alone asks for its day there.
    asked_again = context.topic in ASKED_AGAIN_TOPICS and not (context.topic == "strike_dates" and context.day)
    if only_board and not leans and context.topic not in BOARD_DAY_TOPICS and (
            (not asked_again and (conversation.continues(norm) or analysis.processed))
            or bot.subjects.speaks_of_another_child(turn.question)):
        # "and tcdsb?", "but peel said something right?" after the custodians or the teachers, whose answer is
        # the same at every board (not a bare "tdsb": that sets the board), and "and my other kid at tcdsb?"
        # after anything: that board's day
        context.topic, leans = "school_status", True
    if not leans and analysis.date is not None and analysis.board is None and not _content(analysis, bot) \
            and context.topic not in BOARD_DAY_TOPICS and context.topic != "strike_dates":
        # "what about today?" after the custodians or the EAs: that day's status, at the conversation's board
        context.topic, leans = "school_status", True
    if only_board and not leans and asked_again and analysis.intent == "set_board" and context.topic != "strike_dates":
        leans = True  # "where do i get updates?" then "we're peel": Peel's answer to it (and Peel remembered)
    remember = False
    if only_board and not leans and analysis.intent == "set_board" and context.topic in ("strike_dates", "negotiations"):
        # "is it for sure?" (Monday's strike) then "york region": York's day, and York remembered
        context.topic, leans, remember = "school_status", True, turn.remembered_board is None
    if only_board and bot is not None and bot.subjects.speaks_of_another_child(turn.question):
        context.keep_family_board(analysis.board.board_id, turn.remembered_board or context.board)
    if not leans and analysis.intent == "unknown" and len(analysis.processed.split()) <= _SHORT_WORDS \
            and any(bot.subjects.asks_for(kind, turn.question) for kind in ("time", "definition")):
        leans = True  # "what time friday" after the talks, "meaning?" after work-to-rule: the same topic, asked so
    if not leans and conversation.continues(norm) and context.topic not in BOARD_DAY_TOPICS:
        # "and the custodians?" after a question on services: the same topic, unless clearly another
        best = max(analysis.scores.values(), default=0.0)
        leans = analysis.abstained or analysis.scores.get(context.topic, 0.0) >= best - 0.15
        if leans and not analysis.abstained and analysis.intent == context.topic \
                and analysis.confidence >= card_choice.SURE:
            return None  # "what about cleaning the classrooms" after services: asked whole, its card can answer
    if not leans:
        return None
    analysis.intent = context.topic if context.topic in HANDLERS else "unknown"
    if turn.day is None and context.day and (analysis.board is not None or not _content(analysis, also=status_asked)):
        turn.day = context.the_day()  # "and tcdsb?", "open?": the same day
    if analysis.intent == "unknown":
        return None
    texts = HANDLERS[analysis.intent](bot, turn)
    if remember and turn.board is not None:
        bot.remember_board(turn.msg, turn.board.id)
        texts.append(turn.voice.say("board_remembered", board=turn.board.name))
    return texts


_SHORT_WORDS = 3  # a follow-up the matcher cannot place this short leans on the last answer when it asks when
_PLACE_WORDS = 3  # "richmond hill", "sault ste marie": the words a place left in a message can have
# Words that only qualify a board ("the catholic board", "le conseil public anglais"): no question of their own.
_BOARD_WORDS = KIND_WORDS | {"conseil", "district", "one", "ones", "side", "system"}
# Words around a board that ask nothing either: "and if we're at the catholic school instead", "the catholic board here?"
_AROUND_A_BOARD = frozenset({"here", "there", "instead", "if", "were", "we", "our", "too", "also", "ici", "plutot",
                             "though",
                             # "is tdsb different", "c'est le conseil catholique, ça change-tu de quoi?" ("same",
                             # "pareil", "meme", "then": below)
                             "different", "difference", "change", "changes", "chose", "tu",
                             # "they go to the peel board", "we moved, we're in york region now", "my sister's kids"
                             "they", "go", "goes", "moved", "now", "live", "attend", "attends", "sister", "sisters",
                             "brother", "brothers", "cousin", "cousins", "niece", "nephew", "grandkids", "grandchildren",
                             "wait", "sorry", "oops", "actually", "high", "elementary", "secondary", "middle", "primary",
                             "elem", "kindergarten", "secondaire", "primaire", "elementaire",
                             # "ottawa first", "what about tcdsb specifically", "le tdsb d'abord": which board to begin with
                             "first", "specifically", "specific", "abord", "d'abord", "then", "please", "pls", "svp",
                             # "and my other one is at york catholic, same thing?", "pis mon autre au cepeo, pareil?"
                             "same", "thing", "still", "autre", "pareil", "meme"})


# What a status asks, asked again after a board's day ("tdsb" for Monday, then "open?"): nothing new.
_OPEN_OR_CLOSED = frozenset({"open", "opened", "closed", "close", "closing", "ouvert", "ouverte", "ferme", "fermee"})


def _content(analysis, bot: Session | None = None, also: frozenset[str] = frozenset()) -> list[str]:
    """The words of a message that ask something (with `bot`: also leaving out the words of a parent speaking
    of a child, and places, beside a board; and the words `also` names)."""
    words = [w for w in analysis.processed.split()
             if w not in FILLER and w not in ("what", "about", "and", "how") and w not in _BOARD_WORDS
             and w not in _AROUND_A_BOARD and w not in also]
    if bot is None:
        return words
    boards = bot.boards
    # a board's own name or place, said beside the one read ("not peel, we're york region"), asks nothing
    words = [w for w in words if w not in bot.subjects.children and w not in boards.named and w not in boards.places]
    if len(words) > _PLACE_WORDS:  # more than a place's words left: something is asked
        return words
    return [w for w in words if bot.boards.find(w) is None]


# The words of a parent correcting what they said ("sorry, I meant monday", "je voulais dire lundi"), as the
# matcher prepares them.
_CORRECTING = frozenset({"meant", "mean", "sorry", "oops", "obviously", "actually", "voulais", "dire", "plutot",
                         "rather", "instead", "correction", "typo", "oups", "desole", "not", "no"})


def _corrects(analysis, bot: Session, norm: str = "") -> bool:
    """Whether the message only corrects the day or board of the last question ("i meant monday", "no wait, it's
    the public one. peel district")."""
    words = _content(analysis, bot)
    opens = _CORRECTION_OPENS.match(norm) is not None
    return (bool(words) or opens) and (opens or any(w in ("meant", "voulais", "instead", "rather", "plutot", "correction")
                                                 for w in words)) and all(w in _CORRECTING for w in words)


_CORRECTION_OPENS = re.compile(r"^(?:no+,? wait|wait|oops|oups|non attends|attends|actually|my bad|sorry,? i meant"
                               r"|(?:no+,? )?i mean|(?:non,? )?je veux dire)\b")  # "no i mean tomorrow"


def _follow_up(turn: Turn, kind: str) -> list[str]:
    """'more', 'why?' and 'is that confirmed?' about the last answer."""
    context, knowledge, now = turn.context, turn.knowledge, turn.msg.time
    if kind == "source" and context.cited:
        turn.analysis.intent = "help"  # nothing new is asked: the conversation stays where it was
        turn.full = True  # the source lines are the answer: kept whole
        titles = [turn.voice.say("source_title", title=turn.voice.text(source, "title"))
                  for file, source in knowledge.sources.items() if file in context.cited]
        return ["\n".join([context.cited, *titles[:3]])]  # "says who": the report's own title, not only its file
    turn.analysis.intent = context.topic
    turn.day = turn.day or context.the_day()
    card = knowledge.card_by_id.get(context.card) if context.card else None
    if kind == "more":
        turn.full = True
        if card is not None:
            turn.card = card
            rest = answer_memo.card_answer(knowledge, card, now, full=True, voice=turn.voice)
            if card.topic in HANDLERS and card.topic not in ("unknown", "school_status"):
                turn.card = None
                rest += "\n\n" + HANDLERS[card.topic](None, turn)[0]
                turn.card = card
            return [rest]
        return HANDLERS[context.topic](None, turn)
    day = turn.day or turn.today
    if kind == "scope":
        return [answers.scope(knowledge, context.topic, day, turn.today, now, voice=turn.voice)]
    if context.topic == "school_status":
        if kind == "why":  # why the job action first (what "why?" asks most), then why the day's status is so
            turn.analysis.intent = "dispute_issues"
            turn.topic = "school_status"  # the conversation stays on the day's status ("is that confirmed?")
            text = answers.why_status(knowledge, turn.board, day, now, voice=turn.voice)
            return [*on_dispute_issues(None, turn), *([text] if text else [])]
        else:
            return [answers.confirmed_status(knowledge, turn.board, day, turn.today, now, voice=turn.voice)]
    if kind == "why":
        turn.analysis.intent = "dispute_issues"
        return on_dispute_issues(None, turn)
    source = card.source if card else None
    if source:
        when = answers.when_published(card.published, turn.voice.language)
        return [turn.voice.say("what_source_reported", source=source, when=when)]
    return [turn.voice.say("what_reports_said")]


def _board_given(bot: Session, turn: Turn) -> list[str] | None:
    """Answer the question we asked "which board?" about, if this message names a board (or 'all')."""
    analysis, context = turn.analysis, turn.context
    wants_all = context.intent == "subscribe" and "all" in normalize(turn.question).split()
    if (analysis.board is None and not wants_all) or analysis.out_of_scope is not None:
        return None
    if analysis.intent not in {"set_board", "unknown", "subscribe", context.intent}:
        return None
    analysis.intent = context.intent if context.intent in HANDLERS else "school_status"
    if turn.day is None and context.day:
        turn.day = context.the_day()
    if context.weekend:
        analysis.weekend = True
    context.stop_waiting()
    texts = HANDLERS[analysis.intent](bot, turn)
    if analysis.board is not None and turn.board is not None:
        bot.remember_board(turn.msg, turn.board.id)
        texts.append(turn.voice.say("board_remembered", board=turn.board.name))
    return texts


# ------------------------------------------------------------------ intents
