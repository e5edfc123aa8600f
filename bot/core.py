"""The one entry point: an incoming message in, replies out.

Console, Telegram, Discord, ``schoolbot ask`` and the tests all call
:meth:`Bot.handle` (or :meth:`Bot.respond`, which also says what was
understood). The core never imports a platform library.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

from bot import answers
from bot.boards import BoardFinder
from bot.broadcast.wakeup import Wakeup
from bot.dates import describe_day
from bot.matcher import Analysis, IntentMatcher, load_intents
from bot.messages import ChatKind, Incoming, Reply
from bot.settings import Settings
from bot.text import normalize, storable
from knowledge.model import ALL_BOARDS, Board
from knowledge.snapshot import Knowledge
from knowledge.store import Store

log = logging.getLogger("schoolbot.core")

PENDING_TTL = timedelta(minutes=30)
MAX_INPUT_CHARS = 20_000  # longer text is cut before anything else looks at it

HELP_TEXT = """I answer parents' questions about the 2019 Ontario education workers' job action, from news reports, naming the source and date of each answer.

Ask me, for example:
- "is school open monday in peel?"
- "what services stopped?"
- "do I need child care?"
- "when could a full strike start?"
- "why are they striking?" / "any news on the talks?"
- "what does work-to-rule mean?"

Commands:
/board NAME - remember your school board (a name, abbreviation or city: tdsb, Peel, Mississauga); /board alone shows it
/status [board] [date] - is school open
/subscribe [board|all] - get official updates; /unsubscribe to stop
/whoami - your platform and user id
/help - this message"""

UNKNOWN_TEXT = (
    "Sorry, I'm not sure what you're asking. I can tell you whether schools are open on a given day, "
    "which services stopped, what it means for child care, strike dates, the talks and what the dispute is about.\n"
    'Try: "is school open monday in peel?" or send /help.'
)

ASK_BOARD_TEXT = (
    "Which school board? Send its name, abbreviation or your city, for example "
    '"TDSB", "Peel", "York Catholic" or "Mississauga".'
)


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

    @property
    def text(self) -> str:
        return "\n\n".join(r.text for r in self.replies)


@dataclass(slots=True)
class Turn:
    """One message being answered: the message, what was understood and the user's memory."""

    msg: Incoming
    analysis: Analysis
    today: date
    remembered_board: str | None
    knowledge: Knowledge  # one snapshot per message: every answer in a reply agrees
    board: Board | None = None
    day: date | None = None


def build_matcher(store: Store, settings: Settings) -> IntentMatcher:
    """The matcher for the store's boards and the configured intents (the slow part of start-up)."""
    boards = BoardFinder(store.knowledge().boards.values())
    m = settings.matcher
    return IntentMatcher(
        load_intents(settings.knowledge.intents), boards,
        min_confidence=m.min_confidence, min_margin=m.min_margin, max_chars=m.max_chars,
    )


