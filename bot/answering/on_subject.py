"""Keeping a reply on the question: an answer that never names what was asked about is not sent.

"are custodians still working?" asks about custodians (config/subjects.yaml). If the answer found
speaks of the union's roster or its funding and never of custodians, it answers another question.
Then, in order: an answer card that does speak of the subject (one asking the same way, "will they be
there?" or "are they on strike?", first); else the withdrawn services of that group; else one honest
line: the reports say nothing of it, and who to ask.

A "Yes"/"No" opener is kept only when the card asks the way the parent did: "No" to "are teachers on
strike?" is "yes" to "will the teacher be there?".
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot import answer_memo
from bot.answering.kinds import asked_otherwise
from bot.answers import cite
from bot.asked import words_of
from bot.conversation import continues
from bot.replies import sentences, shape
from bot.subjects import Subject, Subjects
from bot.text import normalize
from knowledge.model import FACT_TOPICS

if TYPE_CHECKING:
    from bot.session import Session
    from bot.turn import Turn

CARD_WORDS = 2  # a card whose question shares this many telling words with the parent's answers it, subject or not
OWN_GROUPS = 2  # a dispute whose `who:` names this many groups or fewer is about them as a whole
LEAD_CHARS = 220  # the part of a reply that must name the subject: what a phone shows, and a little more
ROSTER_DISTANCE = 30  # another subject this close to every mention of the asked one: a list of groups
# A card about the subject answers from this score: the card search reads the whole question, so a short
# "what about the EAs?" scores the EA cards low, yet any card about EAs beats an answer about something else.
SUBJECT_BAR = 0.02
# Intents whose answer is not about a subject: the parent's settings, greetings, help.
_NOT_ABOUT_SUBJECTS = frozenset({"set_board", "subscribe", "unsubscribe", "help"})
# Answers that say why or how the dispute goes, not what a group does: they share a word with what the question
# says of the subject ("are EAs getting laid off" and layoffs), not with the rest ("sick" in "will the office
# answer if i call in that my son is sick" and "sick leave is the other big issue").
_NOT_DUTIES = frozenset({"dispute_issues", "negotiations"})
_WHEN_INTENTS = frozenset({"strike_dates", "negotiations", "school_status"})  # answers that are dates
_PUNCTUATED_OPENER = re.compile(r"^(?:yes|no|oui|non)\s*[:,.!]", re.IGNORECASE)  # "No:", not "No new strike day"
_OPENER = re.compile(r"^(?:yes|no|oui|non)\b\s*[:,.!]?\s*", re.IGNORECASE)


def keep_on_subject(bot: Session, turn: Turn, texts: list[str]) -> list[str]:
    """The reply texts, made to speak of the subject asked about (see the module's docstring)."""
    analysis = turn.analysis
    if not texts or analysis.command or analysis.intent in _NOT_ABOUT_SUBJECTS:
        return texts
    subjects: Subjects = bot.subjects
    asked = subjects.find(asked_of_the_story(turn.question, subjects))
    if not asked:
        return texts
    if _the_dispute_s_own_group(subjects, turn, asked):
        return texts  # a teachers' strike: every answer is about teachers, named or not
    if turn.meta.get("choices"):
        offered = [turn.knowledge.card_by_id[c] for c in turn.meta["choices"] if c in turn.knowledge.card_by_id]
        about = [c for c in offered if _card_about(subjects, turn, c, asked)]
        if len(about) > 1:
            return texts  # both cards speak of it: the parent chooses
        _drop_choice(turn)
        if about:  # "are teachers striking too or just support staff": the teachers card, not the roster
            return _answer_with(turn, about[0])
        # "will the school call me if they close": neither status card speaks of calls; answered below
    asks = subjects.asks(turn.question)
    if analysis.intent == "school_status" and turn.card is None:
        if _what_opens_or_closes(subjects, turn.question, asked):  # "is the school library closed?": the library
            return _said_of(bot, turn, asked[:1], asks) or [_not_said(turn, asked[0])]
        if asks is None:
            return texts  # "is school open monday? my son has an EA": the day's status is what is asked
    if analysis.intent == "unknown" and not analysis.abstained and turn.card is None:
        # read as off-topic ("how do I apply for a custodian job"): not a question about the group; but "what
        # about the EAs, my son has an IEP" asks about a group of the dispute first, and "can i send cash for
        # the bake sale" about a duty the workers stopped (collecting money)
        in_dispute = _in_the_dispute(subjects, turn, asked[:1])
        if analysis.out_of_scope is None or (in_dispute and not continues(normalize(turn.question))):
            return texts
        if not in_dispute:  # a duty: its withdrawn services, unless the answer found already speaks of it
            spoken = any(subjects.mentions(texts[0][:LEAD_CHARS], s) for s in asked[:1])
            services = None if spoken else _services_of(bot, turn, asked[:1])
            return [services] if services is not None else texts
    asked = asked[:1]  # the first group or service named is what is asked about ("tell us ... if she won't have her EA")
    lead = texts[0][:LEAD_CHARS]
    if analysis.intent in _WHEN_INTENTS and subjects.asks_for("time", turn.question):
        return texts  # "when are the EAs going back to work": a date answers, whichever group is named
    if analysis.intent == "work_to_rule" and subjects.asks_for("definition", turn.question):
        return texts  # "what does work to rule mean for teachers": what it means answers
    if analysis.intent == "dispute_issues" and subjects.asks_for("reason", turn.question) \
            and _STRIKING.search(normalize(turn.question)):
        # "why do chicago teachers want to strike?": the dispute's reasons (or that none are known yet); not "why
        # are EAs even in this", which asks about the group
        return texts
    if asks == "participation" and _in_the_dispute(subjects, turn, asked) and any(
            subjects.mentions(lead, s) for s in asked):
        # "are the custodians part of this too": the list of the dispute's groups answers, unless a card about
        # the group does ("is my son's EA going to be affected": the EAs card)
        if not subjects.asks_for("roster", turn.question) and not _about(subjects, lead, asked):
            better = _card_on(bot, turn, asked, asks, same_way=True)
            if better is not None:
                return better
        return texts
    if turn.card is not None and _shared(subjects, turn.question, turn.card.question, asked) >= CARD_WORDS:
        return texts  # "wtf is the notwithstanding clause and why is ford using it on EAs": the clause's card
    said = turn.question
    if analysis.intent in _NOT_DUTIES:  # what the question says of the subject: its words around it
        said = subjects.around(turn.question, asked, NEAR_WORDS) or turn.question
    if _shares_a_word(subjects, said, lead, asked):
        return texts  # "are the custodians still cutting the grass": the duty asked about answers
    if (subjects.asks_for("duties", turn.question) or analysis.intent == "withdrawn_services") and not (
            analysis.intent == "withdrawn_services" and _about(subjects, lead, asked)):
        services = _services_of(bot, turn, asked)  # "et les concierges, ils font quoi?": what they stopped
        if services is not None:
            return [services]
    if _about(subjects, lead, asked) or (subjects.asks_for("roster", turn.question)
                                         and any(subjects.mentions(lead, s) for s in asked)):
        if turn.card is not None and asks is not None and _asks_otherwise(subjects, turn, asks):
            better = _card_on(bot, turn, asked, asks, same_way=True)
            if better is not None:
                return better
            return [_without_opener(texts[0]), *texts[1:]]
        return _with_what_they_stopped(bot, turn, texts, asked) if asks != "participation" else texts
    said = _said_of(bot, turn, asked, asks)
    if said is not None:
        return said
    if _in_the_dispute(subjects, turn, asked):
        return texts  # a group the dispute names: the answer about the dispute's workers holds for it
    return [_not_said(turn, asked[0])]


_STRIKING = re.compile(r"\b(?:strike|strikes|striking|walk ?out|walking out|greve|job action|work to rule)\b")


def _said_of(bot: Session, turn: Turn, asked: tuple[Subject, ...], asks: str | None) -> list[str] | None:
    """What the knowledge says of the subject: a card about it, else its stopped services, else a fact naming
    it; None when nothing speaks of it."""
    better = _card_on(bot, turn, asked, asks, same_way=False)
    if better is not None:
        return better
    services = _services_of(bot, turn, asked)
    if services is not None:
        return [services]
    fact = _fact_on(bot.subjects, turn, asked)
    return [fact] if fact is not None else None


_SENTENCE = re.compile(r"[^.?!]*[.?!]+|[^.?!]+$")
_OPEN_OR_CLOSED = re.compile(r"\b(?:open|opened|closed|close|closing|closes|shut|cancell?ed|running|ouvert|ouverte|"
                             r"ouverts|fermee?s?|ferme|fermer)\b")


_NEAR_STATUS = 4  # the subject's words end at most this many words before "closed" (its own words included)
_SCHOOL_WORDS = frozenset({"school", "schools", "ecole", "ecoles"})


def _what_opens_or_closes(subjects: Subjects, question: str, asked: tuple[Subject, ...]) -> bool:
    """Whether the subject asked about is what would open or close: "is the school library closed?", "and the
    library closing?" ask about the library, not the school's day."""
    text = normalize(asked_part(question))
    for found in _OPEN_OR_CLOSED.finditer(text):
        before = text[: found.start()].split()
        # the subject right before it ("the school library closed", "library be open"), with no "school" between
        for count in range(1, _NEAR_STATUS + 1):
            words = before[-count:]
            if not _SCHOOL_WORDS.intersection(words) and subjects.mentions(" ".join(words), asked[0]):
                return True
    return False


def asked_part(question: str) -> str:
    """The sentences of a message that ask (end with "?"), or all of it when none does: "Is the strike over
    yet? my kids miss their clubs" asks about the strike, not the clubs."""
    asking = [s for s in _SENTENCE.findall(question) if s.rstrip().endswith("?")]
    return " ".join(asking) if asking else question


# A person pronoun asked about in a question sentence that names no group: "is she still going to be in class
# with him?", "est-ce qu'elle va être là?" (not "if they strike tomorrow is that cancelled?": "that" is asked about)
_PERSON = re.compile(r"(?:\b(?:is|are|was|were|will|would|does|do|did|can|could|has|have|va|vont|est)\s+|\bqu'|\bqu\s)"
                     r"(she|he|they|elle|il|ils|elles)\b")


def asked_of_the_story(question: str, subjects: Subjects, asking: str | None = None) -> str:
    """The asked part (normalised; `asking`: asked_part(question), when the caller has it) with its first person
    pronoun read as the group the sentences before it name first, when it names none itself: "his EA is the only
    reason he gets through the day. is she still going to be in class?" asks "is ea still going to be in class?".
    Else the asked part as it is."""
    asking = asked_part(question) if asking is None else asking
    plain = normalize(asking, 500)
    found = _PERSON.search(plain) if asking != question else None
    if found is None or subjects.find(plain):
        return plain
    story = subjects.find(question[: question.rfind(asking)])
    return plain[: found.start(1)] + story[0].words[0] + plain[found.end(1):] if story else plain


def without_a_wrong_opener(bot: Session, turn: Turn, texts: list[str]) -> list[str]:
    """The reply without its "Yes:"/"No:" when the question is not a yes/no one ("how will they tell us?")."""
    if texts and _PUNCTUATED_OPENER.match(texts[0]) and bot.subjects.opens_with("open", turn.question):
        return [_without_opener(texts[0]), *texts[1:]]
    return texts


def _card_about(subjects: Subjects, turn: Turn, card, asked: tuple[Subject, ...]) -> bool:
    """Whether a card's question and answer (in the reply's language) speak of the subject."""
    voice = turn.voice
    return _about(subjects, f"{voice.text(card, 'question')} {voice.text(card, 'answer')}", asked)


def _drop_choice(turn: Turn) -> None:
    del turn.meta["choices"]
    turn.meta.pop("choice_labels", None)
    turn.context.stop_waiting()


def _fact_on(subjects: Subjects, turn: Turn, asked: tuple[Subject, ...]) -> str | None:
    """A fact of any topic that speaks of the subject ("who is the education minister?"), the one sharing most
    words with the question, the newest of equals; its first sentence and the source."""
    voice, at = turn.voice, turn.msg.time
    question = words_of(turn.question)
    facts = [f for topic in FACT_TOPICS for f in turn.knowledge.facts_about(topic, at)
             if _about(subjects, voice.text(f, "text"), asked[:1])]
    if not facts:
        return None
    best = max(facts, key=lambda f: (len(question & words_of(voice.text(f, "text"))), f.published))
    turn.card = None
    turn.analysis.intent = turn.topic = best.topic
    parts = sentences(voice.text(best, "text"))
    return shape(parts[0], parts[1:2], cite(turn.knowledge, best.source, best.published, voice.language))


def _the_dispute_s_own_group(subjects: Subjects, turn: Turn, asked: tuple[Subject, ...]) -> bool:
    """Whether an active pack's `who:` names a group or two ("teachers and occasional teachers"), the one asked
    about among them: the whole dispute is theirs."""
    for pack in turn.knowledge.packs_at(turn.msg.time):
        named = set(subjects.find(f"{pack.who} {pack.who_fr}"))
        if 0 < len(named) <= OWN_GROUPS and named & set(asked):
            return True
    return False


def _in_the_dispute(subjects: Subjects, turn: Turn, asked: tuple[Subject, ...]) -> bool:
    """Whether an active pack names the subject among the workers of its dispute (its `who:`)."""
    packs = turn.knowledge.packs_at(turn.msg.time)
    return any(subjects.mentions(f"{p.who} {p.who_fr}", s) for p in packs for s in asked)


def _about(subjects: Subjects, text: str, asked: tuple[Subject, ...]) -> bool:
    """Whether a text speaks of an asked subject, and not only as one of a list: a roster ("custodians, office
    staff, EAs, ECEs...") answers who is in the union, not what custodians do."""
    return subjects.mentions_apart(text, asked, ROSTER_DISTANCE)


def _shares_a_word(subjects: Subjects, question: str, text: str, asked: tuple[Subject, ...]) -> bool:
    """Whether a text shares a telling word with the question, beyond the subject's own words and general ones."""
    return _shared(subjects, question, text, asked) > 0


def _shared(subjects: Subjects, question: str, text: str, asked: tuple[Subject, ...]) -> int:
    own = {w for s in asked for phrase in s.words for w in words_of(phrase)}
    return len((words_of(question) & words_of(text)) - own - subjects.generic)


NEAR_WORDS = 6  # the words on each side of a subject's mention that say what is asked of it


def _asks_otherwise(subjects: Subjects, turn: Turn, asks: str) -> bool:
    """Whether the card answers its question with a yes or a no and asks it the other way than the parent."""
    answer = turn.voice.text(turn.card, "answer")
    if not _OPENER.match(answer):
        return False
    theirs = subjects.asks(turn.voice.text(turn.card, "question")) or subjects.asks(turn.card.question)
    return theirs is not None and theirs != asks


def _without_opener(text: str) -> str:
    rest = _OPENER.sub("", text, count=1)
    return rest[:1].upper() + rest[1:]


def _card_on(bot: Session, turn: Turn, asked: tuple[Subject, ...], asks: str | None, *, same_way: bool) -> list[str] | None:
    """The best card of this question that names the subject (asked the same way when `same_way`)."""
    index = bot.card_index(turn.knowledge)
    if not index.cards:
        return None
    subjects: Subjects = bot.subjects
    board = turn.board.id if turn.board else None
    matches = index.find(turn.analysis.processed, turn.msg.time, board, turn.analysis.english)
    other = stripped = None  # a card asked another way: without a yes/no, or with one to leave out
    for match in matches:
        if match.score < SUBJECT_BAR:
            break
        card, voice = match.card, turn.voice
        if same_way and card is turn.card:
            continue
        if not _card_about(subjects, turn, card, asked) or asked_otherwise(card, turn.question, subjects):
            continue  # not of the subject, or asked for another kind of answer (why, not when)
        theirs = subjects.asks(card.question)
        if asks is None or theirs == asks:
            return _answer_with(turn, card)
        if _OPENER.match(voice.text(card, "answer")):
            stripped = stripped or card
        else:
            other = other or card
    if same_way:
        return None
    if other is not None:
        return _answer_with(turn, other)
    if stripped is not None:
        text = _answer_with(turn, stripped)
        return [_without_opener(text[0])]
    return None


def _answer_with(turn: Turn, card) -> list[str]:
    turn.card = card
    turn.analysis.intent = card.topic
    turn.topic = card.topic
    return [answer_memo.card_answer(turn.knowledge, card, turn.msg.time, full=turn.full, voice=turn.voice,
                                    question=turn.question)]


def _with_what_they_stopped(bot: Session, turn: Turn, texts: list[str], asked: tuple[Subject, ...]) -> list[str]:
    """A group's card ("School custodians are part of CUPE's job action, yes...") asked about plainly ("and the
    custodians") or whether they work ("are custodians still working?"), with what they stopped as its second
    line, when the knowledge lists it."""
    if turn.card is None or turn.analysis.intent == "withdrawn_services":
        return texts
    services = _services_text(bot, turn, asked)  # the card still answers: the turn is left as it is
    if services is None:
        return texts
    stopped = services.split("\n", 1)[0]
    return [f"{texts[0].split(chr(10), 1)[0]}\n{stopped}", *texts[1:]]


def _services_of(bot: Session, turn: Turn, asked: tuple[Subject, ...]) -> str | None:
    """The withdrawn services of the group asked about as the answer, when the knowledge lists any."""
    text = _services_text(bot, turn, asked)
    if text is not None:
        turn.card = None
        turn.analysis.intent = turn.topic = "withdrawn_services"
    return text


def _services_text(bot: Session, turn: Turn, asked: tuple[Subject, ...]) -> str | None:
    """The withdrawn services that speak of the subject (ranked by the question and the subject's name: "cash for
    the bake sale" is "money for school activities"), or None."""
    question = f"{turn.question} {asked[0].named(turn.voice.language)}"
    text = answer_memo.withdrawn_services(turn.knowledge, turn.msg.time, turn.board, question, voice=turn.voice)
    return text if text and _about(bot.subjects, text[:LEAD_CHARS], asked) else None


def _not_said(turn: Turn, subject: Subject) -> str:
    """One honest line: the reports say nothing of the subject; who to ask."""
    voice = turn.voice
    lang = voice.language
    where = subject.where.get(lang) or subject.where.get("en") or voice.say("ask_your_school")
    if turn.board is not None:
        where += " (" + voice.say("board_website", name=turn.board.display, website=turn.board.website) + ")"
    turn.card = None
    turn.analysis.intent = "unknown"
    turn.topic = None
    return voice.say("subject_not_said", subject=subject.named(lang), where=where)
