"""/teach: staff add an answer card from chat; `kb export` writes what was added in chat back to YAML."""

from __future__ import annotations

import re

from bot.admin.changes import Admin, applies
from bot.admin.statuses import new_id
from bot.admin.parsing import ALL_WORDS, InLanguages, UsageProblem, entry_dict
from bot.admin.permissions import staff_command
from bot.admin.vocabulary import topic_words
from bot.matcher import FILLER
from bot.messages import Incoming
from bot.replies import say, source_name
from bot.roles import Rights
from knowledge.model import ALL_BOARDS, ANSWER_INTENTS, TAUGHT_TOPIC, Card, Source, card_topic

TEACH_USAGE = (
    "/teach BOARD | QUESTION | ANSWER [| DETAILS] [| source: WHERE IT COMES FROM] [| also: OTHER WORDING; ...]\n"
    "  Parts are separated by | or new lines; BOARD is a board, several (tdsb, tcdsb) or all (province admins).\n"
    "  e.g. /teach tdsb | Are lunchrooms supervised? | Yes: lunch supervision continues at TDSB schools. "
    "| source: TDSB letter of Oct 3")
# A taught card's `source:` cites one of the knowledge's sources (by its file name or title), or says in staff's
# own words where the answer comes from: one line of at most SOURCE_MAX_CHARS, without the words that claim an
# authority (official, ministry, government...): those are for the pack's sources, which name a published
# document a person checked. A taught card is said with its source on every answer.
SOURCE_MAX_CHARS = 200
RESERVED_SOURCE_WORDS = re.compile(r"\b(?:official(?:ly)?|ministry|minist(?:er|re|ère)|government|gouvernement|"
                                   r"officiel(?:le)?(?:ment)?|ontario\.ca)\b", re.IGNORECASE)
LABELS = {"source": "source", "src": "source", "from": "source", "also": "phrasings", "phrasings": "phrasings",
          "asked as": "phrasings", "details": "details", "more": "details", "topic": "topic",
          # French
          "aussi": "phrasings", "formulations": "phrasings", "détails": "details", "details-fr": "details",
          "plus": "details", "sujet": "topic"}


def _parts(argument: str) -> list[str]:
    return [p.strip() for p in re.split(r"\s*(?:\||\n)\s*", argument) if p.strip()]


def _boards(admin: Admin, text: str, rights: Rights) -> list[str] | None:
    """The boards a part names ('tdsb', 'tdsb, tcdsb', 'all'), or None if it is not a list of boards."""
    names = [w for w in re.split(r"[\s,;]+", text.lower()) if w]
    if not names or len(names) > 8 or text.rstrip().endswith("?"):
        return None
    boards = []
    for name in names:
        if name in ALL_WORDS:
            boards.append(ALL_BOARDS)
            continue
        board = admin.board_named(name)
        if board is None:
            return None
        boards.append(board.id)
    for board_id in boards:
        admin.check_rights(rights, board_id)
    return sorted(set(boards))


def parse_teach(admin: Admin, rights: Rights, argument: str, today) -> dict:
    """The card a /teach message describes, as a pending action."""
    parts = _parts(argument)
    boards = _boards(admin, parts[0], rights) if parts else None
    if boards is None:  # no board part: staff of one board teach for it, province admins for all
        if rights.province:
            boards = [ALL_BOARDS]
        elif len(rights.boards) == 1:
            boards = sorted(rights.boards)
        else:
            raise UsageProblem.of("admin_teach_board_first")
    else:
        parts = parts[1:]
    fields: dict[str, list[str]] = {"plain": [], "source": [], "phrasings": [], "details": [], "topic": []}
    for part in parts:
        label, sep, value = part.partition(":")
        key = LABELS.get(label.strip().lower()) if sep else None
        fields[key or "plain"].append(value.strip() if key else part)
    plain = fields["plain"]
    if len(plain) < 2:
        raise UsageProblem.of("admin_teach_question_and_answer")
    question, answer, *extra = plain
    details = " ".join(fields["details"] + extra)
    phrasings = [p.strip() for text in fields["phrasings"] for p in text.split(";") if p.strip()]
    return card_action(admin, rights, boards, question, answer, today, details=details, phrasings=phrasings,
                       source=fields["source"][0] if fields["source"] else "",
                       topic=fields["topic"][0] if fields["topic"] else "")


