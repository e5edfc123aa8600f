"""Answering one understood question: per intent, and the turns that lean on the conversation.

Each ``on_<intent>`` takes the bot and the :class:`bot.core.Turn` and returns
the reply texts. :func:`lean_on_context` answers the short turns that only make
sense after an earlier one ("2", "peel" after "which board?", "thanks",
"more", "why?", "what about tuesday?", "and tcdsb?").
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import TYPE_CHECKING

from bot import answer_memo, answers, cards, commands, conversation, passages, replies, timeliness
from bot.boards import KIND_WORDS, BoardMention
from bot.chat_settings import on_set_board, on_subscribe, on_unsubscribe
from bot.dates import describe_day
from bot.matcher import FILLER
from bot.text import normalize

_WORDS = re.compile(r"[a-z0-9]+")

if TYPE_CHECKING:
    from bot.core import Bot, Turn

# Topics whose answer depends on the board and the day: "and tcdsb?" / "what about tuesday?" re-ask them.
_BOARD_DAY_TOPICS = frozenset({"school_status", "childcare"})
# Topics a day can be asked about: "and the daycare?", "and will the custodians clean?" keep the day continued;
# "and are they still negotiating?", "and how long will it last?" name none.
_DAY_TOPICS = _BOARD_DAY_TOPICS | {"withdrawn_services", "updates_source"}
# Topics after which "and tcdsb?" asks the same again for TCDSB: answers that differ by board, and dates ("when
# does the strike start?" then "pis à North Bay?"). After the others (who takes part, why) it asks that board's day.
_ASKED_AGAIN_TOPICS = _DAY_TOPICS | {"strike_dates"}


def answer(bot: Bot, turn: Turn) -> list[str]:
    """The reply texts for the turn's intent (or its answer card, or the choice between two)."""
    analysis = turn.analysis
    if turn.meta.get("choices"):
        return [_offer(turn)]
    if turn.card is not None:
        texts = [answer_memo.card_answer(turn.knowledge, turn.card, turn.msg.time, full=turn.full, voice=turn.voice,
                                     question=turn.question)]
        if turn.board is not None and turn.card.topic in _BOARD_LINES and not _names(texts[0], turn.board):
            texts[0] = _BOARD_LINES[turn.card.topic](turn, texts[0])
    else:
        texts = HANDLERS[analysis.intent](bot, turn)
        if analysis.intent in _FROM_FACTS and (analysis.abstained or analysis.confidence < cards.SURE) and texts:
            texts = _on_the_words(turn, texts)
    if analysis.intent == "who_is_affected" and analysis.board is not None and texts and turn.board is not None \
            and not _names(texts[0], turn.board) and turn.card is None and bot is not None \
            and not bot.subjects.find(turn.question):
        # "are schools in Whitby affected?": the reports name no board's workers; the board's day says how
        texts[0] = _day_line(bot, turn) + "\n" + texts[0].split("\n", 1)[0]
    elif analysis.intent == "who_is_affected" and analysis.board is not None and texts and turn.board is not None \
            and not _names(texts[0], turn.board):
        # "does it affect the CEPEO's EAs?": the board's own site
        texts[0] = _before_source(texts[0], turn.voice.say("check_website", website=turn.board.website))
    if _asks_a_day_too(turn) and texts:  # "any deal?? is there school tomorrow": both answered, in the order asked
        status = _day_line(bot, turn)
        lines = texts[0].split("\n")
        first_half = analysis.date.start < len(turn.question) / 2
        if status in lines and first_half:  # "is there school monday and what about the daycare?": the day first
            lines.remove(status)
        if status not in lines:  # not already there ("are schools in Whitby affected monday?")
            lines.insert(0 if first_half else 1, status)
            texts[0] = "\n".join(lines)
    if analysis.intent == "school_status" and texts and not turn.full:  # "...also is there gonna be a full strike"
        phase = answers.phase_not_announced_line(turn.knowledge, turn.question, turn.msg.time, turn.voice)
        if phase is not None:
            first, _, rest = texts[0].partition("\n")
            texts[0] = f"{first}\n{phase}" + (f"\n{rest}" if rest else "")
    topic = analysis.out_of_scope
    answered = turn.card is not None and cards.names_any(turn.card, topic.keywords) if topic else False
    if topic is not None and analysis.intent != "unknown" and texts and not answered:  # a mixed question
        texts[-1] += "\n" + turn.voice.say("mixed_out_of_scope", topic=turn.voice.text(topic, "topic"),
                                           where=replies.fill_region(turn.voice.text(topic, "where"),
                                                                     turn.voice.language))
    return texts


