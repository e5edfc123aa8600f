"""Answering one understood question, per intent.

Each ``on_<intent>`` takes the bot (a :class:`bot.session.Session`) and the :class:`bot.turn.Turn` and returns
the reply texts; :data:`HANDLERS` maps the intents to them. The short turns that
only make sense after an earlier one ("2", "peel" after "which board?", "thanks",
"more", "why?", "what about tuesday?", "and tcdsb?") are read in :mod:`bot.answering.following`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot import answer_memo, answers, commands, replies, timeliness, timeline_answers
from bot.answering import card_choice, days_asked, kinds, passages, social_turns
from bot.answering.chat_settings import on_set_board, on_subscribe, on_unsubscribe
from bot.dates import describe_day
from bot.text import normalize

_WORDS = re.compile(r"[a-z0-9]+")

if TYPE_CHECKING:
    from bot.session import Session
    from bot.turn import Turn

# Topics whose answer depends on the board and the day: "and tcdsb?" / "what about tuesday?" re-ask them.
BOARD_DAY_TOPICS = frozenset({"school_status", "childcare"})
# Topics a day can be asked about: "and the daycare?", "and will the custodians clean?" keep the day continued;
# "and are they still negotiating?", "and how long will it last?" name none.
DAY_TOPICS = BOARD_DAY_TOPICS | {"withdrawn_services", "updates_source"}
# Topics after which "and tcdsb?" asks the same again for TCDSB: answers that differ by board, and dates ("when
# does the strike start?" then "pis à North Bay?"). After the others (who takes part, why) it asks that board's day.
ASKED_AGAIN_TOPICS = DAY_TOPICS | {"strike_dates"}


def answer(bot: Session, turn: Turn) -> list[str]:
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
        named = boards_named(bot, turn) if analysis.intent == "set_board" and not analysis.command else []
        if len(named) > 1 and analysis.board is not None and named[0].id == analysis.board.board_id:  # not "from a to b"
            analysis.intent = "school_status"  # "un au CEPEO pis l'autre à l'OCDSB": each board's day, both kept
        texts = HANDLERS[analysis.intent](bot, turn)
        if analysis.intent in _FROM_FACTS and (analysis.abstained or analysis.confidence < card_choice.SURE) and texts:
            texts = _on_the_words(turn, texts)
        if analysis.intent in _NOTHING_YET and texts == [turn.voice.say(_NOTHING_YET[analysis.intent])]:
            # not a card asked for another kind of answer: "why do they want to strike?" is no strike date
            matches = [m for m in turn.meta.get("matches") or []
                       if bot is None or not kinds.asked_otherwise(m.card, turn.question, bot.subjects)]
            card = card_choice.instead_of_nothing(matches)
            if card is not None:  # "any deal today?" before any fact on the talks: the nearest card's answer
                turn.card = card
                texts = [answer_memo.card_answer(turn.knowledge, card, turn.msg.time, full=turn.full,
                                                 voice=turn.voice, question=turn.question)]
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
        phase = timeline_answers.phase_not_announced_line(turn.knowledge, turn.question, turn.msg.time, turn.voice)
        if phase is not None:
            first, _, rest = texts[0].partition("\n")
            texts[0] = f"{first}\n{phase}" + (f"\n{rest}" if rest else "")
    topic = analysis.out_of_scope
    answered = turn.card is not None and card_choice.names_any(turn.card, topic.keywords) if topic else False
    if topic is not None and analysis.intent != "unknown" and texts and not answered:  # a mixed question
        texts[-1] += "\n" + turn.voice.say("mixed_out_of_scope", topic=turn.voice.text(topic, "topic"),
                                           where=replies.fill_region(turn.voice.text(topic, "where"),
                                                                     turn.voice.language))
    return texts


# Intents whose answer can be "nothing on that yet", and the wording key that says so.
_NOTHING_YET = {"strike_dates": "no_dates", "withdrawn_services": "no_services", "childcare": "no_childcare",
                "negotiations": "no_talks", "who_is_affected": "no_who", "dispute_issues": "no_issues",
                "work_to_rule": "no_work_to_rule"}


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


def on_school_status(bot: Session | None, turn: Turn) -> list[str]:
    analysis = turn.analysis
    day = days_asked.status_day(turn)
    later = days_asked.later_day(turn, day)  # "pearson tomorrow? and friday??": that day's line too, second
    if turn.board is None:
        if commands.canonical(analysis.command) == "status" and analysis.argument and not analysis.date:
            return [turn.voice.say("unknown_board", name=repr(analysis.argument)) + " "
                    + replies.ask_board_text(turn.voice.language)]
        turn.context.await_board("school_status", turn.msg.time, turn.day, turn.analysis.weekend)
        text = answers.province_picture(turn.knowledge, day, turn.today, turn.msg.time, voice=turn.voice)
        if later is not None:
            text = _with_lines(text, [answers.province_picture(turn.knowledge, later, turn.today, turn.msg.time,
                                                               voice=turn.voice).split("\n", 1)[0]])
        return [text]
    # /status is asked for the board's notice: given whole, as the split tests of the adapters expect.
    full = turn.full or commands.canonical(analysis.command) == "status"
    boards = boards_named(bot, turn)
    if len(boards) > 1:  # "one at hwdsb and one at hwcdsb": the first board's answer, then each other's day
        turn.board = boards[0]
        for board in boards:
            turn.context.keep_family_board(board.id, turn.remembered_board)
    text = answer_memo.school_status(turn.knowledge, turn.board, day, turn.today, turn.msg.time, full=full,
                                     voice=turn.voice)
    boards = boards or _with_the_english_board(bot, turn)  # "fermé lundi à Toronto?": Viamonde's day, then TDSB's
    if boards:  # each board's day on a line of its own, together at the top
        text = _with_lines(text, [answer_memo.school_status(turn.knowledge, other, day, turn.today, turn.msg.time,
                                                            voice=turn.voice).split("\n", 1)[0] for other in boards[1:]])
    if later is not None:
        text = _with_lines(text, [answer_memo.school_status(turn.knowledge, turn.board, later, turn.today,
                                                            turn.msg.time, voice=turn.voice).split("\n", 1)[0]])
    return [text]


def _with_lines(text: str, added: list[str]) -> str:
    """The answer with other boards' or days' lines after its first line, each line once (a weekend said once)."""
    lines = text.split("\n")
    return "\n".join(dict.fromkeys([lines[0], *added, *lines[1:]]))


SECOND_QUESTION_BAR = 0.5  # a day's status asked beside another question must score this


def _asks_a_day_too(turn: Turn) -> bool:
    """Whether a message answered on another topic also asks for a day's status ("is halton closing monday and
    also why exactly are they striking?"): a day named with a board, or with words that ask for a status."""
    analysis, topic = turn.analysis, (turn.card.topic if turn.card is not None else turn.analysis.intent)
    if topic == "childcare" and turn.board is None and analysis.date is not None and not turn.meta.get("choices"):
        # "is school open tomorrow and is the after school daycare still running?": no board's line says the day
        return _SCHOOL_FIRST.search(normalize(turn.question, 500)[: analysis.date.start]) is not None
    return (analysis.date is not None and analysis.intent not in BOARD_DAY_TOPICS and analysis.intent in HANDLERS
            and analysis.intent != "unknown" and not analysis.command and topic not in BOARD_DAY_TOPICS
            and not turn.meta.get("choices")
            and (analysis.board is not None or analysis.scores.get("school_status", 0.0) >= SECOND_QUESTION_BAR))


