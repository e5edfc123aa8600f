"""Composing answers from the knowledge, for one board, one date and one clock time.

Every answer is plain text, answers first (bot/replies.py), names its source
and the time the news was out, and says only what is known: a board that is
"making a contingency plan" is never reported as "open". Most answers come in
two lengths: the short one, and the full one (``full=True``) for "more" or a
question that asks for the whole list.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import lru_cache

from bot.asked import overlap, searchable, words_of
from bot.dates import describe_day
from bot.dates.formatting import short_day
from bot.dates.formatting import when_published as _when_published
from bot.replies import ENGLISH, Voice, first_sentence, say, sentences, shape, source_name
from knowledge.model import ALL_BOARDS, Board, Card, Fact, Status, TimelineEvent
from knowledge.packs import BUILTIN_STATUSES, IN_PERSON_STATUSES
from knowledge.regions import region_key
from knowledge.snapshot import Knowledge

STATUS_WORDS = {status: words[0] for status, words in BUILTIN_STATUSES.items()}  # a pack's own: its header
SUPPORT_CHARS = 140  # supporting lines beyond the first are kept while they fit in this


def when_published(moment: datetime, language: str = "en") -> str:
    """'Oct 2, 2019, 8:00 p.m.' (French: '2 oct. 2019, 20 h') in the moment's own offset."""
    return _when_published(moment, language)


def status_words(status: str, language: str = "en", knowledge: Knowledge | None = None) -> str:
    """A status id in words: 'closed' / 'fermé' (the active packs' own statuses when they name them)."""
    for info in (knowledge.packs.values() if knowledge is not None else ()):
        if any(own.id == status for own in info.statuses):
            return info.status_words(status, language)
    english = STATUS_WORDS.get(status) or status.replace("_", " ")
    if language == "fr":
        return _FRENCH_STATUS.get(status) or english
    return english


def _french_statuses() -> dict[str, str]:
    return {status: french for status, (_, french) in BUILTIN_STATUSES.items() if french}


_FRENCH_STATUS = _french_statuses()


def cite(knowledge: Knowledge, source: str, published: datetime, language: str = "en") -> str:
    key = ("cite", source, published, published.utcoffset(), language)  # once per snapshot
    line = knowledge.derived.get(key)
    if line is None:
        source_info = knowledge.sources.get(source)
        approx = " " + say("date_approximate", language) if source_info is not None and source_info.approximate else ""
        line = knowledge.derived[key] = _sentence(say("source_line", language, source=source_name(source, language),
                                                      when=when_published(published, language), approx=approx))
    return line


def cite_many(knowledge: Knowledge, entries: list, language: str = "en") -> str:
    """One 'Sources:' line for several entries, newest as-of time."""
    files = []
    for entry in entries:
        if entry.source not in files:
            files.append(entry.source)
    newest = max(e.published for e in entries)
    key = "sources_one" if len(files) == 1 else "sources_many"
    return _sentence(say(key, language, sources=", ".join(source_name(f, language) for f in files), when=when_published(newest, language)))


def _sentence(text: str) -> str:
    return text if text.endswith(".") else text + "."


def next_school_day(day: date) -> date:
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def school_status(knowledge: Knowledge, board: Board, day: date, today: date, at: datetime, *, full: bool = False,
                  voice: Voice = ENGLISH) -> str:
    lines = []
    asked = day
    lang = voice.language
    if day.weekday() >= 5:
        day = next_school_day(day)
        lines.append(voice.say("weekend", asked=_capital(describe_day(asked, today, lang)),
                               day=describe_day(day, today, lang)))
    own, general = knowledge.status_for(board.id, day, at)
    when = describe_day(day, today, lang)
    used = own or general
    if used is not None:
        status = status_words(used.status, lang, knowledge)
        if own is not None:
            lines.append(voice.say("board_status", board=board.display, when=when, status=status))
        else:  # the board said nothing of its own: the province-wide status, and where its own word will be
            lines.append(voice.say("board_status_general", board=board.display, when=when, status=status,
                                   website=board.website))
        # A strike to come within the week is what a parent told "open" needs next, before the background.
        upcoming = _next_strike_event(knowledge, at)
        noted = upcoming is not None and upcoming.day >= day - timedelta(days=7) and used.status in IN_PERSON_STATUSES
        if noted:
            lines.append(voice.say("note", text=voice.text(upcoming, "text")))
        # A board's own staff update is its official word: shown whole. A news summary: its first sentence, unless
        # the strike to come took its place (one to three lines: the status, what comes next, the source).
        summary = voice.text(used, "summary")
        if full or (own is not None and own.author):
            lines.append(summary)
        elif not noted:
            lines.append(first_sentence(summary))
        if board.display != board.name and not any(board.name in line for line in lines):
            lines.append(voice.say("board_full_name", short=board.display, name=board.name))
        lines.append(cite(knowledge, used.source, used.published, lang))
    else:
        lines.append(voice.say("no_confirmed", board=board.display, when=when))
        lines.append(latest_notices(board, voice))
        if general is not None:
            lines.append(cite(knowledge, general.source, general.published, lang))
    return "\n".join(lines)