# Intents answered from the knowledge's texts (not a day's status, not the parent's settings).
_FROM_FACTS = frozenset({"strike_dates", "withdrawn_services", "childcare", "negotiations", "who_is_affected",
                         "dispute_issues", "work_to_rule", "updates_source"})


def _on_the_words(turn: Turn, texts: list[str]) -> list[str]:
    """An unsure intent's answer that shares no word with the question, replaced by the text of the knowledge
    that shares its rare words ("do i need to pack a lunch": not a board's child-care advice)."""
    found = passages.instead_of(turn.knowledge, turn.question, turn.msg.time, turn.voice, texts[0],
                                turn.analysis.processed)
    return _passage_reply(turn, found) or texts


def _passage_reply(turn: Turn, found: passages.Found | None) -> list[str] | None:
    if found is None:
        return None
    text, topic = passages.answer(turn.knowledge, found, turn.msg.time, turn.voice, turn.question)
    if not text:
        return None
    if found.passage.kind == "card":
        turn.card = found.passage.entry
    if topic in HANDLERS and found.sure:  # offered as the nearest text, the question stays one not understood
        turn.analysis.intent = topic
    turn.meta["passage"] = found.passage.kind
    return [text if found.sure else turn.voice.say("nearest_text", word=found.word) + "\n" + text]


def _offer(turn: Turn) -> str:
    offered = [turn.knowledge.card_by_id[c] for c in turn.meta["choices"]]
    context = turn.context
    context.awaiting, context.asked = "choice", turn.msg.time.isoformat()
    context.choices, context.question = list(turn.meta["choices"]), turn.question[:200]
    turn.meta["choice_labels"] = [turn.voice.text(c, "question") for c in offered]
    return replies.offer(turn.meta["choice_labels"], turn.voice.language, buttons=turn.msg.buttons)


def lean_on_context(bot: Bot, turn: Turn, norm: str, fresh: bool) -> list[str] | None:
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
    social = conversation.social_turn(norm)
    if social is None and analysis.intent in ("help", "unknown") and analysis.board is None \
            and analysis.date is None and not analysis.weekend and not bot.subjects.find(norm):
        social = conversation.reaction(norm)
    if social is None:
        social = conversation.plan_stated(norm)  # "ok I'll ask the teacher": nothing asked
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
    if not fresh or context.topic not in HANDLERS:
        if conversation.asks_everywhere(norm):  # "is it the whole province striking or just toronto?"
            analysis.intent = "who_is_affected"
            return [answers.scope(turn.knowledge, None, turn.today, turn.today, now, voice=turn.voice)]
        return None
    board = turn.board
    if analysis.board is None and context.board:  # a follow-up is about the board of the last answer...
        other = bot.matcher.boards.counterpart(context.board, norm)
        if other is not None:  # ...or "and the catholic one?": the other kind of board there, as if named
            analysis.board = BoardMention(other, 0, 0, "counterpart")
        turn.board = turn.knowledge.board(other or context.board) or turn.board
    texts = _lean_on_last_answer(bot, turn, norm)
    if texts is None:
        turn.board = board  # not a follow-up: the user's own board again...
        _stay_in_conversation(turn, conversation.continues(norm))  # ...unless they have none, or it continues
    return texts


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
            (continued and (analysis.intent in _DAY_TOPICS or analysis.out_of_scope is not None))
            or (analysis.intent in _BOARD_DAY_TOPICS and context.topic in _BOARD_DAY_TOPICS)):
        turn.day = context.the_day()