def card_action(admin: Admin, rights: Rights, boards: list[str], question: str, answer: str, today, *,
                details: str = "", phrasings: list[str] = (), source: str = "", topic: str = "") -> dict:
    """The checked card to teach, however it was asked (/teach's parts, or the web page's form), as the pending
    action /confirm applies: the boards the person may teach for, lengths, the source staff may write, not a
    question the board's status answers, and its topic (named, else the matcher's reading of the question)."""
    if not boards:
        raise UsageProblem.of("admin_teach_board_first")
    for board_id in boards:
        admin.check_rights(rights, board_id)
    if not question.strip() or not answer.strip():
        raise UsageProblem.of("admin_teach_question_and_answer")
    phrasings = list(phrasings)
    for text, what in ((question, "admin_what_question"), (answer, "admin_what_answer"), (details, "admin_what_details")):
        admin.check_length(text, what)
    source = _source(admin, source) if source else admin.source_label(rights, boards[0])
    analysis = admin.bot.matcher.analyse(question, today)
    if analysis.intent == "school_status" and _only_status_words(admin, analysis.processed):
        raise UsageProblem.of("admin_not_a", given=repr(question), what=InLanguages(STATUS_NOT_TAUGHT))
    topic = topic.lower().replace(" ", "_")
    if topic:  # staff named it: a topic `kb load` reads back (an answer intent, the pack's own, or staff)
        own = _own_topics(admin)
        if card_topic(topic, own) != topic:
            raise UsageProblem.of("admin_teach_topic", topic=topic,
                                  known=", ".join(sorted({*ANSWER_INTENTS, *own, TAUGHT_TOPIC})))
    else:  # the intent the question is about, as the matcher reads it, if a card may have it; else staff
        topic = TAUGHT_TOPIC if analysis.intent == "unknown" else card_topic(analysis.intent)
    return {"kind": "card", "boards": [b for b in boards if b != ALL_BOARDS], "board": boards[0] if len(boards) == 1
            else ",".join(boards), "question": question, "answer": answer, "details": details,
            "phrasings": phrasings, "source": source, "topic": topic}


STATUS_NOT_TAUGHT = {
    "en": "a question to teach: it asks whether school is open, which the board's status answers, with its days "
          "and its source; set that with /setstatus (e.g. /setstatus tdsb open from monday: Schools are open)",
    "fr": "une question à enseigner : elle demande si l'école est ouverte, ce que dit le statut du conseil, avec ses "
          "jours et sa source; réglez-le avec /setstatus (p. ex. /setstatus tdsb ouvert dès lundi : Écoles ouvertes)",
}
RESERVED_SOURCE = {
    "en": "a source staff may write: words such as official, ministry or government are for the pack's own sources; "
          "name one of them by its file, or say where the answer comes from (e.g. TDSB letter of Oct 3)",
    "fr": "une source que le personnel peut écrire : des mots comme officiel, ministère ou gouvernement sont réservés "
          "aux sources du dossier; nommez-en une par son fichier, ou dites d'où vient la réponse (p. ex. lettre du TDSB du 3 oct.)",
}


def _source(admin: Admin, given: str) -> str:
    """The source a /teach names: one of the knowledge's (by file name or title), or staff's own words."""
    wanted = given.casefold()
    for source in admin.knowledge().sources.values():
        if wanted in (source.file.casefold(), source.title.casefold()):
            return source.file
    if len(given) > SOURCE_MAX_CHARS:
        raise UsageProblem.of("admin_too_long", what=InLanguages({"en": "The source", "fr": "La source"}),
                              length=f"{len(given):,}", limit=f"{SOURCE_MAX_CHARS:,}")
    if RESERVED_SOURCE_WORDS.search(given):
        raise UsageProblem.of("admin_not_a", given=repr(given), what=InLanguages(RESERVED_SOURCE))
    return given


def _only_status_words(admin: Admin, processed: str) -> bool:
    """Whether a question (its board and day left out) asks only whether school is open: every word it has is
    one the school-status examples use ("is school open", "will my kids have school"), where "is the pool
    open" names something else, which a card may answer."""
    words = {w for w in processed.split() if w not in FILLER}
    matcher = admin.bot.matcher
    status_words = {w for text, intent in zip(matcher.example_texts, matcher.example_intents, strict=True)
                    if intent == "school_status" for w in text.split()}
    return words <= status_words


def _own_topics(admin: Admin) -> set[str]:
    """The topics of the pack a taught card goes into (the first active one)."""
    packs = list(admin.knowledge().packs.values())
    return {t.id for t in packs[0].topics} if packs else set()


