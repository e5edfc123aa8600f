"""`schoolbot chat`, `ask` and `eval`: questions to the bot from the terminal."""

from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import closing, contextmanager
from datetime import datetime

from adapters.cli.common import parse_time, settings_from
from adapters.errors import UsageError
from bot.settings import Settings


def cmd_chat(args: argparse.Namespace) -> int:
    from adapters.console import run_console
    from bot.app import build_bot, settle_after_build

    settings = settings_from(args)
    bot = build_bot(settings)
    settle_after_build()
    with closing(bot.store):  # what is held written, the write-ahead log checkpointed into the file
        start = parse_time(args.now, bot.tz) if args.now else None
        board = None
        if args.board:
            found = bot.boards.lookup(args.board)
            if found is None:
                raise UsageError(f"--board: no board matches {args.board!r}")
            board = found.id
        return run_console(bot, start=start, board=board)


def _ask_line(bot, index: int, line: str, default_now: datetime, default_board: str | None, settings: Settings) -> dict:
    from bot.evaluation import answer_one

    text, now, board = line, default_now, default_board
    stripped = line.strip()
    if stripped.startswith("{"):
        try:
            obj = json.loads(stripped)
        except json.JSONDecodeError as exc:
            return {"error": f"line {index + 1}: not valid JSON: {exc.msg}"}
        if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
            return {"error": f"line {index + 1}: a JSON line needs a \"text\" string"}
        text = obj["text"]
        try:
            if obj.get("now"):
                now = parse_time(str(obj["now"]), bot.tz)
        except UsageError as exc:
            return {"error": f"line {index + 1}: {exc}".replace("--now: ", "now: ")}
        given = obj.get("board") or obj.get("user_board")
        if given:
            board = _board_id(bot, str(given))
            if board is None:
                return {"error": f"line {index + 1}: no board matches {given!r}"}
    response = answer_one(bot, index, text, now, board)
    return {
        "intent": response.intent,
        "board": response.board,
        "date": response.date.isoformat() if response.date else None,
        "reply": response.text,
        "confidence": round(float(response.confidence), 3),
    }


def _board_id(bot, query: str) -> str | None:
    board = bot.boards.lookup(query)
    return board.id if board else None


def cmd_ask(args: argparse.Namespace) -> int:
    from bot.app import build_bot, settle_after_build
    from bot.core import EphemeralMemory

    settings = settings_from(args)
    bot = build_bot(settings, memory=EphemeralMemory(), dry_run=True)
    settle_after_build(long_lived=args.text is None)  # one question: the process ends right after it
    with closing(bot.store):  # a first `ask` filled a new database: checkpointed into the file at the end
        return _ask(args, bot, settings)


def _ask(args: argparse.Namespace, bot, settings: Settings) -> int:
    now = parse_time(args.now, bot.tz) if args.now else bot.clock()
    board = None
    if args.board:
        board = _board_id(bot, args.board)
        if board is None:
            raise UsageError(f"--board: no board matches {args.board!r}")
    lines = [args.text] if args.text is not None else sys.stdin
    out = sys.stdout
    for index, line in enumerate(lines):
        if args.text is None:
            line = line.rstrip("\n")
        result = _ask_line(bot, index, line, now, board, settings)
        if args.json:
            out.write(json.dumps(result, ensure_ascii=False) + "\n")
        elif "error" in result:
            out.write(f"error: {result['error']}\n")
        elif args.text is not None:
            out.write(result["reply"] + "\n")
        else:  # one output line per input line
            out.write(result["reply"].replace("\n", " ") + "\n")
        out.flush()
    return 0


QUESTION_BARS = ("min_accuracy", "min_reply_words", "min_up_front")  # for question files only
CONVERSATION_OPTIONS = ("min_turns", "min_followups", "transcript")  # for conversation files only


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _read(reader, path: str):
    """What `reader` makes of the file; a missing or wrong file is one line (UsageError).

    The file is read by knowledge.reading (a missing file, a folder, a FIFO: a LoadError, a ValueError)."""
    try:
        return reader(path)
    except ValueError as exc:  # file:line: what is wrong (a bad byte in the file too)
        raise UsageError(str(exc)) from None


def cmd_eval(args: argparse.Namespace) -> int:
    from bot.conversation_eval import file_kind

    settings = settings_from(args)
    if _read(file_kind, args.file) == "conversations":
        given = [_option(name) for name in QUESTION_BARS if getattr(args, name) is not None]
        if given:
            raise UsageError(f"{given[0]} is for question files; {args.file} holds conversations "
                             "(use --min-turns or --min-followups)")
        return _eval_conversations(args, settings)
    given = [_option(name) for name in CONVERSATION_OPTIONS if getattr(args, name) is not None]
    if given:
        raise UsageError(f"{given[0]} is for conversation files; {args.file} has no conversation (no line with \"turns\")")
    return _eval_questions(args, settings)