def _lean_on_last_answer(bot: Bot, turn: Turn, norm: str) -> list[str] | None:
    context, analysis = turn.context, turn.analysis
    kind = conversation.follow_up_kind(norm)
    if kind is not None:
        return _follow_up(turn, kind)
    if analysis.out_of_scope is not None:
        return None
    named_a_kind = analysis.board is not None and analysis.board.how == "counterpart"  # "what about the public one"
    only_board_or_day = (analysis.intent in ("set_board", "school_status") or named_a_kind) and not _content(analysis)
    # "and what about my son at dpcdsb", "but peel said something right?": a board, and words that ask nothing new
    only_board = analysis.board is not None and not _content(analysis, bot)
    leans = (only_board_or_day or only_board) and context.topic in _BOARD_DAY_TOPICS
    if not leans and (analysis.board is not None or analysis.date is not None) and _corrects(analysis, bot):
        leans = True  # "i meant monday obviously. toronto catholic", "je voulais dire lundi": the last question again
        if context.topic not in _BOARD_DAY_TOPICS:
            context.topic = "school_status"  # ...which named a day or a board: that day's status
    # After the dates of a day talked about ("is monday happening?"), a board named alone asks for its day there.
    asked_again = context.topic in _ASKED_AGAIN_TOPICS and not (context.topic == "strike_dates" and context.day)
    if only_board and not leans and context.topic not in _BOARD_DAY_TOPICS and (
            (not asked_again and (conversation.continues(norm) or analysis.processed))
            or bot.subjects.speaks_of_another_child(turn.question)):
        # "and tcdsb?", "but peel said something right?" after the custodians or the teachers, whose answer is
        # the same at every board (not a bare "tdsb": that sets the board), and "and my other kid at tcdsb?"
        # after anything: that board's day
        context.topic, leans = "school_status", True
    if not leans and analysis.date is not None and analysis.board is None and not _content(analysis, bot) \
            and context.topic not in _BOARD_DAY_TOPICS and context.topic != "strike_dates":
        # "what about today?" after the custodians or the EAs: that day's status, at the conversation's board
        context.topic, leans = "school_status", True
    if only_board and not leans and asked_again and analysis.intent == "set_board" and context.topic != "strike_dates":
        leans = True  # "where do i get updates?" then "we're peel": Peel's answer to it (and Peel remembered)
    if only_board and bot is not None and bot.subjects.speaks_of_another_child(turn.question):
        context.keep_family_board(analysis.board.board_id, turn.remembered_board or context.board)
    if not leans and analysis.intent == "unknown" and len(analysis.processed.split()) <= _SHORT_WORDS \
            and any(bot.subjects.asks_for(kind, turn.question) for kind in ("time", "definition")):
        leans = True  # "what time friday" after the talks, "meaning?" after work-to-rule: the same topic, asked so
    if not leans and conversation.continues(norm) and context.topic not in _BOARD_DAY_TOPICS:
        # "and the custodians?" after a question on services: the same topic, unless clearly another
        best = max(analysis.scores.values(), default=0.0)
        leans = analysis.abstained or analysis.scores.get(context.topic, 0.0) >= best - 0.15
    if not leans:
        return None
    analysis.intent = context.topic if context.topic in HANDLERS else "unknown"
    if turn.day is None and context.day and analysis.board is not None:
        turn.day = context.the_day()  # "and tcdsb?": the same day
    if analysis.intent == "unknown":
        return None
    return HANDLERS[analysis.intent](bot, turn)


_SHORT_WORDS = 3  # a follow-up the matcher cannot place this short leans on the last answer when it asks when
_PLACE_WORDS = 3  # "richmond hill", "sault ste marie": the words a place left in a message can have
# Words that only qualify a board ("the catholic board", "le conseil public anglais"): no question of their own.
_BOARD_WORDS = KIND_WORDS | {"conseil", "district", "one", "ones", "side", "system"}
# Words around a board that ask nothing either: "and if we're at the catholic school instead", "the catholic board here?"
_AROUND_A_BOARD = frozenset({"here", "there", "instead", "if", "were", "we", "our", "too", "also", "ici", "plutot",
                             # "they go to the peel board", "we moved, we're in york region now", "my sister's kids"
                             "they", "go", "goes", "moved", "now", "live", "attend", "attends", "sister", "sisters",
                             "brother", "brothers", "cousin", "cousins", "niece", "nephew", "grandkids", "grandchildren",
                             "wait", "sorry", "oops", "actually"})


def _content(analysis, bot: Bot | None = None) -> list[str]:
    """The words of a message that ask something (with `bot`: also leaving out the words of a parent speaking
    of a child, and places, beside a board)."""
    words = [w for w in analysis.processed.split()
             if w not in FILLER and w not in ("what", "about", "and", "how") and w not in _BOARD_WORDS
             and w not in _AROUND_A_BOARD]
    if bot is None:
        return words
    words = [w for w in words if w not in bot.subjects.children]
    if len(words) > _PLACE_WORDS:  # more than a place's words left: something is asked
        return words
    return [w for w in words if bot.boards.find(w) is None]


