"""The Telegram load test: many parents asking through the local fake Bot API, with Telegram's faults, while
`schoolbot serve` runs as a real process (which a kill -9 can stop).

    python bench/telegram_load.py                     # the issue's figure: 1,000 parents x 20 messages,
                                                      # 5% 429s and 1% 500s, one group under flood control
    python bench/telegram_load.py --flaky 0 0                # only the rate-limited group
    python bench/telegram_load.py --kill 5 --webhook          # killed five times, updates through a webhook
    python bench/telegram_load.py --quick                     # a few seconds (CI: the imports still work)

Each parent is a private chat that sends a question, waits for the answer, thinks (0 to twice --think
seconds), and sends the next (closed loop, so the offered load is about parents / think messages a
second). One more chat, a group, is under Telegram's flood control for its first --limited-tries sends
(429, retry after --limited-wait s). Prints:

- replies lost: questions never answered (the parent waited --give-up seconds);
- sent twice: a reply that reached the chat a second time (the same text right after itself);
- latency, from the moment a parent's message is in the fake Bot API (served to getUpdates or POSTed
  to the webhook) to the moment its reply reaches the fake: p50 and p99 of the other parents, and of the
  rate-limited group;
- the peak memory (VmHWM, the resident set's high-water mark) of the bot's process.

With --kill N the bot is killed (SIGKILL) N times, evenly through the run, and started again at once.
Figures only; nothing is asserted (tests/adapters/telegram/test_telegram_reply_queue.py holds the rules).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import aiohttp  # noqa: E402

from tests.fakes.telegram import BOT_USERNAME, FakeTelegram  # noqa: E402

QUESTIONS = [  # each answered with one message (checked: 600 of 600 in a fresh conversation)
    "is school open monday in peel?", "what about tuesday?", "what services stopped?", "/status tdsb",
    "do I need child care?", "when could a full strike start?", "will the custodians still clean",
    "what does work-to-rule mean?", "are EAs on strike?", "is there school tomorrow in toronto?", "source?",
    "more", "/help", "ok thanks", "what about the EAs", "r the buses running", "is school open friday at tdsb",
    "will the teacher be there?", "when do talks resume?", "what is CUPE asking for?",
]
LIMITED_CHAT = -1009990001
LIMITED_USER = 9990001


class Recorder(FakeTelegram):
    """The fake Bot API, remembering only what the load test needs: each chat's replies and when they came."""

    def __init__(self):
        super().__init__()
        self.record_calls = False
        self.replies: dict[str, list[tuple[str, float]]] = {}
        self.arrived = asyncio.Event()
        self.receiving = asyncio.Event()  # the bot polls, or has set its webhook

    async def _api_getUpdates(self, params: dict) -> list[dict]:
        self.receiving.set()
        return await super()._api_getUpdates(params)

    async def _api_setWebhook(self, params: dict) -> bool:
        result = await super()._api_setWebhook(params)
        self.receiving.set()
        return result

    async def _api_sendMessage(self, params: dict) -> dict:
        result = await super()._api_sendMessage(params)
        self.replies.setdefault(str(params["chat_id"]), []).append((params["text"], time.monotonic()))
        self.arrived.set()
        return result


class Chat:
    """One parent's chat as the parent sees it: distinct replies (a repeat of the one before is sent twice)."""

    def __init__(self, fake: Recorder, chat_id: int):
        self.fake, self.key = fake, str(chat_id)
        self.read = 0
        self.answers: list[float] = []  # arrival time of each distinct reply
        self.twice = 0

    def catch_up(self) -> None:
        got = self.fake.replies.get(self.key, [])
        while self.read < len(got):
            text, at = got[self.read]
            if self.read and got[self.read - 1][0] == text:
                self.twice += 1
            else:
                self.answers.append(at)
            self.read += 1


