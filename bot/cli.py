"""The `schoolbot` command line: chat, ask, eval, kb (and serve and admin tools from their modules).

Platform libraries are imported only by the sub-commands that need them, so
`schoolbot ask` starts fast.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from adapters.errors import UsageError
from bot.settings import Settings, SettingsError, load_settings
from knowledge.loading import LoadError

log = logging.getLogger("schoolbot")


def parse_time(value: str, settings: Settings) -> datetime:
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        raise UsageError(f"--now: {value!r} is not an ISO 8601 time, e.g. 2019-10-03T09:00:00-04:00") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo(settings.knowledge.timezone))
    return moment


def _settings(args: argparse.Namespace) -> Settings:
    settings = load_settings(args.config)
    if getattr(args, "db", None):
        settings = settings.replace("database", path=args.db)
    return settings


# ------------------------------------------------------------------ commands
def cmd_chat(args: argparse.Namespace) -> int:
    from adapters.console import run_console
    from bot.app import build_bot

    settings = _settings(args)
    bot = build_bot(settings)
    start = parse_time(args.now, settings) if args.now else None
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
                now = parse_time(str(obj["now"]), settings)
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
    from bot.app import build_bot
    from bot.core import EphemeralMemory

    settings = _settings(args)
    bot = build_bot(settings, memory=EphemeralMemory(), dry_run=True)
    now = parse_time(args.now, settings) if args.now else bot.clock()
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


def cmd_eval(args: argparse.Namespace) -> int:
    from bot.app import build_bot
    from bot.core import EphemeralMemory
    from bot.evaluation import evaluate, read_jsonl

    settings = _settings(args)
    try:
        rows = read_jsonl(args.file)
    except FileNotFoundError:
        raise UsageError(f"{args.file}: no such file") from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    bot = build_bot(settings, memory=EphemeralMemory(), dry_run=True)
    report = evaluate(bot, rows)
    print(report.render(show_errors=args.errors))
    accuracy = report.accuracy("intent")
    if args.min_accuracy is not None and accuracy < args.min_accuracy:
        print(f"FAILED: intent accuracy {accuracy:.3f} is below {args.min_accuracy:.3f}", file=sys.stderr)
        return 1
    return 0


def cmd_kb_load(args: argparse.Namespace) -> int:
    from bot.app import open_knowledge
    from knowledge.loader import load_boards_file, load_knowledge_file
    from knowledge.loading import read_yaml

    settings = _settings(args)
    store = open_knowledge(settings)
    for path in args.files:
        data = read_yaml(path)
        if isinstance(data, dict) and "boards" in data:
            count = load_boards_file(store, path)
            print(f"{path}: {count} boards loaded")
        else:
            counts = load_knowledge_file(store, path)
            print(f"{path}: loaded " + ", ".join(f"{n} {name}" for name, n in counts.items()))
    return 0


def cmd_kb_show(args: argparse.Namespace) -> int:
    from bot.answers import STATUS_WORDS, when_published
    from bot.app import open_knowledge

    settings = _settings(args)
    store = open_knowledge(settings)
    knowledge = store.knowledge()
    if not args.board:
        with_status = {s.board for s in knowledge.statuses}
        print(f"{len(knowledge.boards)} boards ({len(with_status - {'all'})} with statuses), "
              f"{len(knowledge.facts)} facts, {len(knowledge.statuses)} statuses, "
              f"{len(knowledge.services)} withdrawn services, {len(knowledge.timeline)} timeline events "
              f"in {settings.database.path}")
        for board in knowledge.boards.values():
            mark = "*" if board.id in with_status else " "
            print(f"{mark} {board.id:<16} {board.name} ({board.system}, {board.language})")
        print("* = has statuses. Show one: schoolbot kb show BOARD")
        return 0
    from bot.boards import BoardFinder

    board = BoardFinder(knowledge.boards.values()).lookup(args.board)
    if board is None:
        raise UsageError(f"no board matches {args.board!r}; `schoolbot kb show` lists them")
    print(f"{board.name} ({board.id}), {board.system}, {board.language}")
    print(f"website: {board.website}")
    print(f"aliases: {', '.join(board.aliases) or '-'}")
    print(f"serves: {', '.join(board.municipalities) or '-'}")
    statuses = [s for s in knowledge.statuses if s.board in (board.id, "all")]
    print("statuses:" if statuses else "statuses: none (the bot says it has no confirmed information)")
    for s in statuses:
        until = s.until.isoformat() if s.until else "further notice"
        scope = "province-wide" if s.board == "all" else board.id
        retracted = " [undone]" if s.retracted else ""
        print(f"  {s.start} to {until} [{scope}] {STATUS_WORDS[s.status]}{retracted}\n"
              f"    {s.summary}\n    source {s.source}, as of {when_published(s.published)}")
    return 0


# ------------------------------------------------------------------- parser
Registrar = Callable[[argparse._SubParsersAction, argparse.ArgumentParser], None]


def extra_registrars() -> list[Registrar]:
    """Sub-commands defined in other modules (serve, admin tools). Imports stay light."""
    from adapters import (
        discord_bot,  # light: discord.py is imported only when its commands run
        serve,
    )
    from bot import cli_admin

    return [serve.register, cli_admin.register, discord_bot.register]


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", help="settings file (default: $SCHOOLBOT_CONFIG, else ./schoolbot.toml if present)")
    common.add_argument("--db", help="database file (overrides [database] path; created on first use)")

    parser = argparse.ArgumentParser(
        prog="schoolbot",
        description="Answers parents' questions during school job action, on Telegram, Discord and the console.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

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

    p = sub.add_parser("eval", parents=[common], help="score the bot on labelled questions (JSONL)")
    p.add_argument("file", help="e.g. ../shared/devset/questions.jsonl")
    p.add_argument("--min-accuracy", type=float, help="exit 1 when intent accuracy is below this")
    p.add_argument("--errors", type=int, default=0, metavar="N", help="also list the first N wrong answers")
    p.set_defaults(func=cmd_eval)

    kb = sub.add_parser("kb", help="load or show the knowledge base")
    kb_sub = kb.add_subparsers(dest="kb_command", metavar="ACTION", required=True)
    p = kb_sub.add_parser("load", parents=[common], help="validate and load YAML files (boards or knowledge)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(func=cmd_kb_load)
    p = kb_sub.add_parser("show", parents=[common], help="list boards, or show one board's statuses")
    p.add_argument("board", nargs="?")
    p.set_defaults(func=cmd_kb_show)

    for register in extra_registrars():
        register(sub, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args) or 0
    except (SettingsError, LoadError, UsageError) as exc:
        print(f"schoolbot: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