# The words of a parent correcting what they said ("sorry, I meant monday", "je voulais dire lundi"), as the
# matcher prepares them.
_CORRECTING = frozenset({"meant", "mean", "sorry", "oops", "obviously", "actually", "voulais", "dire", "plutot",
                         "rather", "instead", "correction", "typo", "oups", "desole", "not", "no"})


def _corrects(analysis, bot: Bot) -> bool:
    """Whether the message only corrects the day or board of the last question."""
    words = _content(analysis, bot)
    return bool(words) and any(w in ("meant", "voulais", "instead", "rather", "plutot", "correction") for w in words) \
        and all(w in _CORRECTING for w in words)


def _follow_up(turn: Turn, kind: str) -> list[str]:
    """'more', 'why?' and 'is that confirmed?' about the last answer."""
    context, knowledge, now = turn.context, turn.knowledge, turn.msg.time
    if kind == "source" and context.cited:
        turn.analysis.intent = "help"  # nothing new is asked: the conversation stays where it was
        turn.full = True  # the source lines are the answer: kept whole
        return [context.cited]
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


def _board_given(bot: Bot, turn: Turn) -> list[str] | None:
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
        bot._remember(turn.msg, board=turn.board.id)
        texts.append(turn.voice.say("board_remembered", board=turn.board.name))
    return texts


# ------------------------------------------------------------------ intents
EVENING_HOUR = 18  # from this local hour, "is school open?" with no day asks about tomorrow


def on_school_status(bot: Bot | None, turn: Turn) -> list[str]:
    analysis = turn.analysis
    day = turn.day
    if day is None:
        day = turn.today
        if analysis.weekend and day.weekday() < 5:
            day += timedelta(days=5 - day.weekday())  # the coming Saturday
        elif turn.hour >= EVENING_HOUR:
            day += timedelta(days=1)  # "laval ouvert?" at 11 p.m.: the school day ahead, not the one that is over
        if not analysis.weekend and day.weekday() >= 5:
            day = answers.next_school_day(day)  # "peel strike?" on a Saturday: Monday, without "Sunday is no school"
    if turn.board is None:
        if commands.canonical(analysis.command) == "status" and analysis.argument and not analysis.date:
            return [turn.voice.say("unknown_board", name=repr(analysis.argument)) + " "
                    + replies.ask_board_text(turn.voice.language)]
        turn.context.await_board("school_status", turn.msg.time, turn.day, turn.analysis.weekend)
        return [answers.province_picture(turn.knowledge, day, turn.today, turn.msg.time, voice=turn.voice)]
    # /status is asked for the board's notice: given whole, as the split tests of the adapters expect.
    full = turn.full or commands.canonical(analysis.command) == "status"
    boards = boards_named(bot, turn)
    if len(boards) > 1:  # "one at hwdsb and one at hwcdsb": the first board's answer, then each other's day
        turn.board = boards[0]
        for board in boards:
            turn.context.keep_family_board(board.id, turn.remembered_board)
    text = answer_memo.school_status(turn.knowledge, turn.board, day, turn.today, turn.msg.time, full=full,
                                     voice=turn.voice)
    if boards:  # each board's day on a line of its own, together at the top
        lines = text.split("\n")
        lines[1:1] = [answer_memo.school_status(turn.knowledge, other, day, turn.today, turn.msg.time,
                                                voice=turn.voice).split("\n", 1)[0] for other in boards[1:]]
        text = "\n".join(dict.fromkeys(lines))  # a weekend is said once
    return [text]


SECOND_QUESTION_BAR = 0.5  # a day's status asked beside another question must score this


def _asks_a_day_too(turn: Turn) -> bool:
    """Whether a message answered on another topic also asks for a day's status ("is halton closing monday and
    also why exactly are they striking?"): a day named with a board, or with words that ask for a status."""
    analysis = turn.analysis
    return (analysis.date is not None and analysis.intent not in _BOARD_DAY_TOPICS and analysis.intent in HANDLERS
            and analysis.intent != "unknown" and not analysis.command
            and (turn.card is None or turn.card.topic not in _BOARD_DAY_TOPICS) and not turn.meta.get("choices")
            and (analysis.board is not None or analysis.scores.get("school_status", 0.0) >= SECOND_QUESTION_BAR))


