"""`schoolbot kb load`, `kb show` and `kb export`: the knowledge base from the terminal."""

from __future__ import annotations

import argparse

from adapters.cli.common import open_from
from adapters.errors import UsageError


def cmd_kb_load(args: argparse.Namespace) -> int:
    from knowledge.loader import load_boards_file, load_knowledge_file
    from knowledge.loading import read_yaml

    _, store = open_from(args)
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

    settings, store = open_from(args)
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


def cmd_kb_export(args: argparse.Namespace) -> int:
    """Write the cards and other entries staff added in chat to a YAML pack that `kb load` reads."""
    import sys

    import yaml

    from bot.admin import export_pack

    _, store = open_from(args)
    pack = export_pack(store)
    text = ("# Added in chat (/teach, /setstatus, ...) and exported by `schoolbot kb export`.\n"
            + yaml.safe_dump(pack, allow_unicode=True, sort_keys=False, width=100))
    counts = ", ".join(f"{len(v)} {k}" for k, v in pack.items()) or "nothing added in chat yet"
    if args.file in (None, "-"):
        sys.stdout.write(text)
    else:
        with open(args.file, "w", encoding="utf-8") as out:
            out.write(text)
        print(f"{args.file}: {counts}")
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    kb = sub.add_parser("kb", help="load or show the knowledge base")
    kb_sub = kb.add_subparsers(dest="kb_command", metavar="ACTION", required=True)
    p = kb_sub.add_parser("load", parents=[common], help="validate and load YAML files (boards or knowledge)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(func=cmd_kb_load)
    p = kb_sub.add_parser("show", parents=[common], help="list boards, or show one board's statuses")
    p.add_argument("board", nargs="?")
    p.set_defaults(func=cmd_kb_show)
    p = kb_sub.add_parser("export", parents=[common], help="write what staff added in chat to a YAML pack")
    p.add_argument("file", nargs="?", metavar="FILE", help="default: standard output")
    p.set_defaults(func=cmd_kb_export)
