"""The turns that change what the bot keeps for a chat: the user's board and the chat's subscriptions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot import replies
from bot.messages import ChatKind, Incoming
from bot.text import normalize
from knowledge.model import ALL_BOARDS

if TYPE_CHECKING:
    from bot.core import Bot, Turn

_CLEAR_WORDS = frozenset({"clear", "forget", "reset", "remove", "delete", "unset"})


def on_set_board(bot: Bot, turn: Turn) -> list[str]:
    analysis = turn.analysis
    words = set(normalize(analysis.argument if analysis.command else turn.question).split())
    knowledge = turn.knowledge
    if analysis.board is None:
        if words & _CLEAR_WORDS:
            if not bot.dry_run:
                bot._remember(turn.msg, board=None)
            turn.board = None
            return ["Done: I no longer remember a board for you. Tell me one any time, e.g. /board tdsb."]
        if analysis.command == "board" and not analysis.argument:
            current = knowledge.board(turn.remembered_board)
            if current is None:
                return ["You haven't set a board yet. Send /board and its name or your city, e.g. /board peel."]
            return [f"Your board is {current.name} ({current.id}). Send /board NAME to change it, or /board clear."]
        if analysis.command == "board":
            return [f"I don't know a board called {analysis.argument!r}. Try its abbreviation (tdsb, pdsb), its name or your city."]
        return [replies.ASK_BOARD_TEXT]
    board = turn.board = knowledge.board(analysis.board.board_id)
    bot._remember(turn.msg, board=board.id)
    has_info = board.id in knowledge.boards_with_status(turn.msg.time)
    note = "" if has_info else f" I have no confirmed status from this board yet; its website is {board.website}"
    return [f"Got it: your board is {board.name}. Ask me \"is school open monday?\" any time.{note}"]


def _subscription_board(turn: Turn) -> str | None:
    words = set(normalize(turn.analysis.argument if turn.analysis.command else turn.question).split())
    if turn.analysis.board is not None:
        return turn.analysis.board.board_id
    if "all" in words or "every" in words or "everything" in words:
        return ALL_BOARDS
    return turn.remembered_board


def _may_manage_chat(msg: Incoming) -> bool:
    return msg.chat_kind == ChatKind.PRIVATE or msg.group_admin


def on_subscribe(bot: Bot, turn: Turn) -> list[str]:
    msg = turn.msg
    group = replies.group_word(msg.platform)
    if not _may_manage_chat(msg):
        return [f"Only this {replies.admins_word(msg.platform)}'s admins can subscribe this {group}. "
                f"You can subscribe yourself in a {replies.private_word(msg.platform)} with me."]
    board_id = _subscription_board(turn)
    if board_id is None:
        turn.context.await_board("subscribe", msg.time, None, False)
        return ["Which board's updates do you want? Send its name, abbreviation or your city "
                "(for example \"TDSB\" or \"Peel\"), or send 'all'."]
    name = "all boards" if board_id == ALL_BOARDS else turn.knowledge.board(board_id).name
    if bot.dry_run:
        return [f"You would be subscribed to updates for {name}."]
    new = bot.store.subscribe(msg.platform, msg.chat_id, board_id, msg.chat_kind.value, msg.user_id)
    in_group = msg.chat_kind == ChatKind.GROUP
    where = f"This {group}" if in_group else "You"
    if not new:
        return [f"{where} already {'gets' if in_group else 'get'} updates for {name}. Send /unsubscribe to stop."]
    return [f"{where} will now get official updates for {name}. Send /unsubscribe to stop."]


def on_unsubscribe(bot: Bot, turn: Turn) -> list[str]:
    msg = turn.msg
    if not _may_manage_chat(msg):
        return [f"Only this {replies.admins_word(msg.platform)}'s admins can change this {replies.group_word(msg.platform)}'s subscriptions."]
    board = turn.analysis.board.board_id if turn.analysis.board else None
    if bot.dry_run:
        return ["You would be unsubscribed from updates."]
    stopped = bot.store.unsubscribe(msg.platform, msg.chat_id, board)
    if not stopped:
        return ["There were no updates to stop: this chat isn't subscribed" + (" to that board." if board else ".")]
    knowledge = turn.knowledge
    names = ", ".join("all boards" if b == ALL_BOARDS else knowledge.board(b).name if knowledge.board(b) else b for b in stopped)
    return [f"Done: no more updates for {names}. Send /subscribe to start again."]