def latest_notices(board: Board, voice: Voice = ENGLISH) -> str:
    """Where the board posts its notices; its full name once, after the address, when the lead used its short name."""
    line = voice.say("latest_notices", website=board.website)
    return f"{line} ({board.name})" if board.display != board.name else line


def province_picture(knowledge: Knowledge, day: date, today: date, at: datetime, *, voice: Voice = ENGLISH) -> str:
    """A day across boards when no board is known, asking for the board in the same reply.

    The first line gives the province-wide status and asks which board (and why),
    so a phone's preview holds both; then the news behind it and what boards said.
    """
    lang = voice.language
    lines = []
    if day.weekday() >= 5:  # "is school open tomorrow?" on a Friday: say so, then the next school day
        asked, day = day, next_school_day(day)
        lines.append(voice.say("weekend", asked=_capital(describe_day(asked, today, lang)),
                               day=describe_day(day, today, lang)))
    when = describe_day(day, today, lang)
    _, general = knowledge.status_for("", day, at)
    said = _boards_said(knowledge, day, at, voice, general.status if general is not None else None)
    ask = voice.say("which_board_for_day")
    if general is not None:
        lines.append(voice.say("province_status", when=_capital(when), status=status_words(general.status, lang, knowledge), ask=ask))
        lines.append(first_sentence(voice.text(general, "summary")))
    else:
        lines.append(voice.say("no_province_news", when=when, ask=ask))
    if said:
        lines.append(voice.say("boards_said", parts=said))
    if general is not None:
        lines.append(cite(knowledge, general.source, general.published, lang))
    return "\n".join(lines)


NAMED_BOARDS = 4  # boards named for one status word in a line; the others counted ("and 7 more")


def _boards_said(knowledge: Knowledge, day: date, at: datetime, voice: Voice, general: str | None = None) -> str:
    """What the boards that spoke for themselves said of a day ("Peel DSB, York Region DSB: not decided yet..."),
    leaving out those that say what holds everywhere (`general`, a status id): eleven divisions "closed" under
    "province-wide: closed" add nothing."""
    said: dict[str, list[str]] = {}
    for board_id in sorted(knowledge.boards_with_status(at) - {ALL_BOARDS}):
        board = knowledge.board(board_id)
        own, _ = knowledge.status_for(board_id, day, at)
        if board is not None and own is not None and own.status != general:
            said.setdefault(status_words(own.status, voice.language, knowledge), []).append(board.display)

    def listed(names: list[str]) -> str:
        if len(names) <= NAMED_BOARDS:
            return ", ".join(names)
        return voice.say("and_more", names=", ".join(names[:NAMED_BOARDS - 1]), count=len(names) - NAMED_BOARDS + 1)

    return "; ".join(f"{listed(names)}{voice.colon}{word}" for word, names in said.items())


def scope(knowledge: Knowledge, topic: str | None, day: date, today: date, at: datetime, *, voice: Voice = ENGLISH) -> str:
    """"Is that only TDSB?": a day's status board by board, or who the job action covers, in one or two lines."""
    lang = voice.language
    if topic == "school_status":
        day = next_school_day(day)
        _, general = knowledge.status_for("", day, at)
        said = _boards_said(knowledge, day, at, voice, general.status if general is not None else None)
        status = status_words(general.status, lang, knowledge) if general is not None else voice.say("not_confirmed")
        lead = voice.say("scope_status", when=describe_day(day, today, lang), status=status)
        return shape(lead, [voice.say("boards_said", parts=said)] if said else [])
    packs = [p for p in knowledge.packs_at(at) if p.who]
    if not packs:
        return voice.say("scope_unknown")
    pack = packs[0]
    who = pack.who_fr if lang == "fr" and pack.who_fr else pack.who
    if who[1:2].islower():  # "About 55,000 workers" inside a sentence
        who = who[:1].lower() + who[1:]
    return voice.say("scope_dispute", who=who, region=region_name(knowledge, pack, lang) or voice.say("scope_region"))


