"""How fast the Telegram adapter sends, against the fake Bot API server, with rate limiting off.

    python bench/telegram_send.py [--messages 2000] [--questions 1000] [--concurrency 8]
    python bench/telegram_send.py --quick    # a few seconds: 200 sends, 50 questions (CI: the imports still work)

The fake server runs in its own process, so the CPU time measured here is the
adapter's alone (python-telegram-bot on aiohttp, and for the second figure the
core answering). Two figures:

1. send: TelegramSender.send_text, `--concurrency` sends in flight (as the
   broadcast workers do), messages/second and CPU milliseconds per message;
2. answer: questions queued in getUpdates, answered by the running adapter
   (long polling, the real core, SQLite), replies/second and CPU per reply.

Prints figures; asserts nothing. Real Telegram allows about 30 messages/s per
bot, so these numbers say how much headroom the process has, not how fast
parents are answered.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

QUESTIONS = [
    "is school open monday in peel?",
    "/help",
    "what services stopped?",
    "/status tdsb",
    "do I need child care?",
    "when could a full strike start?",
]


def start_fake() -> tuple[subprocess.Popen, str, str]:
    proc = subprocess.Popen([sys.executable, "-m", "tests.fakes.telegram"],
                            stdout=subprocess.PIPE, text=True, cwd=str(REPO))
    line = proc.stdout.readline()  # "fake Bot API listening: URL token TOKEN"
    words = line.split()
    return proc, words[4], words[6]


async def stats(session, base_url: str) -> dict:
    root = base_url.rsplit("/bot", 1)[0]
    async with session.get(root + "/_fake/stats") as resp:
        return await resp.json()


async def bench_send(settings, count: int, concurrency: int) -> tuple[float, float]:
    from adapters.telegram import open_sender

    async with open_sender(settings) as sender:
        return await _send_many(sender, count, concurrency)


async def _send_many(sender, count: int, concurrency: int) -> tuple[float, float]:
    gate = asyncio.Semaphore(concurrency)
    text = "Peel District School Board: schools are open tomorrow; buses run as usual. Source: board notice."

    async def one(i: int) -> None:
        async with gate:
            outcome = await sender.send_text(str(100_000 + i % 500), text)
            if outcome.status.value != "sent":
                raise RuntimeError(f"send {i}: {outcome}")

    await asyncio.gather(*(one(i) for i in range(20)))  # warm up connections
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(count)))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return count / wall, cpu / count


async def bench_answer(settings, base_url: str, count: int) -> tuple[float, float]:
    import aiohttp

    from adapters.telegram import run_telegram
    from bot.app import build_bot

    bot = build_bot(settings)
    async with aiohttp.ClientSession() as session:
        before = (await stats(session, base_url))["sent"]
        updates = [{"private": {"text": QUESTIONS[i % len(QUESTIONS)], "user_id": 200_000 + i}} for i in range(count)]
        root = base_url.rsplit("/bot", 1)[0]
        async with session.post(root + "/_fake/updates", json=updates) as resp:
            resp.raise_for_status()
        stop = asyncio.Event()
        ready = asyncio.Event()
        cpu, wall = time.process_time(), time.perf_counter()
        task = asyncio.create_task(run_telegram(bot, settings, stop=stop, on_ready=lambda s: ready.set(), poll_timeout=1))
        while (await stats(session, base_url))["sent"] - before < count:
            if task.done():
                task.result()
            await asyncio.sleep(0.02)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        stop.set()
        await task
    bot.store.close()
    return count / wall, cpu / count


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=2000, help="messages for the send figure")
    parser.add_argument("--questions", type=int, default=1000, help="questions for the answer figure")
    parser.add_argument("--concurrency", type=int, default=8, help="sends in flight (the broadcast worker's default)")
    parser.add_argument("--quick", action="store_true", help="a few seconds: 200 messages and 50 questions")
    args = parser.parse_args()
    if args.quick:
        args.messages, args.questions = 200, 50

    from bot.settings import Settings

    proc, base_url, token = start_fake()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            settings = (Settings()
                        .replace("database", path=os.path.join(tmp, "bench.db"))
                        .replace("telegram", token=token, base_url=base_url)
                        .replace("limits", telegram_per_second=0))
            rate, cpu = await bench_send(settings, args.messages, args.concurrency)
            print(f"send:   {args.messages} messages, {args.concurrency} in flight: "
                  f"{rate:,.0f} messages/s, {cpu * 1000:.2f} ms CPU per message")
            rate, cpu = await bench_answer(settings, base_url, args.questions)
            print(f"answer: {args.questions} questions through getUpdates, the core and sendMessage: "
                  f"{rate:,.0f} replies/s, {cpu * 1000:.2f} ms CPU per reply")
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    asyncio.run(main())
