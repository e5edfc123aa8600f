"""The one entry point: an incoming message in, replies out.

Console, Telegram, Discord, ``schoolbot ask`` and the tests all call
:meth:`Bot.handle` (or :meth:`Bot.respond`, which also says what was
understood). The core never imports a platform library.

This module dispatches: commands, then the turns that lean on the
conversation (a picked choice, the board we asked for, "thanks", "more",
"what about tuesday?"), then the question's intent and its best answer card.
Answering is the package bot/answering/: pipeline.answer is handed the message
as a Turn (bot/turn.py) and this bot as a Session (bot/session.py) and gives back
an Answer (texts, intent, topic, board, day, card); the conversation's memory is in
bot/conversation.py; the wording in bot/answers.py and bot/replies.py.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

from bot import cards, commands, conversation, language, prepared, user_language
from bot.answering import pipeline, readings, two_asks
from bot.boards import BoardFinder
from bot.broadcast.wakeup import Wakeup
from bot.conversation import Context
from bot.intent_data import with_known_texts, with_packs
from bot.matcher import IntentMatcher, load_intents
from bot.messages import ChatKind, Incoming, Reply
from bot.replies import Voice, say, use_region
from bot.settings import Settings
from bot.subjects import subjects_from
from bot.text import storable
from bot.turn import Answer, Turn
from knowledge.model import TAUGHT_TOPIC, Card
from knowledge.reading import read_bytes
from knowledge.snapshot import Knowledge
from knowledge.store import Store

log = logging.getLogger("schoolbot.core")

MAX_INPUT_CHARS = 20_000  # longer text is cut before anything else looks at it
PENDING_TTL = conversation.PENDING_TTL


class Memory(Protocol):
    def get_user(self, platform: str, user_id: str) -> dict | None: ...
    def set_user(self, platform: str, user_id: str, **changes) -> None: ...


class EphemeralMemory:
    """Per-user memory that lives only in this process (for `ask` and evaluation)."""

    def __init__(self) -> None:
        self.users: dict[tuple[str, str], dict] = {}

    def get_user(self, platform: str, user_id: str) -> dict | None:
        user = self.users.get((platform, user_id))
        return dict(user) if user else None

    def set_user(self, platform: str, user_id: str, **changes) -> None:
        user = self.users.setdefault((platform, user_id), {"board": None, "pending": None})
        user.update(changes)


@dataclass(slots=True)
class Response:
    """What the bot understood and what it answers."""

    replies: list[Reply]
    intent: str
    board: str | None = None
    date: date | None = None
    confidence: float = 0.0
    card: str | None = None  # the answer card used, if any

    @property
    def text(self) -> str:
        return "\n\n".join(r.text for r in self.replies)


def build_matcher(store: Store, settings: Settings) -> IntentMatcher:
    """The matcher for the store's boards and the configured intents (the slow part of start-up)."""
    knowledge = store.knowledge()
    boards = BoardFinder(knowledge.boards.values())
    m = settings.matcher
    data = with_packs(load_intents(settings.knowledge.intents), knowledge.packs.values())
    return IntentMatcher(
        with_known_texts(data, knowledge.texts()), boards,
        min_confidence=m.min_confidence, min_margin=m.min_margin, max_chars=m.max_chars,
    )


def time_zone(settings: Settings, knowledge: Knowledge) -> ZoneInfo:
    """The time zone "today" is told in: the setting when set, else the active packs' region's (ZoneInfo keeps
    one object per name)."""
    return ZoneInfo(settings.knowledge.timezone or knowledge.region.timezone)


def matcher_key(store: Store, settings: Settings) -> bytes:
    """Everything a built matcher depends on (intents, boards, settings, code), for the start-up cache."""
    knowledge = store.knowledge()
    boards = sorted(knowledge.boards.values(), key=lambda board: board.id)
    words = [(p.intent_examples, p.slang) for p in knowledge.packs.values()], knowledge.texts()  # the packs' words
    return prepared.digest(
        b"matcher", prepared.code_digest("bot", "knowledge"),
        read_bytes(settings.knowledge.intents), repr(boards), repr(settings.matcher), repr(words),
    )


_NOT_A_TOPIC = frozenset({"set_board", "subscribe", "unsubscribe", "help", "unknown", "admin"})


