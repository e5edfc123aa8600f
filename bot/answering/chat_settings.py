"""The turns that change what the bot keeps for a chat: the user's board and the chat's subscriptions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot import commands, replies
from bot.messages import ChatKind, Incoming
from bot.text import normalize
from knowledge.model import ALL_BOARDS

if TYPE_CHECKING:
    from bot.session import Session
    from bot.turn import Turn

_CLEAR_WORDS = frozenset({"clear", "forget", "reset", "remove", "delete", "unset"})


def on_set_board(bot: Session, turn: Turn) -> list[str]:
    analysis, voice = turn.analysis, turn.voice
    words = set(normalize(analysis.argument if analysis.command else turn.question).split())
    knowledge = turn.knowledge
    if analysis.board is None:
        if words & _CLEAR_WORDS:
            if not bot.dry_run:
                bot.remember_board(turn.msg, None)
            turn.board = None
            return [voice.say("board_cleared")]
        if commands.canonical(analysis.command) == "board" and not analysis.argument:
            current = knowledge.board(turn.remembered_board)
            family = [b for b in map(knowledge.board, turn.context.boards) if b is not None and b is not current]
            also = voice.say("family_boards", boards=", ".join(b.name for b in family)) if family else ""
            if current is None:
                return [voice.say("family_boards_only", boards=", ".join(b.name for b in family))] if family \
                    else [voice.say("no_board_yet")]
            return [" ".join(filter(None, [voice.say("your_board_is", board=current.name, id=current.id), also]))]
        if commands.canonical(analysis.command) == "board":
            return [voice.say("unknown_board_try", name=repr(analysis.argument))]
        return [replies.ask_board_text(voice.language)]
    board = turn.board = knowledge.board(analysis.board.board_id)
    if board.id != turn.remembered_board:  # the same board again: nothing to write
        bot.remember_board(turn.msg, board.id)
    has_info = board.id in knowledge.boards_with_status(turn.msg.time)
    note = "" if has_info else " " + voice.say("board_no_status_yet", website=board.website)
    return [voice.say("board_set", board=board.name) + note]


def _subscription_board(turn: Turn) -> str | None:
    words = set(normalize(turn.analysis.argument if turn.analysis.command else turn.question).split())
    if turn.analysis.board is not None:
        return turn.analysis.board.board_id
    if words & {"all", "every", "everything", "tous", "toutes", "tout"}:
        return ALL_BOARDS
    if turn.board is not None and not turn.analysis.command:  # "keep me posted" after "is peel open monday?"
        return turn.board.id
    return turn.remembered_board


def _may_manage_chat(msg: Incoming) -> bool:
    return msg.chat_kind == ChatKind.PRIVATE or msg.group_admin


def on_subscribe(bot: Session, turn: Turn) -> list[str]:
    msg, voice = turn.msg, turn.voice
    lang = voice.language
    group = replies.group_word(msg.platform, lang)
    if not _may_manage_chat(msg):
        return [voice.say("subscribe_admins_only", admins=replies.admins_word(msg.platform, lang), group=group,
                          private=replies.private_word(msg.platform, lang))]
    board_id = _subscription_board(turn)
    if board_id is None:
        turn.context.await_board("subscribe", msg.time, None, False)
        return [voice.say("subscribe_which_board")]
    name = voice.say("all_boards") if board_id == ALL_BOARDS else turn.knowledge.board(board_id).name
    if bot.dry_run:
        return [voice.say("would_subscribe", board=name)]
    new = bot.subscribe(msg, board_id, lang)
    in_group = msg.chat_kind == ChatKind.GROUP
    if not new:
        key = "group_already_subscribed" if in_group else "already_subscribed"
        return [voice.say(key, group=group, board=name)]
    return [voice.say("group_subscribed" if in_group else "subscribed", group=group, board=name)]


def on_unsubscribe(bot: Session, turn: Turn) -> list[str]:
    msg, voice = turn.msg, turn.voice
    lang = voice.language
    if not _may_manage_chat(msg):
        return [voice.say("unsubscribe_admins_only", admins=replies.admins_word(msg.platform, lang),
                          group=replies.group_word(msg.platform, lang))]
    board = turn.analysis.board.board_id if turn.analysis.board else None
    if bot.dry_run:
        return [voice.say("would_unsubscribe")]
    stopped = bot.unsubscribe(msg, board)
    if not stopped:
        return [voice.say("nothing_to_stop_board" if board else "nothing_to_stop")]
    knowledge = turn.knowledge
    names = ", ".join(voice.say("all_boards") if b == ALL_BOARDS else knowledge.board(b).name if knowledge.board(b) else b
                      for b in stopped)
    return [voice.say("unsubscribed", boards=names)]
