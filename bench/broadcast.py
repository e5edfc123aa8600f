"""Broadcast benchmark: the outbox and a Telegram delivery worker against a local fake Bot API server.

    python bench/broadcast.py                      # the issue's numbers: 100,000 unlimited, 3,000 at 30/s
    python bench/broadcast.py --subscribers 20000 --limited 600
    python bench/broadcast.py --quick              # a few seconds: 2,000 unlimited, 60 at 30/s (CI)
    python bench/broadcast.py --french 0           # every subscriber reads English (as before broadcasts had languages)

Part 1 sends one broadcast to --subscribers chats with the rate limiter off and
prints deliveries per second, CPU time per delivery (this process: outbox +
worker + python-telegram-bot; and the fake server's, separately) and peak
memory. Part 2 sends one to --limited chats with [limits] telegram_per_second
= --rate and prints the achieved rate against the limit. The broadcast has an English
and a French text; --french of the subscribers (a quarter by default) read French and get
the French one. The fake server runs
as its own process (tests/fakes/telegram), so the two do not share a core.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from adapters.telegram import open_sender, telegram_limits  # noqa: E402
from bot.app import open_knowledge  # noqa: E402
from bot.broadcast import Outbox, compose  # noqa: E402
from bot.broadcast.worker import DeliveryWorker  # noqa: E402
from bot.settings import Settings  # noqa: E402


def rss_mb() -> float:
    """Current resident memory of this process, MB (Linux)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu_seconds_of(pid: int) -> float:
    """User + system CPU seconds of another process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


class FakeServer:
    def __init__(self):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.fakes.telegram"],
            stdout=subprocess.PIPE, text=True, cwd=str(REPO),
        )
        line = self.proc.stdout.readline().strip()  # "fake Bot API listening: URL token TOKEN"
        parts = line.split()
        self.base_url, self.token = parts[4], parts[6]
        self.stats_url = self.base_url.rsplit("/bot", 1)[0] + "/_fake/stats"

    def sent(self) -> int:
        with urllib.request.urlopen(self.stats_url) as resp:
            return json.load(resp)["sent"]

    def cpu(self) -> float:
        return cpu_seconds_of(self.proc.pid)

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def make_store(directory: str, name: str, count: int, french: float = 0.0):
    settings = Settings().replace("database", path=os.path.join(directory, name))
    store = open_knowledge(settings)
    every = round(1 / french) if french > 0 else 0  # each `every`-th subscriber reads French
    rows = ((str(10_000_000 + i), str(10_000_000 + i), "fr" if every and i % every == 0 else "en") for i in range(count))
    with store.lock:
        store.conn.execute("BEGIN")
        store.conn.executemany(
            "INSERT INTO subscriptions (platform, chat_id, board, chat_kind, user_id, active, created, updated, language) "
            "VALUES ('telegram', ?, 'tdsb', 'private', ?, 1, '2019-10-01', '2019-10-01', ?)", rows,
        )
        store.conn.execute("COMMIT")
    return settings, store


async def deliver(settings: Settings, store, server: FakeServer, *, progress: bool) -> dict:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    outbox = Outbox(store)
    body = ("TDSB schools are open Monday, with reduced cleaning. Check tdsb.on.ca for details. fr: Les écoles du "
            "TDSB sont ouvertes lundi, avec un entretien réduit. Détails sur tdsb.on.ca.")
    made = compose(store.knowledge(), "tdsb", datetime.now(ZoneInfo("America/Toronto")), body, 3500)
    began = time.perf_counter()
    broadcast_id = outbox.create("tdsb", body, made.texts["en"], "bench:bench", text_fr=made.texts["fr"])
    queued = time.perf_counter() - began
    sent_before = server.sent()
    server_cpu0 = server.cpu()
    async with open_sender(settings) as sender:
        worker = DeliveryWorker(store, sender, settings, poll_interval=0.05)
        cpu0, t0 = time.process_time(), time.perf_counter()
        task = asyncio.create_task(worker.run(once=True))
        while not task.done():
            await asyncio.wait({task}, timeout=1.0)
            if progress:
                p = outbox.progress(broadcast_id)
                rate = p.done_count / max(1e-9, time.perf_counter() - t0)
                print(f"\r  {p.done_count:,}/{p.total:,} delivered, {rate:,.0f}/s, rss {rss_mb():.0f} MB", end="", flush=True)
        stats = task.result()
        wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    if progress:
        print()
    p = outbox.progress(broadcast_id)
    first, last = store.conn.execute(
        "SELECT MIN(done_at), MAX(done_at) FROM deliveries WHERE broadcast_id = ?", (broadcast_id,)).fetchone()
    span = (datetime.fromisoformat(last) - datetime.fromisoformat(first)).total_seconds() if first else 0.0
    return {
        "span": span,
        "total": p.total, "delivered": p.delivered, "failed": p.failed, "blocked": p.blocked,
        "server_received": server.sent() - sent_before, "queue_seconds": queued, "wall": wall, "cpu": cpu,
        "server_cpu": server.cpu() - server_cpu0, "retries": stats.retried,
    }


class NullSender:
    """Accepts every message at once: measures the outbox and worker alone, without HTTP."""

    platform = "telegram"
    limits = telegram_limits(0)

    async def send_text(self, chat_id: str, text: str):
        from bot.messages import SendOutcome, SendStatus

        return SendOutcome(SendStatus.SENT)


async def deliver_null(settings: Settings, store) -> dict:
    outbox = Outbox(store)
    broadcast_id = outbox.create("tdsb", "Hi", "Hi", "bench:bench", text_fr="Salut")
    worker = DeliveryWorker(store, NullSender(), settings, poll_interval=0.05)
    cpu0, t0 = time.process_time(), time.perf_counter()
    await worker.run(once=True)
    return {"delivered": outbox.progress(broadcast_id).delivered, "wall": time.perf_counter() - t0,
            "cpu": time.process_time() - cpu0}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--subscribers", type=int, default=100_000, help="part 1: recipients, no rate limit")
    parser.add_argument("--limited", type=int, default=3_000, help="part 2: recipients at --rate")
    parser.add_argument("--rate", type=float, default=30.0, help="part 2: [limits] telegram_per_second")
    parser.add_argument("--concurrency", type=int, default=Settings().limits.delivery_concurrency,
                        help="[limits] delivery_concurrency (default: the settings default)")
    parser.add_argument("--french", type=float, default=0.25, help="the share of subscribers who read French")
    parser.add_argument("--quick", action="store_true", help="a few seconds: 2,000 unlimited and 60 limited")
    args = parser.parse_args(argv)
    if args.quick:
        args.subscribers, args.limited = 2_000, 60

    print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}; worker concurrency {args.concurrency}")
    server = FakeServer()
    try:
        with tempfile.TemporaryDirectory(prefix="schoolbot-bench-") as directory:
            if args.subscribers:
                settings, store = make_store(directory, "unlimited.db", args.subscribers, args.french)
                settings = (settings.replace("telegram", token=server.token, base_url=server.base_url)
                            .replace("limits", telegram_per_second=0, delivery_concurrency=args.concurrency))
                base = rss_mb()
                print(f"part 1: {args.subscribers:,} subscribers ({args.french:.0%} reading French), rate limiting off "
                      f"(rss before: {base:.0f} MB)")
                r = asyncio.run(deliver(settings, store, server, progress=sys.stdout.isatty()))
                n = max(1, r["delivered"])
                print(f"  outbox written in {r['queue_seconds']:.2f} s ({r['total']:,} delivery rows, before any send)")
                print(f"  delivered {r['delivered']:,} (failed {r['failed']}, blocked {r['blocked']}; server got {r['server_received']:,}) "
                      f"in {r['wall']:.1f} s: {r['delivered'] / r['wall']:,.0f} deliveries/s")
                print(f"  CPU per delivery: {r['cpu'] / n * 1e3:.3f} ms in the worker process "
                      f"(outbox + worker + python-telegram-bot), {r['server_cpu'] / n * 1e3:.3f} ms in the fake server")
                print(f"  peak memory (max RSS of the worker process): {peak_rss_mb():.0f} MB")
                store.close()
                settings, store = make_store(directory, "null.db", args.subscribers, args.french)
                settings = settings.replace("limits", telegram_per_second=0, delivery_concurrency=args.concurrency)
                r = asyncio.run(deliver_null(settings, store))
                print(f"  the outbox and worker alone (a sender that returns at once): {r['delivered']:,} in "
                      f"{r['wall']:.1f} s, {r['delivered'] / r['wall']:,.0f} deliveries/s, "
                      f"{r['cpu'] / max(1, r['delivered']) * 1e3:.3f} ms CPU each")
                store.close()
            if args.limited:
                settings, store = make_store(directory, "limited.db", args.limited, args.french)
                settings = (settings.replace("telegram", token=server.token, base_url=server.base_url)
                            .replace("limits", telegram_per_second=args.rate, delivery_concurrency=args.concurrency))
                print(f"part 2: {args.limited:,} subscribers at [limits] telegram_per_second = {args.rate:g} "
                      f"(about {args.limited / args.rate:.0f} s)")
                r = asyncio.run(deliver(settings, store, server, progress=sys.stdout.isatty()))
                rate = r["delivered"] / r["wall"]
                steady = (r["delivered"] - 1) / r["span"] if r["span"] else float("nan")
                print(f"  delivered {r['delivered']:,} in {r['wall']:.1f} s (start to finish, worker start-up included): "
                      f"{rate:.2f} msg/s against a limit of {args.rate:g}/s ({(rate / args.rate - 1) * 100:+.1f}%)")
                print(f"  first to last delivery: {r['span']:.1f} s, {steady:.2f} msg/s ({(steady / args.rate - 1) * 100:+.1f}% of the limit)")
                store.close()
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