def _eval_questions(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app import build_bot, settle_after_build
    from bot.core import EphemeralMemory
    from bot.evaluation import evaluate, read_jsonl

    rows = _read(read_jsonl, args.file)
    bot = build_bot(settings, memory=EphemeralMemory(), dry_run=True)
    settle_after_build()
    report = evaluate(bot, rows)
    print(report.render(show_errors=args.errors))
    accuracy = report.accuracy("intent")
    if args.min_accuracy is not None and accuracy < args.min_accuracy:
        print(f"FAILED: intent accuracy {accuracy:.3f} is below {args.min_accuracy:.3f}", file=sys.stderr)
        return 1
    words, checked = report.reply_words()
    if args.min_reply_words is not None and checked and words < args.min_reply_words:
        print(f"FAILED: reply words {words:.3f} is below {args.min_reply_words:.3f}", file=sys.stderr)
        return 1
    front, checked = report.up_front()
    if args.min_up_front is not None and checked and front < args.min_up_front:
        print(f"FAILED: answer up front {front:.3f} is below {args.min_up_front:.3f}", file=sys.stderr)
        return 1
    return 0


def _eval_conversations(args: argparse.Namespace, settings: Settings) -> int:
    from bot.conversation_eval import evaluate_conversations, read_conversations

    conversations = _read(read_conversations, args.file)
    transcript = None
    if args.transcript:
        try:  # opened first: a wrong path is said before the run, not after it
            transcript = open(args.transcript, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise UsageError(f"--transcript: {args.transcript}: {exc.strerror or exc}") from None
    try:
        with _scratch_bot(settings) as bot:
            report = evaluate_conversations(bot, conversations)
        if transcript is not None:
            transcript.write(report.transcript())
    finally:
        if transcript is not None:
            transcript.close()
    print(report.render(show_errors=args.errors))
    code = 0
    for name, label, (share, counted) in (("min_turns", "turns passing", report.passing()),
                                          ("min_followups", "follow-ups passing", report.followups())):
        bar = getattr(args, name)
        if bar is None:
            continue
        if not counted:
            print(f"note: {_option(name)} not applied: no {label.split()[0]} in {args.file}", file=sys.stderr)
        elif share < bar:
            print(f"FAILED: {label} {share:.3f} is below {bar:.3f}", file=sys.stderr)
            code = 1
    return code


@contextmanager
def _scratch_bot(settings: Settings):
    """A bot answering as `schoolbot chat` does (it subscribes, remembers a language, logs the question),
    on a copy of the database in a temporary folder: conversations go as parents see them, and the
    database itself is left as it was. The prepared matcher and cards still come from beside it."""
    import tempfile

    from bot.app import build_bot, open_knowledge, settle_after_build
    from knowledge.database_file import copy_store
    from knowledge.store import open_store

    with tempfile.TemporaryDirectory(prefix="schoolbot-eval-") as folder:
        path = os.path.join(folder, "schoolbot.db")
        original = open_knowledge(settings)
        try:
            copy_store(original, path)
        finally:
            original.close()
        store = open_store(path)
        try:
            bot = build_bot(settings, store=store)  # settings: the database's cache of prepared matcher and cards
            settle_after_build()
            yield bot
        finally:
            store.close()


SUBCOMMANDS = ("chat", "ask", "eval")  # the subcommands register() adds


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("chat", parents=[common], help="chat with the bot in this terminal (no token needed)")
    p.add_argument("--now", help="the clock, ISO 8601, e.g. 2019-10-03T09:00:00-04:00 (default: now)")
    p.add_argument("--board", help="the board you set earlier, e.g. tdsb")
    p.set_defaults(func=cmd_chat)

    p = sub.add_parser("ask", parents=[common], help="answer one question, or one per stdin line")
    p.add_argument("text", nargs="?", help="the question; without it, read one question per line from stdin")
    p.add_argument("--board", help="the board the user set earlier")
    p.add_argument("--now", help="the clock, ISO 8601 (default: now)")
    p.add_argument("--json", action="store_true", help="one JSON object per answer: intent, board, date, reply, confidence")
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser(
        "eval", parents=[common], help="score the bot on labelled questions or on conversations (JSONL)",
        description="Score the bot on a JSONL file of labelled questions (one question a line) or of conversations "
                    "(lines with \"turns\"; a file holds one kind). The --min-* bars exit 1 when a figure is "
                    "below them; a bar or option for the other kind of file is a usage error (exit 2).",
    )
    p.add_argument("file", help="e.g. ../shared/devset/questions.jsonl or ../shared/devset/conversations.jsonl")
    p.add_argument("--min-accuracy", type=float, help="questions: exit 1 when intent accuracy is below this")
    p.add_argument("--min-reply-words", type=float,
                   help="questions: exit 1 when the reply-words pass rate is below this")
    p.add_argument("--min-up-front", type=float,
                   help="questions: exit 1 when the share of replies with their words in the first 160 characters "
                        "is below this")
    p.add_argument("--min-turns", type=float,
                   help="conversations: exit 1 when the share of turns passing every check is below this")
    p.add_argument("--min-followups", type=float,
                   help="conversations: exit 1 when the share of follow-up turns passing is below this "
                        "(not applied, with a note, when no turn is a follow-up)")
    p.add_argument("--transcript", metavar="FILE",
                   help="conversations: write every conversation as text to read and grade "
                        "(the clock, you>/bot>, PASS or FAIL and why)")
    p.add_argument("--errors", type=int, default=0, metavar="N",
                   help="also list the first N wrong answers (questions) or failing turns (conversations)")
    p.set_defaults(func=cmd_eval)
