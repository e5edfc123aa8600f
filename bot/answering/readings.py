"""Second readings of a message the matcher placed, before it is answered.

A short message the matcher could not place that names a day is a status question in a hurry ("just saw news,
strike monday?? brampton"), and so is one naming two boards and a day ("one at hwdsb and one at hwcdsb, anything
about monday?"). A question about what someone else will do is not a request to the bot: "will the
school tell me if something changes?" and "when do they decide" are answered, not taken as /subscribe; "keep me
posted" and "can you let me know if it changes" are requests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from bot.asked import WEAK, words_of
from bot.dates.vocabulary import vocabulary
from bot.matcher import FILLER
from bot.answering.kinds import card_asks
from bot.answering.on_subject import asked_of_the_story, asked_part
from bot.text import named, normalize
from bot.timeline_answers import phase_named

if TYPE_CHECKING:
    from bot.analysis import Analysis
    from bot.cards import Match
    from bot.subjects import Subjects
    from bot.turn import Turn

_OFF_TOPIC_MARGIN = 0.05
_SEARCH_WORDS = 6  # a search-box message: a board and the dispute in this many words or fewer
_HURRIED_WORDS = 16  # a message naming a day, not understood, this short: a status question in a hurry

# How a question starts, in the matcher's prepared words (French and slang already read as these).
_QUESTION_STARTS = frozenset({"will", "would", "does", "do", "did", "is", "are", "when", "how", "what", "why", "has",
                              "have", "who", "where", "should", "shall"})
_LEADING = frozenset({"and", "but", "so", "ok", "the", "then", "also"})
# Words of the bot or the parent acting: "can you let me know", "how do I sign up", not "will the school tell me".
_YOU_OR_I = frozenset({"you", "u", "ya", "i", "we", "im"})


def help_about_the_dispute(turn: Turn, subjects: Subjects) -> str | None:
    """The intent a message read as asking for help means when it names the dispute or one of its groups ("allo c
    quoi l'histoire de grève dans les écoles?" asks what the strike is about, "teachers also?" whether teachers
    take part, not what the bot does): the next best, if any."""
    analysis = turn.analysis
    if analysis.intent != "help" or analysis.command:
        return None
    words = set(analysis.processed.split())
    if not (words & _DISPUTE_WORDS or subjects.find(turn.question)) or words & _TO_THE_BOT:
        return None  # "what can this bot tell me about the strike": the bot's help
    ranked = sorted(((score, intent) for intent, score in analysis.scores.items()
                     if intent not in ("help", "unknown", "set_board", "subscribe", "unsubscribe")), reverse=True)
    return ranked[0][1] if ranked else None


# The dispute's own words, in the matcher's prepared words (French and slang read as these).
_DISPUTE_WORDS = frozenset({"strike", "strikes", "striking", "union", "walkout", "lockout"})
_DISPUTE_KEY = "dispute stems"
_STRIKE_WORDS = frozenset({"strike", "strikes", "striking", "walkout", "walk"})
_PHASE_FILLER = frozenset({"work", "du"})  # words of phase names that words_of leaves out ("work to rule")
_TO_THE_BOT = frozenset({"you", "u", "bot", "help", "command", "commands", "tu", "vous", "aide"})


def advice_on_a_day(turn: Turn) -> bool:
    """Whether a message read as a request for help, or to stop the updates, names a day: "ok but what do u
    think, should i take monday off" and "friday cancelled too?" ask what that day holds."""
    analysis = turn.analysis
    return analysis.intent in ("help", "unsubscribe") and analysis.date is not None and not analysis.command


def hurried_status(turn: Turn) -> bool:
    """Whether a message the matcher could not place (not one it read as off-topic) names a day in a few words:
    it asks for that day's status ("just saw news, strike monday?? brampton"); a long one may ask anything."""
    analysis = turn.analysis
    return (analysis.intent == "unknown" and analysis.abstained and turn.card is None and not turn.meta.get("choices")
            and analysis.out_of_scope is None and not analysis.command and analysis.date is not None
            and len(turn.question.split()) <= _HURRIED_WORDS
            # the off-topic examples nearly as close as the best intent: "whats for lunch in the cafeteria today"
            and analysis.scores.get("unknown", 0.0) < max(analysis.scores.values(), default=0.0) - _OFF_TOPIC_MARGIN)


def a_board_and_the_dispute(turn: Turn) -> bool:
    """Whether a message names a board and nothing but the dispute, as typed into a search box: "hamilton schools
    cupe strike", "viamonde grève scfp" want that board's day."""
    analysis = turn.analysis
    if analysis.board is None or analysis.command or turn.card is not None and turn.card.boards \
            or analysis.intent in ("set_board", "subscribe", "unsubscribe"):
        return False
    words = analysis.processed.split()
    if not words or len(words) > _SEARCH_WORDS:
        return False
    dispute = _dispute_stems(turn.knowledge)
    others = [w for w in words if w not in FILLER and w not in _DISPUTE_WORDS and w not in _PHASE_FILLER
              and (not words_of(w) or not words_of(w) <= dispute)]  # "why" is a question of its own
    return not others and bool(words_of(analysis.processed) & dispute)