def _with_the_english_board(bot: Session | None, turn: Turn) -> list:
    """A French message naming only a place ("à Toronto", "le conseil catholique de Toronto") is answered for the
    French board there (docs/knowledge-format.md) and, on a line after it, for the English board of the same kind."""
    mention = turn.analysis.board
    if bot is None or mention is None or mention.how != "place" or turn.voice.language != "fr" or turn.board is None \
            or turn.board.id != mention.board_id or turn.board.language != "french" \
            or turn.knowledge.region.language == "fr":  # where French is the region's own language, its board alone
        return []
    found = bot.boards.find(normalize(turn.question, 500), "en")  # the place read as an English message reads it
    english = turn.knowledge.board(found.board_id) if found is not None else None
    return [turn.board, english] if english is not None and english.id != turn.board.id else []


def boards_named(bot: Session | None, turn: Turn) -> list:
    """The boards the message itself names (not one remembered), when it names more than one."""
    if bot is None or turn.analysis.board is None or turn.analysis.command:
        return []
    found = bot.boards.find_all(normalize(turn.question, 500), turn.voice.language)
    knowledge = turn.knowledge
    return [b for b in (knowledge.board(m.board_id) for m in found) if b is not None] if len(found) > 1 else []


def _day_line(bot: Session | None, turn: Turn) -> str:
    """The first line of the turn's status answer: its board's (or the province's) day, as one line."""
    return on_school_status(bot, turn)[0].split("\n", 1)[0]


