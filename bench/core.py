"""Benchmark of the core: questions per second, latency, memory, cold start.

    python bench/core.py            # 20,000 questions, 7 cold starts
    python bench/core.py --quick    # 2,000 questions, 3 cold starts

Questions are the dev set's texts (or a built-in list when ../shared is not
there), each varied by a seeded random edit (case, a typo, a filler word, a
different board), so most of them miss the matcher's cache as real traffic
from many parents would; a second pass repeats them to show the warm cache.
Every question goes through Bot.handle, the one entry point, on a real
SQLite store (user memory and the question log are written as in service: a board at once,
conversation contexts and logged questions in batches), with the garbage collector settled as
`schoolbot serve` settles it (bot.app.settle_after_build).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.app import build_bot, settle_after_build  # noqa: E402
from bot.messages import Incoming  # noqa: E402
from bot.settings import Settings  # noqa: E402

DEVSET = ROOT.parent / "shared" / "devset" / "questions.jsonl"
FALLBACK = [
    "is school open monday in peel", "r schools open mon", "what services stopped", "why are they striking",
    "is tdsb open tomorrow", "hi", "do i need child care", "any news on the talks", "who is on strike",
    "when does the strike start", "what does work to rule mean", "where do i get updates", "/subscribe tdsb",
]
BOARDS = ["tdsb", "peel", "york region", "durham", "ottawa", "hamilton", "mississauga", "tcdsb", "halton", ""]
FILLERS = ["", "pls", "thanks", "hey", "so", "ok", "quick question", "??", "!!"]
NOW = datetime.fromisoformat("2019-10-03T09:00:00-04:00")


def load_texts() -> list[str]:
    if DEVSET.exists():
        return [json.loads(line)["text"] for line in DEVSET.read_text().splitlines() if line.strip()]
    return FALLBACK


def vary(text: str, rng: random.Random) -> str:
    words = text.split()
    if words and rng.random() < 0.5:  # a typo: swap two letters of a word
        i = rng.randrange(len(words))
        w = words[i]
        if len(w) > 3:
            j = rng.randrange(len(w) - 1)
            words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    if rng.random() < 0.5:
        words.append(rng.choice(BOARDS))
    if rng.random() < 0.5:
        words.insert(0, rng.choice(FILLERS))
    out = " ".join(w for w in words if w)
    return out.upper() if rng.random() < 0.1 else out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_questions(bot, texts: list[str], users: int) -> tuple[float, list[float]]:
    latencies = []
    start = time.perf_counter()
    for i, text in enumerate(texts):
        user = str(i % users)
        msg = Incoming("bench", user, user, text, NOW + timedelta(seconds=i))
        t0 = time.perf_counter()
        bot.handle(msg)
        latencies.append(time.perf_counter() - t0)
    return time.perf_counter() - start, latencies


def cold_start(db: str, runs: int) -> list[float]:
    exe = [sys.executable, "-m", "adapters.cli", "ask", "--db", db, "--now", "2019-10-03T09:00:00-04:00", "is school open monday"]
    subprocess.run(exe, check=True, capture_output=True, cwd=ROOT)  # warm the OS file cache once
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(exe, check=True, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=20_000)
    parser.add_argument("--cold-runs", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="2,000 questions and 3 cold starts")
    args = parser.parse_args()
    if args.quick:
        args.questions, args.cold_runs = 2_000, 3

    rng = random.Random(2019)
    base = load_texts()
    texts = [vary(rng.choice(base), rng) for _ in range(args.questions)]

    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "bench.db")
        settings = Settings().replace("database", path=db)
        tracemalloc.start()
        t0 = time.perf_counter()
        first = build_bot(settings)  # a first start: the database is made and the matcher prepared
        startup = time.perf_counter() - t0
        _, startup_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        first.store.close()
        del first
        # The bot measured starts as a restart does (from the prepared cache), without tracemalloc, whose
        # bookkeeping scatters the objects it sees being made: it read 3% slower when built under it.
        t0 = time.perf_counter()
        bot = build_bot(settings)
        settle_after_build()  # as `schoolbot serve` does
        restart = time.perf_counter() - t0

        elapsed, latencies = run_questions(bot, texts, users=500)
        warm_elapsed, warm_latencies = run_questions(bot, texts, users=500)
        rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        cold = cold_start(db, args.cold_runs)

    n = len(texts)
    print(f"core benchmark: {n} questions through Bot.handle, one process (one core), SQLite store")
    print(f"  distinct question texts:   {len(set(texts))}")
    print(f"  throughput, first pass:    {n / elapsed:,.0f} questions/s")
    print(f"  latency, first pass:       p50 {statistics.median(latencies) * 1e3:.3f} ms, "
          f"p99 {percentile(latencies, 0.99) * 1e3:.3f} ms, max {max(latencies) * 1e3:.1f} ms")
    print(f"  throughput, repeated:      {n / warm_elapsed:,.0f} questions/s (matcher cache warm)")
    print(f"  latency, repeated:         p50 {statistics.median(warm_latencies) * 1e3:.3f} ms, "
          f"p99 {percentile(warm_latencies, 0.99) * 1e3:.3f} ms")
    print(f"  bot start-up in process:   {startup * 1e3:.0f} ms first, {startup_peak / 2**20:.1f} MiB allocated at peak; "
          f"{restart * 1e3:.0f} ms again")
    print(f"  peak RSS of this process:  {rss_mb:.0f} MiB")
    print(f"  cold start of `schoolbot ask \"is school open monday\"` ({len(cold)} runs): "
          f"median {statistics.median(cold) * 1e3:.0f} ms, min {min(cold) * 1e3:.0f} ms, max {max(cold) * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
