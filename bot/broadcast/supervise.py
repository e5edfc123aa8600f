"""Delivery for `schoolbot serve`: a worker per connected platform, restarted if it fails."""

from __future__ import annotations

import asyncio
import logging

from bot.broadcast.wakeup import Wakeup
from bot.broadcast.worker import DeliveryWorker
from bot.messages import Sender
from bot.settings import Settings
from knowledge.store import Store

log = logging.getLogger("schoolbot.outbox")


async def run_delivery(store: Store, settings: Settings, senders: dict[str, Sender], stop: asyncio.Event,
                       *, wakeup: Wakeup | None = None) -> None:
    """A worker for each platform whose Sender appears in `senders`, until `stop`.

    `senders` fills in as platforms connect; a worker that fails or stops by itself
    is logged and started again. `wakeup` is the doorbell the bot rings on a new broadcast.
    """
    workers: dict[str, DeliveryWorker] = {}
    tasks: dict[str, asyncio.Task] = {}
    try:
        while not stop.is_set():
            for name, sender in list(senders.items()):
                task = tasks.get(name)
                if task is not None and task.done():
                    if not task.cancelled() and task.exception() is not None:
                        log.error("%s delivery worker failed; starting it again", name, exc_info=task.exception())
                    elif workers[name].stats.stopped:
                        log.warning("%s delivery worker stopped (%s); starting it again", name, workers[name].stats.stopped)
                    task = None
                if task is None:
                    before = workers.get(name)
                    workers[name] = DeliveryWorker(store, sender, settings, wakeup=wakeup,
                                                   replaces=before.token if before else None)
                    tasks[name] = asyncio.create_task(workers[name].run(), name=f"delivery-{name}")
            try:
                await asyncio.wait_for(stop.wait(), timeout=1.0)
            except TimeoutError:
                pass
    finally:
        for worker in workers.values():
            worker.stop()
        if tasks:
            await asyncio.gather(*tasks.values(), return_exceptions=True)
