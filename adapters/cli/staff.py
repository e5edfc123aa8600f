"""Staff commands: `schoolbot broadcast`, `deliveries` and `deliver` (`audit` is in adapters/cli/roles.py).

`broadcast` writes to the outbox (the same one the chat /broadcast uses); a
running `schoolbot serve` or `schoolbot deliver`, `schoolbot deliver --once`, or
`broadcast --deliver` (in this process) delivers it. Without a running worker,
`broadcast` says so and exits instead of waiting. This
module imports nothing heavy at import time: the CLI starts fast.
"""

from __future__ import annotations

import argparse
import getpass
import sys
import time
from datetime import datetime

from adapters.cli.common import open_from
from adapters.errors import PlatformStopped, UsageError
from knowledge.reading import read_text

CLI_PLATFORM = "cli"


def _author() -> str:
    try:
        return getpass.getuser()
    except Exception:
        return "unknown"


# ----------------------------------------------------------------- broadcast
def cmd_broadcast(args: argparse.Namespace) -> int:
    from bot.admin.broadcasting import plan_broadcast, preview_broadcast, queue
    from bot.broadcast import BroadcastError, Outbox, board_title
    from bot.core import time_zone
    from knowledge.model import ALL_BOARDS

    settings, store = open_from(args)
    if args.text is None and args.text_file is None:
        raise UsageError("give the message with --text TEXT or --text-file FILE (- for stdin)")
    if args.text_file is not None:
        body = sys.stdin.read() if args.text_file == "-" else read_text(args.text_file)
        body = body.rstrip("\n")
    else:
        body = args.text
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
    now = datetime.now(time_zone(settings, store.knowledge()))
    author = _author()
    try:
        plan = plan_broadcast(knowledge, outbox, f"{CLI_PLATFORM}:{author}", query, board_id, body,
                              now, settings.limits.broadcast_max_chars)
    except BroadcastError as exc:
        raise UsageError(str(exc)) from None
    total = plan.recipients.total
    if total == 0:
        print(f"Nobody is subscribed to updates for {name}; nothing to send.")
        return 1
    print(preview_broadcast(plan, "en"))  # the very preview staff see in chat
    if not args.yes:
        if not sys.stdin.isatty() or args.text_file == "-":
            raise UsageError("not sent: add --yes to send without asking (stdin is not a terminal)")
        answer = input("Send it? [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            print("Not sent.")
            return 1
    broadcast_id = queue(outbox, plan, name=author)  # audited as cli:<os user>, as `schoolbot grant` is
    print(f"Broadcast #{broadcast_id} is in the outbox for {total:,} recipients.")
    if args.deliver:
        return deliver_now(settings, store, outbox, broadcast_id)
    if args.no_wait:
        print("A running `schoolbot serve` or `schoolbot deliver` delivers it (or run `schoolbot deliver --once`); "
              f"`schoolbot deliveries {broadcast_id}` shows its state.")
        return 0
    return follow(outbox, broadcast_id, interval=args.interval, grace=args.grace)


def follow(outbox, broadcast_id: int, *, interval: float = 0.5, out=None, grace: float = 3.0) -> int:
    """Print a progress bar that follows the outbox until the broadcast is done.

    Returns early, saying how to deliver it, once no running worker is delivering
    what is left (none was running, or the last one stopped); `grace` seconds are
    left for a worker that is just starting.
    """
    from adapters.platforms import later_notes
    from bot.admin import progress_bar
    from bot.broadcast.lease import live_platforms

    out = out or sys.stdout
    delivered_later = set(later_notes())
    tty = out.isatty()
    last_line, last_print = None, 0.0
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
        left = set(outbox.pending_platforms(broadcast_id))
        if left and not left & live_platforms(outbox.store) and (now - started >= grace or left <= delivered_later):
            if tty:
                out.write("\n")
            out.write(nobody_delivering(left, broadcast_id))
            out.flush()
            return 0
        time.sleep(interval)


def nobody_delivering(platforms: set[str], broadcast_id: int) -> str:
    """What to do when rows for `platforms` wait and no worker is running for them."""
    from adapters.platforms import later_notes

    notes = later_notes()
    lines = []
    others = sorted(platforms - set(notes))
    if others:
        lines.append(f"No delivery worker is running for {', '.join(others)}. Start one with `schoolbot deliver` "
                     "(or `schoolbot serve`), deliver what is waiting and exit with `schoolbot deliver --once`, "
                     "or add --deliver to `schoolbot broadcast` to deliver from there.")
    lines.extend(note for name, note in notes.items() if name in platforms)
    lines.append(f"The broadcast stays in the outbox; `schoolbot deliveries {broadcast_id}` shows its state.")
    return "\n".join(lines) + "\n"


def deliver_now(settings, store, outbox, broadcast_id: int) -> int:
    """`broadcast --deliver`: deliver the outbox in this process, with each configured platform, then exit."""
    import asyncio

    from adapters.platforms import configured, later_notes, token_variables

    left = set(outbox.pending_platforms(broadcast_id))
    platforms = [p for p in configured(settings) if p.name in left]
    if platforms:
        print(f"Delivering from here ({', '.join(p.name for p in platforms)}) ...")
        try:
            results = asyncio.run(_deliver(settings, store, platforms, once=True))
        except PlatformStopped as exc:  # one line, e.g. a rejected token (never the token itself)
            print(f"schoolbot: {exc}", file=sys.stderr)
            return 1
        _print_results(results)
    progress = outbox.progress(broadcast_id)
    print(f"#{broadcast_id}: {progress.delivered:,} delivered, {progress.failed:,} failed, "
          f"{progress.blocked:,} blocked of {progress.total:,}.")
    left = set(outbox.pending_platforms(broadcast_id))
    notes = later_notes()
    unconfigured = sorted(left - {p.name for p in platforms} - set(notes))
    if unconfigured:
        print(f"Not delivered to {', '.join(unconfigured)}: no token is configured here "
              f"(set {' / '.join(token_variables())}, then `schoolbot deliver --once`).")
    for name, note in notes.items():
        if name in left:
            print(note)
    return 0 if not unconfigured else 1


def _print_results(results: dict) -> None:
    for platform, stats in results.items():
        if stats.busy_with:
            holder = stats.busy_with
            print(f"{platform}: another worker is delivering (pid {holder['pid']} on {holder['host']}); "
                  "nothing done. `schoolbot deliveries` shows progress.")
            continue
        print(f"{platform}: {stats.sent:,} delivered, {stats.failed:,} failed, {stats.blocked:,} blocked, "
              f"{stats.retried:,} retries" + (f", {stats.recovered:,} resent after an interrupted run" if stats.recovered else "")
              + (f"; stopped: {stats.stopped}" if stats.stopped else ""))


# ---------------------------------------------------------------- deliveries
def cmd_deliveries(args: argparse.Namespace) -> int:
    from bot.admin import progress_bar
    from bot.broadcast import Outbox

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
        for platform, chat, state, attempts, detail in outbox.troubled(p.id):
            print(f"  {state:<8} {platform}:{chat} after {attempts} attempt(s): {detail or '-'}")
        print("text:\n" + p.body)
        return 0
    _print_replies(store)
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


def _print_replies(store) -> None:
    """Replies to users not sent: still being tried, or given up on (with why): nothing is dropped unseen."""
    from bot.reply_queue import failed_replies, reply_counts

    counts = reply_counts(store)
    if not counts:
        return
    for platform, states in counts.items():
        print(f"replies to users, {platform}: " + ", ".join(
            f"{n:,} {'still being sent' if s == 'pending' else s}" for s, n in sorted(states.items())))
    for platform, chat, state, attempts, detail, at in failed_replies(store):
        print(f"  {state:<8} {platform}:{chat} after {attempts} attempt(s), {(at or '')[:16].replace('T', ' ')}: "
              f"{detail or '-'}")


# ------------------------------------------------------------------- deliver
async def _deliver(settings, store, platforms: list, once: bool) -> dict:
    """Deliver the outbox of each of `platforms` (registry entries) through a Sender it opens."""
    from contextlib import AsyncExitStack

    from bot.broadcast.worker import run_workers

    async with AsyncExitStack() as stack:
        senders = [await stack.enter_async_context(platform.open_sender(settings)) for platform in platforms]
        return await run_workers(store, senders, settings, once=once)


def cmd_deliver(args: argparse.Namespace) -> int:
    import asyncio

    from adapters.platforms import configured, later_notes, token_keys
    from bot.broadcast import Outbox

    settings, store = open_from(args, create=True)  # a service, like serve: its first start makes the database
    platforms = [p for p in configured(settings) if not args.platform or p.name in args.platform]
    if not platforms:
        raise UsageError(f"no platform to deliver to: set {' or '.join(token_keys())} in the settings")
    outbox = Outbox(store)
    waiting = [name for name in outbox.pending_platforms() if name not in {p.name for p in platforms}]
    try:
        results = asyncio.run(_deliver(settings, store, platforms, args.once))
    except PlatformStopped as exc:  # one line, e.g. a rejected token (never the token itself)
        print(f"schoolbot: {exc}", file=sys.stderr)
        return 1
    _print_results(results)
    for name, note in later_notes().items():
        if name in waiting:
            waiting.remove(name)
            print(note)
    if waiting:
        print("still waiting, no sender configured: " + ", ".join(waiting))
    return 0


SUBCOMMANDS = ("broadcast", "deliveries", "deliver")  # the subcommands register() adds


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("broadcast", parents=[common], help="send an update to a board's subscribers (through the outbox)")
    p.add_argument("--board", required=True, help="board id (tdsb) or 'all'")
    p.add_argument("--text", help="the message, sent plain and verbatim under a header naming the board and time; "
                                  "'ENGLISH fr: FRENCH' gives each subscriber the text of their language")
    p.add_argument("--text-file", help="read the message from a file (- for stdin)")
    p.add_argument("--yes", action="store_true", help="send without asking")
    p.add_argument("--no-wait", action="store_true", help="return once it is in the outbox")
    p.add_argument("--deliver", action="store_true",
                   help="deliver it from this process with the configured platforms, then exit "
                        "(when no `schoolbot serve` or `schoolbot deliver` is running)")
    p.add_argument("--interval", type=float, default=0.5, help=argparse.SUPPRESS)
    p.add_argument("--grace", type=float, default=3.0, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_broadcast)

    p = sub.add_parser("deliveries", parents=[common],
                       help="broadcasts and their delivery state; replies to users not sent yet or given up on")
    p.add_argument("id", nargs="?", type=int, help="one broadcast, in detail")
    p.add_argument("-n", "--limit", type=int, default=10)
    p.set_defaults(func=cmd_deliveries)

    p = sub.add_parser("deliver", parents=[common], help="deliver the outbox with the configured platforms")
    p.add_argument("--once", action="store_true", help="exit when the outbox is empty (default: keep running)")
    from adapters.platforms import deliverable

    p.add_argument("--platform", action="append", choices=[platform.name for platform in deliverable()],
                   help="only this platform (repeatable)")
    p.set_defaults(func=cmd_deliver)

