"""`schoolbot kb list|use|load|remove|validate|show|export`: knowledge packs from the terminal (docs/packs.md)."""

from __future__ import annotations

import argparse
import os

from adapters.cli.common import open_from, settings_from
from adapters.errors import UsageError


def shipped_pack(name: str) -> str | None:
    """The file of a pack shipped with schoolbot (config/knowledge/, inside the package once installed) by its
    id, when `name` is one and not a file here: `kb load cupe-2022-walkout` works from a wheel too."""
    from bot.settings import CONFIG_DIR
    from knowledge.fields import ID_PATTERN

    if not ID_PATTERN.match(name) or os.path.exists(name):
        return None
    for folder in ("knowledge", "regions"):  # packs, then regions (`kb load alberta`)
        path = CONFIG_DIR / folder / f"{name}.yaml"
        if path.is_file():
            return str(path)
    return None


def cmd_kb_load(args: argparse.Namespace) -> int:
    from knowledge.loader import load_boards_file, load_region_file, validate_knowledge_file
    from knowledge.loading import read_yaml

    _, store = open_from(args, create=True)  # loading a pack is a way to start a database
    for path in args.files:
        path = shipped_pack(path) or path
        data = read_yaml(path)
        if isinstance(data, dict) and "region" in data:
            region, count = load_region_file(store, path)
            print(f"{path}: region {region.id} loaded ({region.name}, time zone {region.timezone}, languages "
                  f"{' '.join(region.languages)}): {count} boards; packs naming `region: {region.id}` use them")
            continue
        if isinstance(data, dict) and "boards" in data and "pack" not in data:
            count = load_boards_file(store, path)
            print(f"{path}: {count} boards loaded as the default region's boards (other regions' boards stay)")
            continue
        kfile = validate_knowledge_file(store, path)
        counts = store.load_file(kfile)
        pack = next(p for p in store.packs() if p["origin"] == str(path))
        state = ("active" if pack["active"] else
                 f"not active: `schoolbot kb use {pack['id']}` to switch to it, or "
                 f"`schoolbot kb use {' '.join([*store.active_pack_ids(), pack['id']])}` to add it")
        print(f"{path}: pack {pack['id']} loaded: " + ", ".join(f"{n} {name}" for name, n in counts.items())
              + f" ({state})")
        if kfile.warnings:
            print(f"  {len(kfile.warnings)} warning(s), e.g. {kfile.warnings[0]}; all: schoolbot kb validate {path}")
    return 0


def cmd_kb_validate(args: argparse.Namespace) -> int:
    """Check region and pack files: a pack against the boards of every region in the database (or, when there
    is no database yet, of the shipped region), and of the region files named before it (validating never
    creates a database)."""
    from knowledge.loading import load_knowledge
    from knowledge.regions import is_region_file, load_region

    settings = settings_from(args)
    if os.path.isfile(settings.database.path):
        boards = open_from(args)[1].board_ids()
    else:
        boards = [board.id for board in load_region(settings.knowledge.region)[1]]
    for path in args.files:
        path = shipped_pack(path) or path
        if is_region_file(path):
            region, region_boards = load_region(path)
            boards += [b.id for b in region_boards]
            print(f"{path}: region {region.id} ({region.name}) is valid: time zone {region.timezone}, languages "
                  f"{' '.join(region.languages)}, {len(region_boards)} boards; nothing loaded")
            continue
        kfile = load_knowledge(path, boards)
        entries = {"sources": kfile.sources, "facts": kfile.facts, "cards": kfile.cards, "statuses": kfile.statuses,
                   "withdrawn_services": kfile.withdrawn_services, "timeline": kfile.timeline}
        print(f"{path}: pack {kfile.pack.id} ({kfile.pack.title}) is valid: "
              + ", ".join(f"{len(v)} {k}" for k, v in entries.items()) + "; nothing loaded")
        if kfile.warnings:  # every one: `kb load` points here to see them all
            print(f"  {len(kfile.warnings)} warning(s):")
        for warning in kfile.warnings:
            print(f"  warning: {warning}")
    return 0


def cmd_kb_list(args: argparse.Namespace) -> int:
    settings, store = open_from(args)
    packs = store.packs()
    if not packs:
        print(f"no pack in {settings.database.path}; load one: schoolbot kb load FILE")
        return 0
    for pack in packs:
        mark = "*" if pack["active"] else " "
        counts = ", ".join(f"{n} {k}" for k, n in pack["counts"].items() if n)
        ended = f" (ended {pack['ended'][:10]})" if pack["ended"] else ""
        print(f"{mark} {pack['id']:<24} {pack['title']}{ended}\n    {counts or 'empty'}; from {pack['origin']}")
    print("* = active (answers come from these). Switch: schoolbot kb use PACK [PACK...]")
    return 0


