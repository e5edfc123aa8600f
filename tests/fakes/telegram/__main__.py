"""``python -m tests.fakes.telegram [--port N]``: the fake Bot API as its own process (for benchmarks)."""

from __future__ import annotations

import argparse
import asyncio

from tests.fakes.telegram import FakeTelegram


async def serve_forever(port: int) -> None:
    fake = await FakeTelegram(port=port).start()
    fake.record_calls = False  # a long benchmark must not grow memory without bound
    print(f"fake Bot API listening: {fake.base_url} token {fake.token}", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await fake.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Run the fake Telegram Bot API server")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    try:
        asyncio.run(serve_forever(args.port))
    except KeyboardInterrupt:
        pass