@staff_command("teach", TEACH_USAGE)
def teach(admin: Admin, msg: Incoming, rights: Rights, argument: str) -> str:
    if not argument.strip():
        raise UsageProblem.of("admin_teach_what")
    action = parse_teach(admin, rights, argument, admin.at(msg).date())
    return admin.propose(msg, action, preview_card(action, admin.language(msg)))


def preview_card(action: dict, language: str) -> str:
    """What staff are shown before a card is taught (chat and the web page alike)."""
    board = say("all_boards", language) if action["board"] == ALL_BOARDS else action["board"]
    lines = [say("admin_teach_preview", language, board=board, topic=topic_words(action["topic"], language),
                 source=source_name(action["source"], language)),
             say("admin_teach_question", language, text=action["question"]),
             say("admin_teach_answer", language, text=action["answer"])]
    if action["details"]:
        lines.append(say("admin_teach_details", language, text=action["details"]))
    if action["phrasings"]:
        lines.append(say("admin_teach_also", language, text="; ".join(action["phrasings"])))
    lines.append(say("admin_teach_at_once", language))
    return "\n".join(lines)


@applies("card")
def apply_card(admin: Admin, msg: Incoming, rights: Rights, action: dict, pending_id: int) -> str:
    for board_id in action["boards"] or [ALL_BOARDS]:
        admin.check_rights(rights, board_id)
    at = admin.at(msg)
    if action["source"] not in admin.knowledge().sources:
        admin.store.put_source(Source(action["source"], action["source"], at))
    card = Card(new_id("card", action["board"].replace(",", "-"), at), action["topic"], action["question"],
                action["answer"], action["source"], at, details=action["details"],
                phrasings=tuple(action["phrasings"]), boards=tuple(action["boards"]), author=admin.author(msg))
    admin.store.put_card(card)
    change = admin.record(msg, "card", card.id, action["board"], lambda language: say(
        "change_card", language, question=card.question, answer=card.answer))
    admin.audit(msg, "teach", action["board"], None, entry_dict(card))
    return admin.say(msg, "admin_teach_done", question=card.question, id=card.id, change=change)


def export_pack(store) -> dict:
    """Cards and other entries staff added in chat (not undone), as a knowledge pack `kb load` reads."""
    knowledge = store.knowledge()
    wanted = {kind: set(store.admin.staff_entry_ids(kind)) for kind in ("card", "status", "service", "event")}
    ended = set(store.admin.staff_entry_ids("endservice"))

    def pick(entries, kind):
        return [e for e in entries if (e.id in wanted[kind] or e.id in ended) and e.retracted is None]

    cards, statuses = pick(knowledge.cards, "card"), pick(knowledge.statuses, "status")
    services, events = pick(knowledge.services, "service"), pick(knowledge.timeline, "event")
    used = {e.source for e in (*cards, *statuses, *services, *events)}
    pack: dict = {"sources": [{"file": s.file, "title": s.title, "published": s.published.isoformat()}
                              for s in knowledge.sources.values() if s.file in used]}
    pack["sources"] += [{"file": name, "title": name, "published": min(
        e.published for e in (*cards, *statuses, *services, *events) if e.source == name).isoformat()}
        for name in sorted(used - set(knowledge.sources))]
    pack["cards"] = [_drop_empty({"id": c.id, "topic": card_topic(c.topic), "question": c.question, "answer": c.answer,
                                  "details": c.details, "phrasings": list(c.phrasings), "boards": list(c.boards),
                                  "source": c.source, "published": c.published.isoformat()}) for c in cards]
    pack["statuses"] = [_drop_empty({"id": s.id, "board": s.board, "from": s.start.isoformat(),
                                     "until": s.until.isoformat() if s.until else None, "status": s.status,
                                     "summary": s.summary, "source": s.source, "published": s.published.isoformat()})
                        for s in statuses]
    pack["withdrawn_services"] = [{"id": s.id, "workers": s.workers, "service": s.service, "phase": s.phase,
                                   "source": s.source, "published": s.published.isoformat()}
                                  for s in services if s.ended is None]
    pack["timeline"] = [{"id": e.id, "kind": e.kind, "date": e.day.isoformat(), "text": e.text, "source": e.source,
                         "published": e.published.isoformat()} for e in events]
    return {key: value for key, value in pack.items() if value}


def _drop_empty(entry: dict) -> dict:
    return {k: v for k, v in entry.items() if v not in (None, "", [])}