def _dispute_stems(knowledge) -> frozenset[str]:
    """The dispute's own words, cut as words_of cuts them: the union's, the strike's and the active packs'
    phase names ("peel work to rule"); once per knowledge snapshot."""
    found = knowledge.derived.get(_DISPUTE_KEY)
    if found is None:
        found = knowledge.derived[_DISPUTE_KEY] = WEAK | {
            stem for info in knowledge.packs.values() for phase in info.phases
            for stem in words_of(phase.words("en") + " " + phase.words("fr"))}
    return found


def when_a_strike(turn: Turn, asks_who: Callable[[], object]) -> bool:
    """Whether a question read as asking who takes part asks when they strike: "will school support workers
    strike in september", "cupe strike ontario schools sept 23?", "grève scfp écoles lundi" (a day or a month
    with the strike named, and no "who" nor a group of its own: "are teachers on strike monday" asks who)."""
    analysis = turn.analysis
    if analysis.intent != "who_is_affected" or analysis.command or (turn.card is not None and turn.card.boards):
        return False
    words = set(analysis.processed.split())
    return bool(words & _STRIKE_WORDS) and (analysis.date is not None or bool(words & vocabulary().month_words.keys())) and not asks_who()


def a_board_asked(turn: Turn) -> bool:
    """Whether a message that only names a board asks about it: "Laval?", "peel??" want its day (the day the
    conversation is about, after "full strike monday??"), not a setting."""
    analysis = turn.analysis
    if not (analysis.intent == "set_board" and analysis.board is not None and not analysis.command
            and turn.question.rstrip().endswith("?")):
        return False
    if turn.day is None and turn.context.fresh(turn.msg.time):
        turn.day = turn.context.the_day()
    return True


REQUEST_BAR = 0.45  # a request the bot acts on (subscribing) must be read at least this surely


def not_a_request(turn: Turn) -> bool:
    """Whether a message read as a request for updates is not one: read unsurely ("le cepeo a tu dit quelque
    chose"), or a question about what others will do: it starts as a question and does not speak to the bot
    ("will the school tell me...?", "when do they decide")."""
    analysis = turn.analysis
    if analysis.intent != "subscribe" or analysis.command:
        return False
    if analysis.confidence < REQUEST_BAR:
        return True
    words = analysis.processed.split()
    while words and words[0] in _LEADING:
        words = words[1:]
    return bool(words) and words[0] in _QUESTION_STARTS and _YOU_OR_I.isdisjoint(words)


def read_as_a_question(turn: Turn, min_confidence: float, time_asked: bool) -> None:
    """A request ruled out read as a question: where updates come from, unless it asks when ("when do they
    decide") or that reading is unsure; else its next best intent (or not understood, when none is sure)."""
    analysis = turn.analysis
    ranked = sorted(((score, intent) for intent, score in analysis.scores.items() if intent != analysis.intent),
                    reverse=True)
    updates = analysis.scores.get("updates_source", 0.0)
    if not time_asked and updates >= min_confidence:
        ranked.insert(0, (updates, "updates_source"))
    if ranked and ranked[0][0] >= min_confidence:
        analysis.intent, analysis.confidence = ranked[0][1], round(ranked[0][0], 3)
    else:
        analysis.intent, analysis.abstained = "unknown", True


_DAY_ANSWERS = frozenset({"school_status", "childcare"})


def a_strike_at_a_board_on_a_day(turn: Turn) -> bool:
    """Whether a question on the dates or on who takes part names a board and a day: it asks that board's day
    ("is there a strike tomorrow or not york region vaughan", "will tdsb schools be closed friday if the EAs and
    custodians walk out")."""
    analysis = turn.analysis
    return (analysis.intent in ("strike_dates", "who_is_affected") and analysis.board is not None
            and analysis.date is not None and turn.card is None and not analysis.command)


def several_boards_on_a_day(turn: Turn, boards_named: Callable[[], int]) -> bool:
    """Whether a message naming several boards and a day asks for their day, whatever else it says ("just saw
    cupe gave strike notice. my oldest is at peel and my youngest at dufferin peel. are they closing monday??")."""
    analysis = turn.analysis
    return (analysis.date is not None and analysis.board is not None and analysis.intent not in _DAY_ANSWERS
            and not analysis.command and analysis.out_of_scope is None and boards_named() > 1)