def boards_named(bot: Bot | None, turn: Turn) -> list:
    """The boards the message itself names (not one remembered), when it names more than one."""
    if bot is None or turn.analysis.board is None or turn.analysis.command:
        return []
    found = bot.boards.find_all(normalize(turn.question, 500), turn.voice.language)
    knowledge = turn.knowledge
    return [b for b in (knowledge.board(m.board_id) for m in found) if b is not None] if len(found) > 1 else []


def _day_line(bot: Bot | None, turn: Turn) -> str:
    """The first line of the turn's status answer: its board's (or the province's) day, as one line."""
    return on_school_status(bot, turn)[0].split("\n", 1)[0]


def _facts(turn: Turn, topic: str, empty: str) -> list[str]:
    text = answer_memo.facts_answer(turn.knowledge, topic, turn.msg.time, turn.question, full=turn.full, voice=turn.voice,
                                board=turn.board)
    return [text or turn.voice.say(empty)]


def on_strike_dates(bot: Bot | None, turn: Turn) -> list[str]:
    text = (answer_memo.strike_dates(turn.knowledge, turn.msg.time, turn.question, full=turn.full, voice=turn.voice,
                                     day=turn.analysis.date.day if turn.analysis.date else None)
            or answer_memo.facts_answer(turn.knowledge, "strike_dates", turn.msg.time, turn.question, full=turn.full,
                                    voice=turn.voice))
    return [text or turn.voice.say("no_dates")]


def on_withdrawn_services(bot: Bot | None, turn: Turn) -> list[str]:
    text = answer_memo.withdrawn_services(turn.knowledge, turn.msg.time, turn.board, turn.question, full=turn.full,
                                      voice=turn.voice)
    return [text or turn.voice.say("no_services")]


def on_childcare(bot: Bot | None, turn: Turn) -> list[str]:
    texts = _facts(turn, "childcare", "no_childcare")
    if turn.board is not None:
        texts[0] = _with_childcare_line(turn, texts[0])
    return texts


def _childcare_board_line(turn: Turn) -> str:
    """Child care asked for a board: what the board said about the day, else where it posts its news."""
    day = answers.next_school_day(turn.day or turn.today)
    own, _ = turn.knowledge.status_for(turn.board.id, day, turn.msg.time)
    if own is None:
        return turn.voice.say("check_website", website=turn.board.website)
    lang = turn.voice.language
    return turn.voice.say("board_status", board=turn.board.display, when=describe_day(day, turn.today, lang),
                          status=answers.status_label(own, lang, turn.knowledge))


def _names(text: str, board) -> bool:
    folded = normalize(text)
    return normalize(board.name) in folded or normalize(board.display) in folded or board.website.split("//")[-1].removeprefix("www.") in folded


# "is there school monday and ...", "y a tu de l'ecole lundi": a clause asking about school before the day
_SCHOOL_FIRST = re.compile(r"(?:^|[.?!,;]\s*|\band\s+)(?:is|are|will|any|no|y a|ya|y'a|est ce qu|est-ce qu)\b[^.?!,;]{0,25}"
                           r"\b(?:school|schools|class|classes|ecole|ecoles|classe)\b")


def _with_childcare_line(turn: Turn, text: str) -> str:
    """An answer on child care, asked for a board: the board's line, before the source line (first when the
    message asks the day first: "is there school monday and what happens with the daycare?")."""
    date = turn.analysis.date
    if date is not None and _SCHOOL_FIRST.search(normalize(turn.question, 500)[: date.start]):
        return _childcare_board_line(turn) + "\n" + text  # not "need childcare for monday": a sitter is asked
    return _before_source(text, _childcare_board_line(turn))


def _before_source(text: str, line: str) -> str:
    lines = text.split("\n")
    at = len(lines) - 1 if len(lines) > 1 and lines[-1].startswith("Source") else len(lines)
    return "\n".join([*lines[:at], line, *lines[at:]])


def _with_updates_line(turn: Turn, text: str) -> str:
    """A general card on where to find news, asked for a board: the board's own website first."""
    return turn.voice.say("board_posts_updates", board=turn.board.display, website=turn.board.website) + "\n" + text