def _facts(turn: Turn, topic: str, empty: str) -> list[str]:
    text = answer_memo.facts_answer(turn.knowledge, topic, turn.msg.time, turn.question, full=turn.full, voice=turn.voice,
                                board=turn.board)
    return [text or turn.voice.say(empty)]


def on_strike_dates(bot: Session | None, turn: Turn) -> list[str]:
    text = (answer_memo.strike_dates(turn.knowledge, turn.msg.time, turn.question, full=turn.full, voice=turn.voice,
                                     day=turn.analysis.date.day if turn.analysis.date else None)
            or answer_memo.facts_answer(turn.knowledge, "strike_dates", turn.msg.time, turn.question, full=turn.full,
                                    voice=turn.voice))
    return [text or turn.voice.say("no_dates")]


def on_withdrawn_services(bot: Session | None, turn: Turn) -> list[str]:
    text = answer_memo.withdrawn_services(turn.knowledge, turn.msg.time, turn.board, turn.question, full=turn.full,
                                      voice=turn.voice)
    return [text or turn.voice.say("no_services")]


def on_childcare(bot: Session | None, turn: Turn) -> list[str]:
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
_SCHOOL_FIRST = re.compile(r"(?:^|[.?!,;]\s*|\band\s+)(?:is|are|will|any|no|y a|ya|y'a|est ce que?|est-ce que?)\b[^.?!,;]{0,25}"
                           r"\b(?:school|schools|class|classes|ecole|ecoles|classe)\b")


def _with_childcare_line(turn: Turn, text: str) -> str:
    """An answer on child care, asked for a board: the board's line, before the source line (first when the
    message asks the day first: "is there school monday and what happens with the daycare?")."""
    date = turn.analysis.date
    if date is not None and _SCHOOL_FIRST.search(normalize(turn.question, 500)[: date.start]):
        return _day_line(None, turn) + "\n" + text  # not "need childcare for monday": a sitter is asked
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


def on_negotiations(bot: Session | None, turn: Turn) -> list[str]:
    texts = _facts(turn, "negotiations", "no_talks")
    no_deal = timeline_answers.no_deal_yet(turn.knowledge, turn.question, turn.msg.time, turn.voice)
    if no_deal is not None and texts and not texts[0].startswith(("No", "Non", "Pas")):
        texts[0] = f"{no_deal} {texts[0]}"  # "did the school support staff sign a deal yet?": no, then the latest
    return texts


def on_who_is_affected(bot: Session | None, turn: Turn) -> list[str]:
    text = answer_memo.facts_answer(turn.knowledge, "who_is_affected", turn.msg.time, turn.question, full=turn.full,
                                    voice=turn.voice, board=turn.board)
    return [text or answers.pack_who(turn.knowledge, turn.msg.time, turn.voice) or turn.voice.say("no_who")]


def on_dispute_issues(bot: Session | None, turn: Turn) -> list[str]:
    return _facts(turn, "dispute_issues", "no_issues")


def on_work_to_rule(bot: Session | None, turn: Turn) -> list[str]:
    return _facts(turn, "work_to_rule", "no_work_to_rule")


def on_updates_source(bot: Session | None, turn: Turn) -> list[str]:
    return [answers.updates_source(turn.knowledge, turn.msg.time, turn.board, turn.question, full=turn.full,
                                   voice=turn.voice)]


def on_help(bot: Session | None, turn: Turn) -> list[str]:
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


def on_unknown(bot: Session | None, turn: Turn) -> list[str]:
    topic = turn.analysis.out_of_scope
    if topic is not None:  # the board's status, else a text of the pack, speaking of it; else where to look
        said = _status_speaking_of(turn, topic.keywords) or _passage_reply(turn, passages.naming(
            turn.knowledge, turn.question, turn.msg.time, turn.voice, turn.analysis.processed, topic.keywords))
        if said is not None:
            return said if isinstance(said, list) else [said]
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
    reply = _passage_reply(turn, found)
    if reply is None and turn.context.topic and social_turns.exclamation(normalize(turn.msg.text or "", 200)):
        turn.analysis.intent = "help"  # "ouache", "lol this province" after an answer: one short line
        return [replies.acknowledged(turn.voice.language)]
    if reply is None and turn.analysis.board is not None and turn.board is not None \
            and turn.analysis.out_of_scope is None and not passages.names_something(turn.analysis.processed):
        turn.analysis.intent = "school_status"  # "MonAvenir ils ont dit quoi?": what the board said of its day
        return on_school_status(None, turn)
    return reply or texts


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