def region_name(knowledge: Knowledge, pack, language: str) -> str:
    """The name of the region a pack names ("Alberta" for `region: alberta`), else its `region:` as written."""
    key = region_key(pack.region) if pack.region else ""
    region = next((r for r in knowledge.regions if r.id == key), None)
    if region is None:
        return pack.region
    return region.words(language)["region_name"]


def pack_who(knowledge: Knowledge, at: datetime, voice: Voice) -> str:
    """Who takes part, from the active packs' headers (`who:`), when no fact says it yet: "Taking part: ..."."""
    lang = voice.language
    parts = [p.who_fr if lang == "fr" and p.who_fr else p.who for p in knowledge.packs_at(at) if p.who]
    return voice.say("pack_who", who=" ".join(parts)) if parts else ""


def why_status(knowledge: Knowledge, board: Board | None, day: date, at: datetime, *, voice: Voice = ENGLISH) -> str | None:
    """The reasons behind a day's status: the board's whole summary and the province-wide news."""
    own, general = knowledge.status_for(board.id if board else "", next_school_day(day), at)
    if own is None and general is None:
        return None
    used = [s for s in (own, general) if s is not None]
    texts = [voice.text(s, "summary") for s in used]
    return "\n".join([*texts, cite_many(knowledge, used, voice.language)])


def confirmed_status(knowledge: Knowledge, board: Board | None, day: date, today: date, at: datetime, *,
                     voice: Voice = ENGLISH) -> str:
    """Whether the status given for a board and a day is a board's confirmed word."""
    lang = voice.language
    day = next_school_day(day)
    when = describe_day(day, today, lang)
    own, general = knowledge.status_for(board.id if board else "", day, at)
    if board is not None and own is not None:
        status = status_words(own.status, lang, knowledge)
        if own.status in ("open", "closed"):
            lead = voice.say("confirmed_yes", board=board.display, status=status, when=when)
        else:
            lead = voice.say("confirmed_no", board=board.display, status=status, when=when)
        return shape(lead, [voice.say("as_of_watch", when=when_published(own.published, lang), website=board.website)],
                     cite(knowledge, own.source, own.published, lang))
    name = board.display if board else voice.say("your_board_words")
    lead = voice.say("confirmed_none", board=name, when=when)
    support = []
    if general:
        support.append(voice.say("province_status_short", status=status_words(general.status, lang, knowledge),
                                 text=first_sentence(voice.text(general, "summary"))))
    if board is not None:
        support.append(voice.say("check_website", website=board.website))
    return shape(lead, support)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _next_strike_event(knowledge: Knowledge, at: datetime) -> TimelineEvent | None:
    today = at.date()
    for event in knowledge.events(at):
        if event.kind == "full_strike_start" and event.day > today:
            return event
    return None


# ---------------------------------------------------------------- the one item asked about
RECENT = timedelta(days=1)  # reports this close to the newest one are the current picture
_NEWEST_FIRST = frozenset({"negotiations", "childcare", "updates_source", "strike_dates"})


def facts_answer(knowledge: Knowledge, topic: str, at: datetime, question: str = "", *, full: bool = False,
                 voice: Voice = ENGLISH, board: Board | None = None) -> str | None:
    """The fact that answers the question first, one supporting line, the source; full: up to six facts.

    Asked for a board, a fact about another board ("Peel asked parents to ...") is left out while others remain.
    """
    facts: list[Fact] = knowledge.facts_about(topic, at)
    if board is not None:
        facts = [f for f in facts if not _names_another_board(knowledge, f.text, board.id)] or facts
    facts = [f for f in facts if not _superseded(knowledge, f, at)] or facts
    if not facts:
        return None
    if full:
        chosen = facts[-6:]
        return "\n".join(f"- {voice.text(f, 'text')}" for f in chosen) + "\n" + cite_many(knowledge, chosen, voice.language)
    asked = words_of(question)
    # Asked for a board, what that board said comes first ("what do I do with my kids?" in Peel: Peel's advice).
    own = (lambda f: board.id in _boards_named(knowledge, f.text)) if board is not None else (lambda f: False)
    # The news moves: on these topics a report of the newest days counts one shared word more ("did the talks
    # start today" on Oct. 4 is Friday's talks, not September's "talks broke down ... start").
    newest = max(f.published for f in facts) if topic in _NEWEST_FIRST else None
    current = (lambda f: newest is not None and f.published >= newest - RECENT)
    order = list(reversed(facts)) if topic in _NEWEST_FIRST else facts
    best = max(order, key=lambda f: (own(f), overlap(asked, searchable(f, "text", voice)) + current(f)))  # ties: first
    text = voice.text(best, "text")
    parts = sentences(text)
    support = [p for p in parts[1:2] if len(p) <= SUPPORT_CHARS]
    return shape(parts[0] if parts else text, support, cite(knowledge, best.source, best.published, voice.language))