# Card topics whose general answer, asked for a board, gets a line of that board's own.
_BOARD_LINES = {"childcare": _with_childcare_line, "updates_source": _with_updates_line}


def on_negotiations(bot: Bot | None, turn: Turn) -> list[str]:
    return _facts(turn, "negotiations", "no_talks")


def on_who_is_affected(bot: Bot | None, turn: Turn) -> list[str]:
    text = answer_memo.facts_answer(turn.knowledge, "who_is_affected", turn.msg.time, turn.question, full=turn.full,
                                    voice=turn.voice, board=turn.board)
    return [text or answers.pack_who(turn.knowledge, turn.msg.time, turn.voice) or turn.voice.say("no_who")]


def on_dispute_issues(bot: Bot | None, turn: Turn) -> list[str]:
    return _facts(turn, "dispute_issues", "no_issues")


def on_work_to_rule(bot: Bot | None, turn: Turn) -> list[str]:
    return _facts(turn, "work_to_rule", "no_work_to_rule")


def on_updates_source(bot: Bot | None, turn: Turn) -> list[str]:
    return [answers.updates_source(turn.knowledge, turn.msg.time, turn.board, turn.question, full=turn.full,
                                   voice=turn.voice)]


def on_help(bot: Bot | None, turn: Turn) -> list[str]:
    text = timeliness.help_text(turn.knowledge, commands.help_text(turn.voice.language), turn.voice.language)
    if turn.remembered_board:
        board = turn.knowledge.board(turn.remembered_board)
        if board is not None:
            text += "\n\n" + turn.voice.say("your_board_is_short", board=board.name)
    return [text]


def _status_speaking_of(turn: Turn, keywords: tuple[str, ...]) -> str | None:
    """The board's status for the day, when the pack's word for it speaks of the topic ("buses are cancelled").

    Topics the intents leave out (buses) may be in a pack's statuses: its words answer, not "no information".
    """
    if turn.board is None:
        return None
    day = answers.next_school_day(turn.day or turn.today)
    own, general = turn.knowledge.status_for(turn.board.id, day, turn.msg.time)
    status = own or general
    if status is None:
        return None
    said = f" {' '.join(_WORDS.findall(normalize(turn.voice.text(status, 'summary'))))} "
    if not any(f" {' '.join(_WORDS.findall(normalize(k)))} " in said for k in keywords):
        return None
    return answer_memo.school_status(turn.knowledge, turn.board, day, turn.today, turn.msg.time, full=True,
                                 voice=turn.voice)


def on_unknown(bot: Bot | None, turn: Turn) -> list[str]:
    topic = turn.analysis.out_of_scope
    if topic is not None:
        status = _status_speaking_of(turn, topic.keywords)
        if status is not None:
            return [status]
        where = replies.fill_region(turn.voice.text(topic, "where"), turn.voice.language)
        if turn.board is not None:
            where += " (" + turn.voice.say("board_website", name=turn.board.name, website=turn.board.website) + ")"
        return [turn.voice.say("out_of_scope", topic=turn.voice.text(topic, "topic"), where=where)]
    if turn.analysis.command:
        return [turn.voice.say("unknown_command", command=turn.analysis.command)]
    return [replies.unknown_text(turn.voice.language)]


def last_look(turn: Turn, texts: list[str]) -> list[str]:
    """Instead of "not sure" (after the subjects had their say): the one text that speaks of the question's rare
    words ("did the union really vote 93%")."""
    if turn.analysis.intent != "unknown" or len(texts) != 1 or texts[0] != replies.unknown_text(turn.voice.language):
        return texts
    found = passages.instead_of_not_sure(turn.knowledge, turn.question, turn.msg.time, turn.voice,
                                         turn.analysis.processed)
    return _passage_reply(turn, found) or texts


HANDLERS = {
    "school_status": on_school_status,
    "strike_dates": on_strike_dates,
    "withdrawn_services": on_withdrawn_services,
    "childcare": on_childcare,
    "negotiations": on_negotiations,
    "who_is_affected": on_who_is_affected,
    "dispute_issues": on_dispute_issues,
    "work_to_rule": on_work_to_rule,
    "updates_source": on_updates_source,
    "help": on_help,
    "unknown": on_unknown,
    "set_board": on_set_board,
    "subscribe": on_subscribe,
    "unsubscribe": on_unsubscribe,
}