class Run:
    def __init__(self, args, fake: Recorder, tmp: str):
        self.args, self.fake, self.tmp = args, fake, tmp
        self.proc: asyncio.subprocess.Process | None = None
        self.peak_kib = 0
        self.port = free_port()
        self.latencies: dict[bool, list[float]] = {True: [], False: []}  # limited chat? -> seconds
        self.lost = 0
        self.done = 0
        self.total = (args.parents + 1) * args.messages
        self.session = None

    # ------------------------------------------------------------ the bot
    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCHOOLBOT_")}
        env.update({"SCHOOLBOT_DATABASE_PATH": os.path.join(self.tmp, "load.db"),
                    "SCHOOLBOT_TELEGRAM_TOKEN": self.fake.token, "SCHOOLBOT_TELEGRAM_BASE_URL": self.fake.base_url,
                    "PYTHONPATH": str(REPO)})
        if self.args.webhook:
            env.update({"SCHOOLBOT_TELEGRAM_WEBHOOK_URL": f"http://127.0.0.1:{self.port}/hook",
                        "SCHOOLBOT_TELEGRAM_WEBHOOK_PORT": str(self.port),
                        "SCHOOLBOT_TELEGRAM_WEBHOOK_SECRET": "load-test-secret"})
        return env

    async def start_bot(self) -> None:
        log = open(os.path.join(self.tmp, "serve.log"), "ab")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "adapters.cli", "serve", "--telegram", cwd=str(REPO), env=self.env(),
            stdout=log, stderr=log)

    def sample_memory(self) -> None:
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    self.peak_kib = max(self.peak_kib, int(line.split()[1]))
        except (OSError, AttributeError):
            pass

    async def watch_memory(self) -> None:
        while True:
            self.sample_memory()
            await asyncio.sleep(0.5)

    async def kill_and_restart(self) -> None:
        self.sample_memory()
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        await self.start_bot()

    async def stop_bot(self) -> int:
        self.sample_memory()
        self.proc.send_signal(signal.SIGTERM)
        return await self.proc.wait()

    # ------------------------------------------------------------ parents
    async def post(self, update: dict) -> None:
        """The webhook as Telegram does it: POSTed again until answered 200 (the bot may be down)."""
        while True:
            try:
                if self.fake.webhook is not None and await self.fake.deliver(update) == 200:
                    return
            except (OSError, aiohttp.ClientError):  # the bot is down, or was killed while answering
                pass
            await asyncio.sleep(0.2)

    async def ask(self, chat_id: int, user_id: int, text: str) -> float:
        """The parent's message into the fake; returns when it was there for the bot to take."""
        group = chat_id < 0
        if group:
            text = f"@{BOT_USERNAME} {text}"
        message = self.fake.message(text, chat_id=chat_id, user_id=user_id)
        if not self.args.webhook:
            self.fake.add_update({"message": message})
            return time.monotonic()
        update = {"update_id": next(self.fake._update_ids), "message": message}
        at = time.monotonic()
        await self.post(update)
        return at

    async def parent(self, chat_id: int, user_id: int, rng: random.Random) -> Chat:
        chat = Chat(self.fake, chat_id)
        await asyncio.sleep(rng.uniform(0, self.args.ramp))
        for k in range(self.args.messages):
            asked = await self.ask(chat_id, user_id, QUESTIONS[k % len(QUESTIONS)])
            deadline = asked + self.args.give_up
            while True:
                chat.catch_up()
                if len(chat.answers) > k or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.02)
            if len(chat.answers) > k:
                self.latencies[chat_id == LIMITED_CHAT].append(chat.answers[k] - asked)
            else:
                self.lost += 1
                chat.answers.append(float("nan"))  # the next reply answers the next question
            self.done += 1
            await asyncio.sleep(rng.uniform(0, 2 * self.args.think))
        return chat

    async def killer(self) -> None:
        for n in range(1, self.args.kill + 1):
            while self.done < self.total * n / (self.args.kill + 1):
                await asyncio.sleep(0.05)
            await self.kill_and_restart()
            print(f"  kill -9 #{n} after {self.done:,} of {self.total:,} questions answered", flush=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parents", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=20, help="messages per parent")
    parser.add_argument("--think", type=float, default=5.0, help="mean seconds between a reply and the next message")
    parser.add_argument("--ramp", type=float, default=10.0, help="parents start within these many seconds")
    parser.add_argument("--flaky", type=float, nargs=2, default=[0.05, 0.01], metavar=("SHARE_429", "SHARE_500"),
                        help="shares of sendMessage calls answered 429 (retry after 1 s) and 500; 0 0 for none")
    parser.add_argument("--limited-tries", type=int, default=12, help="sends to the group answered 429 first")
    parser.add_argument("--limited-wait", type=float, default=5.0, help="its retry_after, seconds")
    parser.add_argument("--kill", type=int, default=0, help="kill -9 the bot this many times during the run")
    parser.add_argument("--webhook", action="store_true", help="updates POSTed to a webhook instead of getUpdates")
    parser.add_argument("--give-up", type=float, default=300.0, help="seconds a parent waits before counting a reply lost")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--quick", action="store_true", help="a few seconds: 20 parents, 3 messages, short waits")
    args = parser.parse_args()
    if args.quick:
        args.parents, args.messages, args.think, args.ramp, args.limited_tries, args.limited_wait = 20, 3, 0.3, 1, 2, 1

    fake = await Recorder().start()
    share_429, share_500 = args.flaky
    if share_429 or share_500:
        fake.flaky("sendMessage", {429: share_429, 500: share_500}, seed=args.seed, retry_after=1)
    fake.fail("sendMessage", 429, retry_after=args.limited_wait, chat_ids=[str(LIMITED_CHAT)], times=args.limited_tries)
    with tempfile.TemporaryDirectory() as tmp:
        run = Run(args, fake, tmp)
        await run.start_bot()
        await asyncio.wait_for(fake.receiving.wait(), 120)  # latency is counted from a running bot on
        memory = asyncio.create_task(run.watch_memory())
        mode = "webhook" if args.webhook else "long polling"
        print(f"{args.parents:,} parents + 1 rate-limited group, {args.messages} messages each, {mode}, "
              f"{share_429:.0%} 429s and {share_500:.0%} 500s, {args.kill} kill -9", flush=True)
        started = time.monotonic()
        rng = random.Random(args.seed)
        parents = [run.parent(100_000 + i, 100_000 + i, random.Random(rng.random())) for i in range(args.parents)]
        parents.append(run.parent(LIMITED_CHAT, LIMITED_USER, random.Random(rng.random())))
        killer = asyncio.create_task(run.killer()) if args.kill else None
        chats = await asyncio.gather(*parents)
        if killer is not None:
            await killer
        await asyncio.sleep(3)  # a reply sent twice comes late
        elapsed = time.monotonic() - started
        status = await run.stop_bot()
        memory.cancel()
        for chat in chats:
            chat.catch_up()
        with open(os.path.join(tmp, "serve.log"), errors="replace") as log:
            lines = log.read().splitlines()
    await fake.stop()

    twice = sum(chat.twice for chat in chats)
    others, limited = run.latencies[False], run.latencies[True]
    print(f"parents: {args.parents:,} (+1 group under flood control: {args.limited_tries} x 429, "
          f"retry after {args.limited_wait:.0f} s)")
    print(f"messages: {run.total:,} sent by parents in {elapsed:.0f} s; 429s given {fake.flaked.get(429, 0):,}, "
          f"500s given {fake.flaked.get(500, 0):,}")
    print(f"replies lost: {run.lost}")
    print(f"sent twice: {twice}" + (f" (over {args.kill} kill -9)" if args.kill else ""))
    print(f"latency, other parents: p50 {pct(others, 50):.3f} s, p99 {pct(others, 99):.3f} s, max {max(others, default=0):.3f} s")
    print(f"latency, the rate-limited group: p50 {pct(limited, 50):.3f} s, p99 {pct(limited, 99):.3f} s")
    print(f"peak memory of the bot (VmHWM): {run.peak_kib / 1024:.0f} MiB; serve exited {status}")
    problems = [line for line in lines if " ERROR " in line or "Traceback" in line]
    if problems:
        print(f"serve logged {len(problems)} error line(s), first: {problems[0][:200]}")


def pct(values: list[float], q: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if q < 100 else max(values)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


if __name__ == "__main__":
    asyncio.run(main())