CommandHandler = Callable[["Bot", Incoming, str], list[Reply] | None]


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
        self.tz = ZoneInfo(settings.knowledge.timezone)
        self.clock = clock or (lambda: datetime.now(self.tz))
        self.matcher = matcher if matcher is not None else build_matcher(store, settings)
        self.boards = self.matcher.boards
        # Extra slash commands (admin tools register here): name -> handler(bot, msg, argument).
        self.commands: dict[str, CommandHandler] = {"whoami": _whoami}
        self.wakeup = Wakeup()  # rung when a broadcast is queued: starts this process's delivery workers

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

    _MANAGING_INTENTS = frozenset({"subscribe", "unsubscribe"})

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
            return Response(
                [Reply("Sorry, something went wrong on my side. Please try again in a moment, or send /help.", msg.chat_id)],
                "unknown",
            )

    def _respond(self, msg: Incoming) -> Response:
        if msg.chat_kind == ChatKind.CHANNEL:
            return Response([], "unknown")
        if msg.chat_kind == ChatKind.GROUP and not msg.addressed:
            return Response([], "unknown")
        text = (msg.text or "")[:MAX_INPUT_CHARS]
        if not text.strip():
            return Response([Reply("Send me a question, for example \"is school open monday?\", or /help.", msg.chat_id)], "help")

        stripped = text.strip()
        if stripped.startswith("/"):
            name, _, argument = stripped[1:].partition(" ")
            name = name.split("@", 1)[0].lower()
            handler = self.commands.get(name)
            if handler is not None:
                replies = handler(self, msg, argument.strip())
                if replies is not None:
                    return Response(replies, "admin" if name != "whoami" else "help", confidence=1.0)

        now = msg.time.astimezone(self.tz)
        today = now.date()
        analysis = self.matcher.analyse(text, today)
        user = self.memory.get_user(msg.platform, msg.user_id) or {}
        knowledge = self.store.knowledge()
        turn = Turn(msg, analysis, today, user.get("board"), knowledge)
        mentioned = analysis.board.board_id if analysis.board else None
        turn.board = knowledge.board(mentioned or turn.remembered_board)
        turn.day = analysis.date.day if analysis.date else None

        pending = user.get("pending")
        if pending and self._pending_alive(pending, now):
            replies = self._follow_up(turn, pending)
            if replies is not None:
                return self._finish(turn, replies)
        if pending:
            self._remember(msg, pending=None)

        handler = getattr(self, f"_on_{analysis.intent}")
        return self._finish(turn, handler(turn))

    def _finish(self, turn: Turn, texts: list[str]) -> Response:
        msg, analysis = turn.msg, turn.analysis
        private = analysis.intent in {"set_board", "subscribe", "unsubscribe", "help"}
        meta = {"intent": analysis.intent, "board": turn.board.id if turn.board else None}
        replies = [Reply(answers_text, msg.chat_id, private=private, meta=meta) for answers_text in texts if answers_text]
        if not self.dry_run:
            try:
                self.store.log_question(msg.time, msg.platform, analysis.intent, meta["board"], msg.text,
                                        analysis.confidence)
            except Exception:  # statistics must never cost an answer
                log.exception("could not log a question")
        return Response(replies, analysis.intent, meta["board"], turn.day, analysis.confidence)

    # ------------------------------------------------------------- dialogue
    def _remember(self, msg: Incoming, **changes) -> None:
        self.memory.set_user(msg.platform, msg.user_id, **changes)

    @staticmethod
    def _pending_alive(pending: dict, now: datetime) -> bool:
        try:
            return now - datetime.fromisoformat(pending["asked"]) <= PENDING_TTL
        except (KeyError, TypeError, ValueError):
            return False

    def _follow_up(self, turn: Turn, pending: dict) -> list[str] | None:
        """Answer the question we asked "which board?" about, if this message names a board."""
        analysis = turn.analysis
        if analysis.board is None or analysis.intent not in {"set_board", "unknown", pending.get("intent")}:
            return None
        if analysis.out_of_scope is not None:
            return None
        analysis.intent = pending.get("intent", "school_status")
        if turn.day is None and pending.get("date"):
            turn.day = date.fromisoformat(pending["date"])
        if pending.get("weekend"):
            analysis.weekend = True
        self._remember(turn.msg, board=turn.board.id, pending=None)
        handler = getattr(self, f"_on_{analysis.intent}")
        texts = handler(turn)
        texts.append(f"(I'll remember {turn.board.name} for your next questions. Send /board to change it.)")
        return texts

    def _ask_for_board(self, turn: Turn, intent: str) -> list[str]:
        pending = {
            "intent": intent,
            "date": turn.day.isoformat() if turn.day else None,
            "weekend": turn.analysis.weekend,
            "asked": turn.msg.time.isoformat(),
        }
        self._remember(turn.msg, pending=pending)
        return [ASK_BOARD_TEXT]

    # --------------------------------------------------------------- intents
    def _now(self, turn: Turn) -> datetime:
        return turn.msg.time

    def _on_school_status(self, turn: Turn) -> list[str]:
        if turn.board is None:
            if turn.analysis.command == "status" and turn.analysis.argument and not turn.analysis.date:
                return [f"I don't know a board called {turn.analysis.argument!r}. " + ASK_BOARD_TEXT]
            return self._ask_for_board(turn, "school_status")
        day = turn.day
        if day is None:
            day = turn.today
            if turn.analysis.weekend and day.weekday() < 5:
                day += timedelta(days=5 - day.weekday())  # the coming Saturday
        return [answers.school_status(turn.knowledge, turn.board, day, turn.today, self._now(turn))]

    def _facts(self, turn: Turn, topic: str, empty: str) -> list[str]:
        text = answers.facts_answer(turn.knowledge, topic, self._now(turn))
        return [text or empty]

    def _on_strike_dates(self, turn: Turn) -> list[str]:
        text = answers.strike_dates(turn.knowledge, self._now(turn))
        return [text or "I have no dates for a strike or job action yet. Check your board's website."]

    def _on_withdrawn_services(self, turn: Turn) -> list[str]:
        text = answers.withdrawn_services(turn.knowledge, self._now(turn), turn.board)
        return [text or "I have no reports of withdrawn services yet."]

    def _on_childcare(self, turn: Turn) -> list[str]:
        texts = self._facts(turn, "childcare", "I have no information about child care yet. Check with your child-care provider and your board.")
        if turn.board is not None:
            knowledge = turn.knowledge
            day = turn.day or turn.today
            own, _ = knowledge.status_for(turn.board.id, answers.next_school_day(day), self._now(turn))
            if own is not None:
                texts.append(f"{turn.board.name} for {describe_day(answers.next_school_day(day), turn.today)}: {answers.status_label(own)}. {own.summary}")
        return texts

    def _on_negotiations(self, turn: Turn) -> list[str]:
        return self._facts(turn, "negotiations", "I have no news on the talks yet.")

    def _on_who_is_affected(self, turn: Turn) -> list[str]:
        return self._facts(turn, "who_is_affected", "I have no information on who is taking part yet.")

    def _on_dispute_issues(self, turn: Turn) -> list[str]:
        return self._facts(turn, "dispute_issues", "I have no information on the issues in dispute yet.")

    def _on_work_to_rule(self, turn: Turn) -> list[str]:
        return self._facts(turn, "work_to_rule", "I have no information on work-to-rule yet.")

    def _on_updates_source(self, turn: Turn) -> list[str]:
        return [answers.updates_source(turn.knowledge, self._now(turn), turn.board)]

    def _on_help(self, turn: Turn) -> list[str]:
        text = HELP_TEXT
        if turn.remembered_board:
            board = turn.knowledge.board(turn.remembered_board)
            if board is not None:
                text += f"\n\nYour board: {board.name}."
        return [text]

    def _on_unknown(self, turn: Turn) -> list[str]:
        topic = turn.analysis.out_of_scope
        if topic is not None:
            where = topic.where
            if turn.board is not None:
                where += f" ({turn.board.name}: {turn.board.website})"
            return [f"I have no information on {topic.topic}. The best place to look is {where}."]
        if turn.analysis.command:
            return [f"I don't know the command /{turn.analysis.command}. Send /help to see what I can do."]
        return [UNKNOWN_TEXT]

    _CLEAR_WORDS = frozenset({"clear", "forget", "reset", "remove", "delete", "unset"})

    def _on_set_board(self, turn: Turn) -> list[str]:
        analysis = turn.analysis
        words = set(normalize(analysis.argument if analysis.command else turn.msg.text).split())
        knowledge = turn.knowledge
        if analysis.board is None:
            if words & self._CLEAR_WORDS:
                if not self.dry_run:
                    self._remember(turn.msg, board=None)
                turn.board = None
                return ["Done: I no longer remember a board for you. Tell me one any time, e.g. /board tdsb."]
            if analysis.command == "board" and not analysis.argument:
                current = knowledge.board(turn.remembered_board)
                if current is None:
                    return ["You haven't set a board yet. Send /board and its name or your city, e.g. /board peel."]
                return [f"Your board is {current.name} ({current.id}). Send /board NAME to change it, or /board clear."]
            if analysis.command == "board":
                return [f"I don't know a board called {analysis.argument!r}. Try its abbreviation (tdsb, pdsb), its name or your city."]
            return [ASK_BOARD_TEXT]
        board = turn.board = knowledge.board(analysis.board.board_id)
        self._remember(turn.msg, board=board.id)
        has_info = board.id in knowledge.boards_with_status(self._now(turn))
        note = "" if has_info else f" I have no confirmed status from this board yet; its website is {board.website}"
        return [f"Got it: your board is {board.name}. Ask me \"is school open monday?\" any time.{note}"]

    def _subscription_board(self, turn: Turn) -> str | None:
        words = set(normalize(turn.analysis.argument if turn.analysis.command else turn.msg.text).split())
        if turn.analysis.board is not None:
            return turn.analysis.board.board_id
        if "all" in words or "every" in words or "everything" in words:
            return ALL_BOARDS
        return turn.remembered_board

    def _may_manage_chat(self, msg: Incoming) -> bool:
        return msg.chat_kind == ChatKind.PRIVATE or msg.group_admin

    def _on_subscribe(self, turn: Turn) -> list[str]:
        msg = turn.msg
        if not self._may_manage_chat(msg):
            return ["Only this group's admins can subscribe the group. You can subscribe yourself in a private chat with me."]
        board_id = self._subscription_board(turn)
        if board_id is None:
            return self._ask_for_board(turn, "subscribe")
        name = "all boards" if board_id == ALL_BOARDS else turn.knowledge.board(board_id).name
        if self.dry_run:
            return [f"You would be subscribed to updates for {name}."]
        new = self.store.subscribe(msg.platform, msg.chat_id, board_id, msg.chat_kind.value, msg.user_id)
        where = "This group" if msg.chat_kind == ChatKind.GROUP else "You"
        if not new:
            return [f"{where} already get updates for {name}. Send /unsubscribe to stop."]
        return [f"{where} will now get official updates for {name}. Send /unsubscribe to stop."]

    def _on_unsubscribe(self, turn: Turn) -> list[str]:
        msg = turn.msg
        if not self._may_manage_chat(msg):
            return ["Only this group's admins can change the group's subscriptions."]
        board = turn.analysis.board.board_id if turn.analysis.board else None
        if self.dry_run:
            return ["You would be unsubscribed from updates."]
        stopped = self.store.unsubscribe(msg.platform, msg.chat_id, board)
        if not stopped:
            return ["There were no updates to stop: this chat isn't subscribed" + (" to that board." if board else ".")]
        knowledge = turn.knowledge
        names = ", ".join("all boards" if b == ALL_BOARDS else knowledge.board(b).name if knowledge.board(b) else b for b in stopped)
        return [f"Done: no more updates for {names}. Send /subscribe to start again."]


def _whoami(bot: Bot, msg: Incoming, argument: str) -> list[Reply]:
    return [Reply(f"You are {msg.platform} user {msg.user_id}. An owner can grant you a role with this id.", msg.chat_id, private=True)]