SUPERSEDED_AFTER = timedelta(days=1)  # a board's word this much newer replaces what a fact says it said


def _superseded(knowledge: Knowledge, fact: Fact, at: datetime) -> bool:
    """Whether a fact naming a board ("TDSB sent parents a letter saying schools stay open") was said before
    that board's newer word (a status it published later): the board's newer statement replaces it."""
    named = _boards_named(knowledge, fact.text)
    if len(named) != 1:
        return False
    board_id = next(iter(named))
    latest = max((s.published for s in knowledge.statuses if s.board == board_id and s.published <= at
                  and (s.retracted is None or s.retracted > at)), default=None)
    return latest is not None and latest > fact.published + SUPERSEDED_AFTER


def _names_another_board(knowledge: Knowledge, text: str, board_id: str) -> bool:
    return any(other != board_id for other in _boards_named(knowledge, text))


@lru_cache(maxsize=1024)
def _boards_named(knowledge: Knowledge, text: str) -> frozenset[str]:
    """The ids of the boards whose full name a text contains (cached per snapshot and text)."""
    return frozenset(b.id for b in knowledge.boards.values() if b.name in text)


# Topics where a newer timeline event may overtake a card's answer, and the kinds of event that can:
# a deal overtakes "is there a deal?", a board closing its schools does not.
_ENDING = frozenset({"deal", "called_off", "return_to_work", "law_passed", "law_repealed"})
OVERTAKEN_BY = {
    "negotiations": frozenset(_ENDING | {"bargaining"}),
    "strike_dates": frozenset(_ENDING | {"strike_notice", "full_strike_start", "work_to_rule_start",
                                         "legal_strike_position", "schools_closed", "schools_reopen"}),
    "school_status": frozenset(_ENDING | {"full_strike_start", "schools_closed", "schools_reopen"}),
}
# Events that overtake a card whatever it was asked: a deal, a strike called off.
SETTLING = frozenset({"deal", "called_off"})


def card_answer(knowledge: Knowledge, card: Card, at: datetime | None = None, *, full: bool = False,
                voice: Voice = ENGLISH, question: str = "") -> str:
    """A card's answer, its details (at most two sentences unless full), its source.

    On the topics the news moves (dates, talks, status), a timeline event
    published after the card comes first: the card's answer may be overtaken.
    """
    lang = voice.language
    kinds = OVERTAKEN_BY.get(card.topic)
    if at is not None and kinds:
        asked = words_of(question) if question else None
        newer = [e for e in knowledge.events(at) if e.published > card.published and e.kind in kinds
                 # A deal settles every such question; other news only one it speaks to ("vote" is not "talks").
                 and (asked is None or e.kind in SETTLING or asked & words_of(voice.text(e, "text")))]
        if newer:
            latest = max(newer, key=lambda e: e.published)
            return shape(voice.say("latest", day=short_day(latest.day, lang), text=voice.text(latest, "text")),
                         [voice.say("earlier", when=when_published(card.published, lang), text=voice.text(card, "answer"))],
                         cite_many(knowledge, [latest, card], lang))
    details = sentences(voice.text(card, "details"))
    if full:
        support = [" ".join(details)]
    else:  # the first detail, and the second only while the reply stays short
        support = details[:1] + [d for d in details[1:2] if len(details[0]) + len(d) <= SUPPORT_CHARS]
    return shape(voice.text(card, "answer"), support, cite(knowledge, card.source, card.published, lang))


def updates_source(knowledge: Knowledge, at: datetime, board: Board | None, question: str = "", *, full: bool = False,
                   voice: Voice = ENGLISH) -> str:
    # Where official news comes from first (the board's website, this bot's alerts), then what the reports add.
    lines = [voice.say("board_posts_updates", board=board.display, website=board.website) if board is not None
             else voice.say("updates_where")]
    facts = facts_answer(knowledge, "updates_source", at, question, full=full, voice=voice, board=board)
    if facts:
        lines.append(facts)
    return "\n".join(lines)


def status_label(status: Status, language: str = "en", knowledge: Knowledge | None = None) -> str:
    return status_words(status.status, language, knowledge)