def a_phase_s_start(turn: Turn, asks_start: Callable[[], bool], phase: Callable[[], str | None]) -> bool:
    """Whether a question on what a phase is asks when it starts or whether it still runs: "la grève du zèle a
    commencé?", "so work to rule starts tmrw right", "is the work to rule over too" (its dates, not its meaning)."""
    analysis = turn.analysis
    return (analysis.intent == "work_to_rule" and (turn.card is None or turn.card.topic == "work_to_rule")
            and asks_start() and phase() is not None)  # a card on what it means does not say


# "work to rule starts when exactly", "is the work to rule over too": when a phase runs, not what it means
_WHEN_KINDS = ("start", "time", "ongoing")


def read_again(turn: Turn, text: str, subjects: Subjects, boards_named: Callable[[], int]) -> None:
    """After the card search: the intent a message means when the matcher's reading misses it (each reading above,
    in order; the first that holds sets the intent, and drops a card or a choice that answered the other one)."""
    analysis = turn.analysis
    # "will ea be at school today with the work to rule?" asks whether someone is there, not when the phase starts
    if subjects.asks(text) != "presence" and a_phase_s_start(
            turn, lambda: _asks_when(subjects, text), lambda: phase_named(turn.knowledge, text, turn.voice.language)):
        analysis.intent, turn.card = "strike_dates", None  # "la grève du zèle a commencé?"
    elif when_a_strike(turn, lambda: subjects.asks_for("roster", text) or subjects.find(text)):
        analysis.intent, turn.card = "strike_dates", None  # "will school support workers strike in september"
    if hurried_status(turn) or a_strike_at_a_board_on_a_day(turn) or advice_on_a_day(turn) or a_board_asked(turn):
        analysis.intent = "school_status"  # "durham schools monday?? no one is telling us anything"
    elif a_board_and_the_dispute(turn) or several_boards_on_a_day(turn, boards_named):
        analysis.intent, turn.card = "school_status", None  # "hamilton schools cupe strike", "hwdsb and hwcdsb: monday?"
        turn.meta.pop("choices", None)


def _asks_when(subjects: Subjects, text: str) -> bool:
    """Whether a question asks when something starts or whether it still runs, not what it is."""
    asked = text.replace("quand même", "").replace("quand meme", "")  # "anyway", not "when"
    return any(subjects.asks_for(kind, asked) for kind in _WHEN_KINDS) and not subjects.asks_for("definition", asked)


_KINDS_ASKED = ("time", "roster")  # what a question can ask for that a card's own question says it answers
KIND_CLOSE = 0.06  # a card this close to the best, asked for what the question asks, takes its place


def asked_the_same_way(matches: list[Match], question: str, subjects: Subjects) -> list[Match]:
    """The cards found, where the best does not answer what kind of thing is asked and one just behind it does
    ("what day are the talks": "When do talks resume?" before "Who is at the table?"): the two swap places and
    scores, so that the bars read them as found the other way round."""
    if len(matches) < 2:
        return matches
    kinds = [kind for kind in _KINDS_ASKED if subjects.asks_for(kind, question)]
    if len(kinds) != 1:
        return matches
    best = matches[0]
    if card_asks(subjects, kinds[0], best.card):
        return matches
    for place, match in enumerate(matches[1:3], start=1):
        if best.score - match.score > KIND_CLOSE:
            break
        if card_asks(subjects, kinds[0], match.card):
            swapped = list(matches)
            swapped[0], swapped[place] = match._replace(score=best.score), best._replace(score=match.score)
            return swapped
    return matches


def the_question_asked(text: str, analysis: Analysis, subjects: Subjects,
                       analyse: Callable[[str], Analysis]) -> tuple[Analysis, str]:
    """The message read from its question sentences alone, when what came before would mislead (`analyse` reads a
    text), and the question to answer when it is not the message's text ("" when it is): a topic the intents leave
    out named only in the story ("my daughter has diabetes. is her EA still there this week?"), or a group named
    in the story and asked about with a pronoun ("his EA is the only reason he gets through the day. is she still
    going to be in class?" is read and answered as "is ea still going to be in class?"). The board and the day
    the whole message names are kept."""
    asking = asked_part(text)
    if asking == text:
        return analysis, ""
    plain = asked_of_the_story(text, subjects, asking)
    pronoun = plain != normalize(asking, 500)
    if analysis.out_of_scope is None:
        # the whole message as the matcher read it; a group read into a pronoun is what the answer must speak of
        return analysis, plain if pronoun else ""
    if not subjects.find(plain) or named(plain, analysis.out_of_scope.keywords):
        return analysis, ""
    again = analyse(plain)
    again.board = again.board or analysis.board
    again.date = again.date or analysis.date
    again.weekend = again.weekend or analysis.weekend
    return again, plain if pronoun else ""