def cmd_kb_use(args: argparse.Namespace) -> int:
    from knowledge.loader import load_knowledge_file

    _, store = open_from(args)
    have = {p["id"] for p in store.packs()}
    for pack in args.packs:
        path = shipped_pack(pack) if pack not in have else None
        if path is not None:  # a shipped pack not loaded yet (cupe-2022-walkout): loaded on first use
            load_knowledge_file(store, path)
            print(f"{pack}: loaded from the shipped packs ({path})")
    try:
        store.use_packs(args.packs)
    except KeyError as missing:
        known = ", ".join(p["id"] for p in store.packs()) or "none"
        raise UsageError(f"no pack {missing.args[0]} in the database (known: {known}); "
                         "load it first: schoolbot kb load FILE (the pack's id is its header's `id:`)") from None
    print("active: " + ", ".join(args.packs) + (" (staff changes in chat go into "
                                                f"{args.packs[0]})" if len(args.packs) > 1 else ""))
    return 0


def cmd_kb_remove(args: argparse.Namespace) -> int:
    _, store = open_from(args)
    try:
        counts = store.remove_pack(args.pack)
    except KeyError:
        raise UsageError(f"no pack {args.pack} in the database; `schoolbot kb list` shows them") from None
    print(f"pack {args.pack} removed: " + ", ".join(f"{n} {k}" for k, n in counts.items())
          + (f". Active now: {', '.join(store.active_pack_ids())}" if store.active_pack_ids()
             else ". No pack is active now: schoolbot kb use PACK"))
    return 0


def cmd_kb_show(args: argparse.Namespace) -> int:
    from bot.answers import when_published
    from knowledge.packs import PackInfo

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
        words = knowledge.packs.get(s.pack, PackInfo("", "")).status_words(s.status)
        print(f"  {s.start} to {until} [{scope}] {words}{retracted}\n"
              f"    {s.summary}\n    source {s.source}, as of {when_published(s.published)}")
    return 0


def cmd_kb_export(args: argparse.Namespace) -> int:
    """Write a whole pack (`kb export PACK [FILE]`), or what staff added in chat (`kb export [FILE]`), as YAML.

    The file is written whole or not at all, never over the database, another SQLite file or through a link,
    and over an existing file only with --force (bot.files)."""
    import sys

    import yaml

    from bot.files import write_file

    settings, store = open_from(args)
    packs = [p["id"] for p in store.packs()]
    target, file = args.target, args.file
    if target in packs:
        from knowledge.pack_export import export_whole_pack

        pack = export_whole_pack(store, target)
        head = f"# Pack {target}, exported by `schoolbot kb export` (file entries and those made in chat).\n"
    else:
        if file is not None or (target not in (None, "-") and not _names_a_file(target)):
            raise UsageError(f"no pack {target} in the database (known: {', '.join(packs) or 'none'}); "
                             "`kb export FILE.yaml` without a pack writes what staff added in chat")
        from bot.admin import export_pack

        file, pack = target, export_pack(store)
        head = "# Added in chat (/teach, /setstatus, ...) and exported by `schoolbot kb export`.\n"
    text = head + yaml.safe_dump(pack, allow_unicode=True, sort_keys=False, width=100)
    counts = ", ".join(f"{len(v)} {k}" for k, v in pack.items() if k != "pack") or "nothing added in chat yet"
    if file in (None, "-"):
        sys.stdout.write(text)
    else:
        write_file(file, text, database=settings.database.path, replace=args.force)
        print(f"{file}: {counts}")
    return 0


def _names_a_file(word: str) -> bool:
    """A lone argument that is a file (a folder in it, or an extension) rather than a mistyped pack id."""
    return "/" in word or os.sep in word or bool(os.path.splitext(word)[1])


SUBCOMMANDS = ("kb",)  # the subcommands register() adds


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    kb = sub.add_parser("kb", help="knowledge packs: list, use, load, remove, validate, show, export")
    kb_sub = kb.add_subparsers(dest="kb_command", metavar="ACTION", required=True)
    p = kb_sub.add_parser("list", parents=[common], help="every pack in the database, the active ones marked")
    p.set_defaults(func=cmd_kb_list)
    p = kb_sub.add_parser("use", parents=[common], help="answer from these packs only (the first gets chat changes)")
    p.add_argument("packs", nargs="+", metavar="PACK")
    p.set_defaults(func=cmd_kb_use)
    p = kb_sub.add_parser("load", parents=[common],
                          help="validate and load YAML files (boards, or a pack: replaces that pack's file entries)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(func=cmd_kb_load)
    p = kb_sub.add_parser("validate", parents=[common], help="check pack files without loading them")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(func=cmd_kb_validate)
    p = kb_sub.add_parser("remove", parents=[common], help="delete a pack and all its entries from the database")
    p.add_argument("pack", metavar="PACK")
    p.set_defaults(func=cmd_kb_remove)
    p = kb_sub.add_parser("show", parents=[common], help="list boards, or show one board's statuses")
    p.add_argument("board", nargs="?")
    p.set_defaults(func=cmd_kb_show)
    p = kb_sub.add_parser("export", parents=[common],
                          help="write a whole pack (PACK [FILE]) or what staff added in chat ([FILE]) as YAML")
    p.add_argument("target", nargs="?", metavar="PACK", help="a pack id; without one, what staff added in chat")
    p.add_argument("file", nargs="?", metavar="FILE", help="default: standard output")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists (never the database)")
    p.set_defaults(func=cmd_kb_export)
