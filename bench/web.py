"""Staff web page benchmark: how long each page takes on a large database.

    python bench/web.py                 # the issue's numbers: 100,000 subscribers, 50,000 logged questions
    python bench/web.py --quick         # a few seconds: 5,000 subscribers, 2,500 questions (CI)

A fresh database with the shipped knowledge gets --subscribers subscriptions spread over the boards and
--questions logged questions over the last three days (a tenth unanswered, about a thousand distinct ones),
then the page is served on 127.0.0.1 by aiohttp and fetched with a signed-in session, each page --runs
times: the median and the slowest time per page, server and client in this process. Figures are printed,
never asserted (the issue's bar: a page in under 200 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlparse
from zoneinfo import ZoneInfo

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402

from adapters.web.app import make_app  # noqa: E402
from bot.admin.web_link import sign_in_link  # noqa: E402
from bot.app import build_bot, open_knowledge  # noqa: E402
from bot.settings import Settings  # noqa: E402

CLOCK = datetime(2019, 10, 3, 9, 0, tzinfo=ZoneInfo("America/Toronto"))
PAGES = ("/", "/board/tdsb", "/asking", "/asking?days=30", "/audit", "/broadcast")
INTENTS = ("school_status", "withdrawn_services", "strike_dates", "childcare", "unknown")


def fill(store, subscribers: int, questions: int) -> None:
    boards = sorted(store.knowledge().boards)
    with store.transaction(knowledge=False) as conn:
        conn.executemany(
            "INSERT INTO subscriptions (platform, chat_id, board, chat_kind, user_id, active, created, updated, "
            "language) VALUES ('telegram', ?, ?, 'private', ?, 1, '2019-10-01', '2019-10-01', 'en')",
            ((str(100_000 + i), boards[i % len(boards)], str(100_000 + i)) for i in range(subscribers)))
        rows = []
        for i in range(questions):
            at = CLOCK - timedelta(minutes=(i * 4321) % (3 * 24 * 60))
            unanswered = i % 10 == 0
            rows.append((at.isoformat(), at.date().isoformat(), "telegram",
                         "unknown" if unanswered else INTENTS[i % 4], boards[i % len(boards)],
                         f"question number {i % 1000} about the zorblax {i % 7}" if unanswered
                         else "is school open monday", 0.2 if unanswered else 0.8))
        conn.executemany("INSERT INTO question_log (at, day, platform, intent, board, text, confidence) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)", rows)


async def measure(bot, runs: int) -> dict[str, list[float]]:
    runner = web.AppRunner(make_app(bot))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    times: dict[str, list[float]] = {page: [] for page in PAGES}
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            token = parse_qs(urlparse(sign_in_link(bot.store, base, "bench", "admin")).query)["token"][0]
            await session.post(base + "/signin", data={"token": token})
            for _ in range(runs):
                for page in PAGES:
                    started = time.perf_counter()
                    async with session.get(base + page) as response:
                        await response.read()
                        assert response.status == 200, (page, response.status)
                    times[page].append(time.perf_counter() - started)
    finally:
        await runner.cleanup()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--subscribers", type=int, default=100_000)
    parser.add_argument("--questions", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="5,000 subscribers, 2,500 questions, 3 runs")
    args = parser.parse_args()
    if args.quick:
        args.subscribers, args.questions, args.runs = 5_000, 2_500, 3
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings().replace("database", path=str(Path(folder) / "bench.db")).replace(
            "roles", province_admins=("bench:admin",))
        store = open_knowledge(settings)
        fill(store, args.subscribers, args.questions)
        bot = build_bot(settings, store=store, clock=lambda: CLOCK)
        times = asyncio.run(measure(bot, args.runs))
        store.close()
    print(f"staff web page, {args.subscribers:,} subscribers, {args.questions:,} logged questions, "
          f"{args.runs} runs each (median / slowest):")
    for page, seconds in times.items():
        print(f"  {page:<18} {statistics.median(seconds) * 1000:7.1f} ms / {max(seconds) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
