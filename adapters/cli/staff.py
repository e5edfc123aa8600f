"""Staff commands: `schoolbot broadcast`, `deliveries`, `deliver` and `audit`.

`broadcast` writes to the outbox (the same one the chat /broadcast uses); a
running `schoolbot serve`, or `schoolbot deliver --once`, delivers it. This
module imports nothing heavy at import time: the CLI starts fast.
"""

from __future__ import annotations

import argparse
import getpass
import sys
import time
from datetime import datetime
from pathlib import Path

from adapters.cli.common import configured_platforms, open_from
from adapters.errors import PlatformStopped, UsageError

CLI_PLATFORM = "cli"


def _author() -> str:
    try:
        return getpass.getuser()
    except Exception:
        return "unknown"


# ----------------------------------------------------------------- broadcast
def cmd_broadcast(args: argparse.Namespace) -> int:
    from zoneinfo import ZoneInfo

    from bot.outbox import BroadcastError, Outbox, board_title, broadcast_text, check_broadcast
    from knowledge.model import ALL_BOARDS

    settings, store = open_from(args)
    if args.text is None and args.text_file is None:
        raise UsageError("give the message with --text TEXT or --text-file FILE (- for stdin)")
    if args.text_file is not None:
        body = sys.stdin.read() if args.text_file == "-" else Path(args.text_file).read_text(encoding="utf-8")
        body = body.rstrip("\n")
    else:
        body = args.text
    try:
        check_broadcast(body, settings.limits.broadcast_max_chars)
    except BroadcastError as exc:
        raise UsageError(str(exc)) from None
    knowledge = store.knowledge()
    query = args.board.strip().lower()
    if query == ALL_BOARDS:
        board_id = ALL_BOARDS
    else:
        from bot.boards import BoardFinder

        board = BoardFinder(knowledge.boards.values()).lookup(query)  # ids first, then names, places, typos
        if board is None:
            raise UsageError(f"--board: no board matches {args.board!r}; `schoolbot kb show` lists them")
        board_id = board.id
    name = board_title(knowledge, board_id)
    outbox = Outbox(store)
    now = datetime.now(ZoneInfo(settings.knowledge.timezone))
    text = broadcast_text(name, now, body)
    counts = outbox.recipients(board_id)
    total = sum(counts.values())
    if total == 0:
        print(f"Nobody is subscribed to updates for {name}; nothing to send.")
        return 1
    by_platform = ", ".join(f"{p} {n:,}" for p, n in sorted(counts.items()))
    print(f"Broadcast to {total:,} recipients ({by_platform}). They will see exactly this:")
    print("-----\n" + text + "\n-----")
    if not args.yes:
        if not sys.stdin.isatty() or args.text_file == "-":
            raise UsageError("not sent: add --yes to send without asking (stdin is not a terminal)")
        answer = input("Send it? [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            print("Not sent.")
            return 1
    author = f"{CLI_PLATFORM}:{_author()}"
    broadcast_id = outbox.create(
        board_id, body, text, author, at=now,
        audit={"platform": CLI_PLATFORM, "user_id": _author(), "action": "broadcast"},
    )
    print(f"Broadcast #{broadcast_id} is in the outbox for {total:,} recipients.")
    if args.no_wait:
        print("A running `schoolbot serve` delivers it (or run `schoolbot deliver --once`); "
              f"`schoolbot deliveries {broadcast_id}` shows its state.")
        return 0
    return follow(outbox, broadcast_id, interval=args.interval)


def follow(outbox, broadcast_id: int, *, interval: float = 0.5, out=None, timeout: float | None = None) -> int:
    """Print a progress bar that follows the outbox until the broadcast is done."""
    from bot.admin import progress_bar
    from bot.outbox import LEASE_STALE_SECONDS

    out = out or sys.stdout
    tty = out.isatty()
    last_line, last_print, warned = None, 0.0, False
    started = time.monotonic()
    while True:
        progress = outbox.progress(broadcast_id)
        line = (f"{progress_bar(progress.done_count, progress.total)} {progress.done_count:,}/{progress.total:,}  "
                f"delivered {progress.delivered:,}  failed {progress.failed:,}  blocked {progress.blocked:,}")
        now = time.monotonic()
        if tty:
            out.write("\r" + line)
            out.flush()
        elif line != last_line and (now - last_print >= 2 or progress.done):
            out.write(line + "\n")
            out.flush()
            last_print = now
        last_line = line
        if progress.done:
            if tty:
                out.write("\n")
            out.write(f"Done: {progress.delivered:,} delivered, {progress.failed:,} failed, "
                      f"{progress.blocked:,} blocked of {progress.total:,}.\n")
            out.flush()
            return 0
        if not warned and now - started > 5:
            pending = set(outbox.pending_platforms())
            alive = {w["platform"] for w in outbox.workers() if time.time() - w["heartbeat"] < LEASE_STALE_SECONDS}
            if pending - alive:
                out.write(("\n" if tty else "") + "No delivery worker is running for " + ", ".join(sorted(pending - alive))
                          + ": start `schoolbot serve`, or run `schoolbot deliver --once` in another terminal. "
                          "Waiting (Ctrl-C stops waiting; the broadcast stays in the outbox).\n")
                out.flush()
                warned = True
        if timeout is not None and now - started > timeout:
            return 1
        time.sleep(interval)


# ---------------------------------------------------------------- deliveries
def cmd_deliveries(args: argparse.Namespace) -> int:
    from bot.admin import progress_bar
    from bot.outbox import Outbox

    _, store = open_from(args)
    outbox = Outbox(store)
    if args.id is not None:
        p = outbox.progress(args.id)
        if p is None:
            raise UsageError(f"no broadcast #{args.id}")
        print(f"{progress_bar(p.done_count, p.total)} {p.line()}")
        print(f"created {p.created} by {p.author}" + (f", finished {p.finished}" if p.finished else ""))
        for platform, states in sorted(outbox.by_platform(p.id).items()):
            print(f"  {platform}: " + ", ".join(f"{s} {n:,}" for s, n in sorted(states.items())))
        problems = store.conn.execute(
            "SELECT platform, chat_id, state, attempts, detail FROM deliveries WHERE broadcast_id = ? "
            "AND (state IN ('failed', 'blocked') OR (state = 'pending' AND attempts > 0)) ORDER BY id LIMIT 20",
            (p.id,),
        ).fetchall()
        for platform, chat, state, attempts, detail in problems:
            print(f"  {state:<8} {platform}:{chat} after {attempts} attempt(s): {detail or '-'}")
        print("text:\n" + p.body)
        return 0
    rows = outbox.recent(args.limit)
    if not rows:
        print("No broadcasts yet.")
        return 0
    for p in rows:
        print(f"{progress_bar(p.done_count, p.total, width=20)} {p.line()}  ({p.created[:16].replace('T', ' ')}, {p.author})")
    workers = outbox.workers()
    if workers:
        print("workers: " + ", ".join(f"{w['platform']} (pid {w['pid']} on {w['host']})" for w in workers))
    return 0


# ------------------------------------------------------------------- deliver
async def _deliver(settings, store, platforms: list[str], once: bool) -> dict:
    from contextlib import AsyncExitStack

    from bot.outbox import run_workers

    async with AsyncExitStack() as stack:
        senders = []
        for platform in platforms:
            if platform == "telegram":
                from adapters.telegram import open_sender
            else:
                from adapters.discord_bot.runner import open_sender
            senders.append(await stack.enter_async_context(open_sender(settings)))
        return await run_workers(store, senders, settings, once=once)


def cmd_deliver(args: argparse.Namespace) -> int:
    import asyncio

    from bot.outbox import Outbox

    settings, store = open_from(args)
    senders_for = [p for p in configured_platforms(settings) if not args.platform or p in args.platform]
    if not senders_for:
        raise UsageError("no platform to deliver to: set [telegram] token or [discord] token in the settings")
    outbox = Outbox(store)
    waiting = [p for p in outbox.pending_platforms() if p not in senders_for]
    try:
        results = asyncio.run(_deliver(settings, store, senders_for, args.once))
    except PlatformStopped as exc:  # one line, e.g. a rejected token (never the token itself)
        print(f"schoolbot: {exc}", file=sys.stderr)
        return 1
    for platform, stats in results.items():
        if stats.busy_with:
            holder = stats.busy_with
            print(f"{platform}: another worker is delivering (pid {holder['pid']} on {holder['host']}); "
                  "nothing done. `schoolbot deliveries` shows progress.")
            continue
        print(f"{platform}: {stats.sent:,} delivered, {stats.failed:,} failed, {stats.blocked:,} blocked, "
              f"{stats.retried:,} retries" + (f", {stats.recovered:,} resent after an interrupted run" if stats.recovered else ""))
    if waiting:
        print("still waiting, no sender configured: " + ", ".join(waiting))
    return 0


# --------------------------------------------------------------------- audit
def cmd_audit(args: argparse.Namespace) -> int:
    from bot.admin import format_audit

    _, store = open_from(args)
    rows = store.audit_rows(args.limit)
    if not rows:
        print("The audit log is empty.")
        return 0
    for row in reversed(rows):
        print(format_audit(row))
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("broadcast", parents=[common], help="send an update to a board's subscribers (through the outbox)")
    p.add_argument("--board", required=True, help="board id (tdsb) or 'all'")
    p.add_argument("--text", help="the message, sent plain and verbatim under a header naming the board and time")
    p.add_argument("--text-file", help="read the message from a file (- for stdin)")
    p.add_argument("--yes", action="store_true", help="send without asking")
    p.add_argument("--no-wait", action="store_true", help="return once it is in the outbox")
    p.add_argument("--interval", type=float, default=0.5, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_broadcast)

    p = sub.add_parser("deliveries", parents=[common], help="broadcasts and their delivery state")
    p.add_argument("id", nargs="?", type=int, help="one broadcast, in detail")
    p.add_argument("-n", "--limit", type=int, default=10)
    p.set_defaults(func=cmd_deliveries)

    p = sub.add_parser("deliver", parents=[common], help="deliver the outbox with the configured platforms")
    p.add_argument("--once", action="store_true", help="exit when the outbox is empty (default: keep running)")
    p.add_argument("--platform", action="append", choices=["telegram", "discord"], help="only this platform (repeatable)")
    p.set_defaults(func=cmd_deliver)

    p = sub.add_parser("audit", parents=[common], help="the latest admin actions")
    p.add_argument("-n", "--limit", type=int, default=20)
    p.set_defaults(func=cmd_audit)