class Bot:
    def __init__(
        self,
        store: Store,
        settings: Settings,
        *,
        memory: Memory | None = None,
        dry_run: bool = False,
        clock: Callable[[], datetime] | None = None,
        matcher: IntentMatcher | None = None,
    ):
        self.store = store
        self.settings = settings
        self.memory: Memory = memory if memory is not None else store
        self.dry_run = dry_run  # answer, but change nothing (subscriptions, logs)
        self.clock = clock or (lambda: datetime.now(self.tz))
        self.matcher = matcher if matcher is not None else build_matcher(store, settings)
        self.boards = self.matcher.boards
        self.subjects = subjects_from(settings.knowledge.subjects)  # what a question is about: workers, services
        self.matcher_key = matcher_key(store, settings)
        self._card_index: cards.CardIndex | None = None
        self.card_index(store.knowledge())  # built at start-up, not on the first question
        # The commands this bot answers (bot.commands): the public ones; the staff tools add theirs.
        self.commands = commands.Registry()
        self.wakeup = Wakeup()  # rung when a broadcast is queued: starts this process's delivery workers

    @property
    def tz(self) -> ZoneInfo:
        """The time zone "today" and "tomorrow" are told in (see time_zone)."""
        return time_zone(self.settings, self.store.knowledge())

    # ------------------------------------------------------------ entry point
    def chat_unreachable(self, platform: str, chat_id: str) -> int:
        """A platform reports that a chat takes no more messages (the user blocked the bot, the bot
        was removed, DMs closed): its subscriptions stop. Returns how many."""
        return self.store.mark_blocked(platform, chat_id)

    def chat_moved(self, platform: str, old_chat_id: str, new_chat_id: str) -> int:
        """A platform reports that a chat now has another id: its subscriptions follow. Returns how many."""
        return self.store.move_chat(platform, old_chat_id, new_chat_id)

    def needs_group_admin(self, msg: Incoming) -> bool:
        """Whether answering this group message depends on the sender administering the group.

        Adapters ask this before :meth:`handle` and only then ask their platform
        (one network call), so the decision of which messages manage a chat stays here.
        """
        if msg.chat_kind != ChatKind.GROUP or not msg.addressed or not (msg.text or "").strip():
            return False
        text = msg.text[:MAX_INPUT_CHARS]
        intent = self.matcher.analyse(text, msg.time.astimezone(self.tz).date()).intent
        return intent in self._MANAGING_INTENTS

    _MANAGING_INTENTS = commands.GROUP_ADMIN_INTENTS

    def card_index(self, knowledge: Knowledge) -> cards.CardIndex:
        """The answer cards of this knowledge snapshot, indexed once per snapshot."""
        index = self._card_index
        if index is None or index.knowledge is not knowledge:
            index = self._card_index = cards.CardIndex(knowledge, self.matcher, self.prepare_cards(knowledge.cards))
        return index

    def prepare_cards(self, card_list: list[Card]) -> cards.PreparedCards:
        """The cards prepared for matching: from the cache beside the database when nothing they are made of changed."""
        key = prepared.digest(
            b"cards", self.matcher_key, cards.cards_key(card_list),
        )
        directory = prepared.cache_dir_for(self.settings.database.path)
        return prepared.load_or_build(key, lambda: cards.prepare_cards(card_list, self.matcher), directory, name="cards")

    def handle(self, msg: Incoming) -> list[Reply]:
        """Answer one message. Never raises: a failure becomes a polite reply and a log line."""
        return self.respond(msg).replies

    def respond(self, msg: Incoming) -> Response:
        text = storable(msg.text)  # once, here, for every platform
        if text is not msg.text:
            msg = replace(msg, text=text)
        try:
            return self._respond(msg)
        except Exception:
            log.exception("failed to answer a message on %s chat %s", msg.platform, msg.chat_id)
            try:
                lang = self.language_of(msg)
            except Exception:
                lang = language.from_locale(msg.language) or "en"
            return Response([Reply(say("something_went_wrong", lang), msg.chat_id)], "unknown")

    def _respond(self, msg: Incoming) -> Response:
        if msg.chat_kind == ChatKind.CHANNEL:
            return Response([], "unknown")
        if msg.chat_kind == ChatKind.GROUP and not msg.addressed:
            return Response([], "unknown")
        text = (msg.text or "")[:MAX_INPUT_CHARS]
        if not text.strip():
            return Response([Reply(say("empty_message", self.language_of(msg)), msg.chat_id)], "help")

        invocation = commands.parse(text)
        command = self.commands.get(invocation.name) if invocation is not None else None
        if command is not None and command.handler is not None:  # the others run their intent, below
            replies = command.handler(self, msg, invocation.argument)
            if replies is not None:
                return Response(replies, "admin" if command.staff else "help", confidence=1.0)

        user = self.memory.get_user(msg.platform, msg.user_id) or {}
        context = Context.from_memory(user.get("pending"))
        stored = context.to_memory()
        knowledge = self._in_region()
        lang, asked = user_language.choose(text, context, msg.language, knowledge.region.language)
        preface = None
        if asked:  # "parlez-vous français?": the whole message chose a language
            if context.language != lang and not self.dry_run:
                context.language = lang
                self._remember(msg, pending=context.to_memory())
            preface = Reply(say("language_set", lang), msg.chat_id, private=True)
            if not (context.last and context.fresh(msg.time)):
                return Response([preface], "help", confidence=1.0)
            text = context.last  # "en français svp" after an answer: that question again, in French
        now = msg.time.astimezone(time_zone(self.settings, knowledge))
        analysis = self.matcher.analyse(text, now.date(), lang)  # the user's language where the message does not say
        # "my daughter has diabetes. is her EA still there this week?", "...his EA... is she still in class?": the
        # question sentence read alone (with the group it speaks of), the message's board and day kept
        analysis, asked = readings.the_question_asked(text, analysis, self.subjects,
                                                      lambda asked: self.matcher.analyse(asked, now.date(), lang))
        mentioned, remembered = analysis.board.board_id if analysis.board else None, user.get("board")
        turn = Turn(msg, analysis, now.date(), remembered, knowledge, context=context, hour=now.hour, voice=Voice(lang),
                    asked=asked, board=knowledge.board(mentioned or remembered) or knowledge.sole_board,
                    day=analysis.date.day if analysis.date else None)
        fresh = context.fresh(now) and not analysis.command
        # A card offered or answered earlier that staff undid since is not served ("2" picks nothing then).
        context.choices = [knowledge.live_card(card, msg.time) for card in context.choices]
        context.card = knowledge.live_card(context.card, msg.time) or None

        answer = pipeline.answer(self, turn, text, fresh, self.settings)  # bot/answering/: the turn left as it was
        answer = self._second_ask(turn, text, fresh, answer, lang, now.date())  # "who is cupe and why..."
        response = self._finish(turn, answer)
        if preface is not None:
            response.replies.insert(0, preface)
        topic = answer.topic
        if topic is None and answer.intent not in _NOT_A_TOPIC:
            topic = answer.intent  # the conversation is now about what was answered
        if topic is not None and topic not in _NOT_A_TOPIC:
            context.at, context.topic, context.last = now.isoformat(), topic, text[:200]
            context.board = answer.board.id if answer.board else None
            if answer.day is not None or not fresh or analysis.date is not None or answer.weekend:
                context.day = answer.day.isoformat() if answer.day else None  # else the day talked about stays
            context.card = answer.card.id if answer.card else None
        elif answer.intent == "set_board" and answer.board_named is not None and context.board:
            context.board = answer.board_named  # "my board is peel": the conversation moves to Peel too
        after = context.to_memory()
        if _changed(stored, after):
            self._remember(msg, pending=after)
        return response

    def _second_ask(self, turn: Turn, text: str, fresh: bool, answer: Answer, lang: str, today: date) -> Answer:
        """The answer with a line for the message's other question, when it asks two of different topics and the
        answer spoke to one (bot/answering/two_asks.py)."""
        asks = two_asks.split(text)
        if asks is None or answer.meta.get("choices"):
            return answer
        analyses = [self.matcher.analyse(part, today, lang) for part in (asks.first, asks.second)]
        if not two_asks.both_asked(*analyses):
            return answer
        lines = []
        for analysis, question in zip(analyses, (asks.first, asks.second), strict=True):
            # each question read alone, in a copy of the conversation: the memory stays the whole answer's
            alone = pipeline.answer(self, replace(turn, analysis=analysis, context=replace(turn.context), asked=question,
                                                  meta={}), question, False, self.settings)
            if alone.intent != analysis.intent or alone.meta.get("choices"):
                return answer
            lines.append(two_asks.first_line(alone.texts))
        said = two_asks.first_line(answer.texts)
        if said == lines[0] or (said != lines[1] and answer.intent == analyses[0].intent):
            return replace(answer, texts=two_asks.with_other(answer.texts, lines[1], before=False))
        if said == lines[1] or answer.intent == analyses[1].intent:
            return replace(answer, texts=two_asks.with_other(answer.texts, lines[0], before=True))
        return answer  # the whole answer spoke of neither question alone

    # ------------------------------------------------------------ language
    def language_of(self, msg: Incoming) -> str:
        """The language to answer this user in, outside a question (commands, staff tools): chosen,
        remembered or the platform's."""
        user = self.memory.get_user(msg.platform, msg.user_id) or {}
        remembered = Context.from_memory(user.get("pending")).language
        if remembered in language.LANGUAGES:
            return remembered
        return language.from_locale(msg.language) or self._in_region().region.language

    def _in_region(self) -> Knowledge:
        """The current knowledge, with its region's words set for what is said next (config/wording.yaml's
        {region_...} fields: the examples of prompts, what a board is called, where to look)."""
        knowledge = self.store.knowledge()
        use_region(knowledge.region, next(iter(knowledge.packs.values()), None))
        return knowledge

    def set_language(self, msg: Incoming, lang: str) -> None:
        """Remember the user's language (/language fr)."""
        user = self.memory.get_user(msg.platform, msg.user_id) or {}
        context = Context.from_memory(user.get("pending"))
        if context.language != lang:
            context.language = lang
            self._remember(msg, pending=context.to_memory())

    def _finish(self, turn: Turn, answer: Answer) -> Response:
        msg = turn.msg
        private = answer.intent in {"set_board", "subscribe", "unsubscribe", "help"}
        meta = {"intent": answer.intent, "board": answer.board.id if answer.board else None,
                "language": turn.voice.language, **answer.meta}
        replies = [Reply(answers_text, msg.chat_id, private=private, meta=meta) for answers_text in answer.texts]
        # A card that answered reports its topic (a pack topic as the intent it maps onto: docs/packs.md), so ask,
        # eval and /stats count the question where its answer is; a taught card of no intent ("staff") does not.
        card = answer.card
        reported = card.topic if card is not None and card.topic != TAUGHT_TOPIC else answer.intent
        if not self.dry_run:
            try:
                self.store.log_question(msg.time, msg.platform, reported, meta["board"], msg.text, answer.confidence)
            except Exception:  # statistics must never cost an answer
                log.exception("could not log a question")
        return Response(replies, reported, meta["board"], answer.day, answer.confidence, card.id if card else None)

    def log_pick(self, turn: Turn, number: int, card: Card) -> None:
        """Record which offered card a user picked, in the question log staff read."""
        if self.dry_run:
            return
        try:
            text = f"[picked {number}: {card.id}] {turn.context.question}"
            self.store.log_question(turn.msg.time, turn.msg.platform, card.topic, turn.board.id if turn.board else None, text)
        except Exception:
            log.exception("could not log a pick")

    def _remember(self, msg: Incoming, **changes) -> None:
        self.memory.set_user(msg.platform, msg.user_id, **changes)

    # ------------------------------------------------------------ the Session answering is handed (bot/session.py)
    def remember_board(self, msg: Incoming, board_id: str | None) -> None:
        self._remember(msg, board=board_id)

    def subscribed(self, msg: Incoming) -> bool:
        try:
            return bool(self.store.subscriptions_of(msg.platform, msg.chat_id))
        except Exception:
            return False

    def subscribe(self, msg: Incoming, board_id: str, language: str) -> bool:
        return self.store.subscribe(msg.platform, msg.chat_id, board_id, msg.chat_kind.value, msg.user_id, language)

    def unsubscribe(self, msg: Incoming, board_id: str | None) -> list[str]:
        return self.store.unsubscribe(msg.platform, msg.chat_id, board_id)


def _changed(before: dict | None, after: dict | None) -> bool:
    """Whether the context is worth a write: anything but its time changed, or its time by a minute."""
    if (before or {}).keys() - {"at"} != (after or {}).keys() - {"at"}:
        return True
    if any(before[k] != after[k] for k in (after or {}) if k != "at"):
        return True
    try:
        then, now = datetime.fromisoformat(before.get("at")), datetime.fromisoformat(after.get("at"))
    except (TypeError, ValueError, AttributeError):
        return before != after
    return now - then >= _REFRESH


_REFRESH = timedelta(minutes=1)
