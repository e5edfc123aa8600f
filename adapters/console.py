"""The console adapter: chat with the bot in a terminal. No token, no network.

Each line typed is one message from the local user; the replies are printed.
``--now`` sets the clock (it then advances in real time), so the 2019 scenario
can be replayed on any day.

The console is a platform in the registry (adapters/platforms.py) with no token,
no runner for `serve` and no sender for `deliver`: the session itself shows its
subscribers' broadcasts, when it opens and after each turn.
"""

from __future__ import annotations

import sys
import time
from datetime import datetime, timedelta
from typing import IO, TYPE_CHECKING

from adapters.platform import Platform
from bot.messages import Incoming

if TYPE_CHECKING:  # pragma: no cover
    from bot.core import Bot
    from bot.messages import SendLimits
    from bot.settings import Settings

PLATFORM = "console"
USER_ID = "local"
PROMPT = "you> "



def limits(settings: Settings | None = None) -> SendLimits:
    from bot.broadcast.console import ConsoleSender  # the session's sender, in the core: it needs no library

    return ConsoleSender.limits


CONSOLE = Platform(
    name=PLATFORM, title="the console", chat_ids=f"{USER_ID!r}: the one user at the terminal",
    limits=limits,
    later="Console subscribers see it in `schoolbot chat`: after their next message there, or when it next opens.",
)


def run_console(bot: Bot, *, start: datetime | None = None, board: str | None = None,
                stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout) -> int:
    began = time.monotonic()

    def now() -> datetime:
        if start is None:
            return bot.clock()
        return start + timedelta(seconds=time.monotonic() - began)

    if board:
        bot.memory.set_user(PLATFORM, USER_ID, board=board)
    interactive = stdin.isatty()

    def show(chat_id: str, text: str) -> None:
        stdout.write("bot> " + text.replace("\n", "\n     ") + "\n")

    def deliver() -> None:  # broadcasts to console subscribers are shown here, after each turn
        if not bot.dry_run:
            from bot.broadcast.console import deliver_console

            deliver_console(bot.store, show, bot.settings)

    stdout.write(
        f"schoolbot: ask me about the school job action (the clock says {now():%a %b %d %Y, %H:%M}). "
        "Type /help for examples, Ctrl-D or 'quit' to leave.\n"
    )
    deliver()
    while True:
        if interactive:
            stdout.write(PROMPT)
            stdout.flush()
        line = stdin.readline()
        if not line or line.strip().lower() in {"quit", "exit", ":q"}:
            break
        if not line.strip():
            continue
        if not interactive:
            stdout.write(f"{PROMPT}{line.rstrip()}\n")
        msg = Incoming(PLATFORM, USER_ID, USER_ID, line.rstrip("\n"), now())
        for reply in bot.handle(msg):
            show(msg.chat_id, reply.text)
        deliver()
        stdout.flush()
    return 0
