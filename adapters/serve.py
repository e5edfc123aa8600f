"""`schoolbot serve`: run the bot on its platforms (adapters/platforms.py) in one process.

With no platform flag it runs every platform whose token is configured. A
missing or rejected token, or another instance already polling, is one
clear error line and a non-zero exit.

The command itself (arguments, checks, logging) is in adapters/cli/platforms.py;
this module runs the platforms' runners and the delivery worker side by side,
handing the worker each platform's Sender as it connects. The platform adapters
are imported only when their platform runs.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable
from typing import TYPE_CHECKING

from adapters.errors import PlatformStopped
from adapters.platforms import named
from adapters.redaction import redact, redacting_logger

if TYPE_CHECKING:  # pragma: no cover
    from bot.core import Bot
    from bot.messages import Sender
    from bot.settings import Settings

log = redacting_logger("schoolbot.serve")

SHUTDOWN_GRACE_SECONDS = 15.0


# ---------------------------------------------------------------- running
async def serve(bot: Bot, settings: Settings, platforms: list[str], *, stop: asyncio.Event | None = None,
                web: tuple[str, int] | None = None) -> None:
    """Run the chosen platforms (and the staff web page on `web`, a host and port) until a signal or `stop`;
    a platform failing stops them all."""
    stop = stop if stop is not None else asyncio.Event()
    _install_signal_handlers(stop)
    senders: dict[str, Sender] = {}

    def ready(sender: Sender) -> None:
        senders[sender.platform] = sender

    runners: dict[str, Awaitable[None]] = {}
    stoppable: set[str] = set()
    for name in platforms:
        platform = named(name)
        runners[name] = platform.run(bot, settings, stop, ready)
        if platform.graceful:
            stoppable.add(name)
    if web is not None:
        from adapters.web.app import run_web

        runners["web"] = run_web(bot, settings, *web, stop)
        stoppable.add("web")
    for name, worker in delivery_workers(bot, settings, senders, stop).items():
        runners[name] = worker
        stoppable.add(name)

    tasks = {asyncio.create_task(_exit_held(coro), name=f"serve:{name}"): name for name, coro in runners.items()}
    stopper = asyncio.create_task(stop.wait(), name="serve:stop")
    _done, _ = await asyncio.wait([*tasks, stopper], return_when=asyncio.FIRST_COMPLETED)
    stop.set()  # one platform ended or failed, or a signal came: stop everything
    for task, name in tasks.items():
        if name not in stoppable and not task.done():
            task.cancel()
    pending = [t for t in tasks if not t.done()]
    if pending:
        _, still = await asyncio.wait(pending, timeout=SHUTDOWN_GRACE_SECONDS)
        for task in still:
            log.warning("%s did not stop within %.0fs; cancelling it", tasks[task], SHUTDOWN_GRACE_SECONDS)
            task.cancel()
        if still:
            await asyncio.wait(still)
    stopper.cancel()

    first_error: BaseException | None = None
    for task, name in tasks.items():
        if task.cancelled():
            continue
        exc = task.exception()
        if exc is None:
            continue
        if isinstance(exc, _Exited):  # the database deleted under it: its one line, after the others stopped
            raise exc.exit
        if not isinstance(exc, PlatformStopped):
            log.error("%s stopped with an error", name, exc_info=exc)
            exc = PlatformStopped(f"{name}: stopped with an error: {redact(repr(exc))}")
        first_error = first_error or exc
    if first_error is not None:
        raise first_error


class _Exited(Exception):
    """A platform or worker asked the process to exit (SystemExit: the database was deleted under it)."""

    def __init__(self, exit: SystemExit):
        super().__init__(str(exit))
        self.exit = exit


async def _exit_held(coro: Awaitable[None]) -> None:
    """Run one platform or worker, holding a SystemExit as an ordinary failure of its task.

    A task that raises SystemExit makes the event loop raise it at once: the other platforms get no
    shutdown, and the task's own exception, never retrieved, is logged at exit with a traceback of
    some sixty lines after the one line that said what happened.
    """
    try:
        await coro
    except SystemExit as exc:
        raise _Exited(exc) from None


def delivery_workers(bot: Bot, settings: Settings, senders: dict[str, Sender],
                     stop: asyncio.Event) -> dict[str, Awaitable[None]]:
    """The broadcast workers that run alongside the platforms, by name.

    `senders` fills in as platforms connect (platform name -> its Sender);
    `stop` is set on shutdown.
    """
    from bot.broadcast.supervise import run_delivery

    return {"delivery": run_delivery(bot.store, settings, senders, stop, wakeup=bot.wakeup)}


def _install_signal_handlers(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError, ValueError):  # Windows, or not the main thread
            pass

