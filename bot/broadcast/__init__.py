"""Broadcasts: staff updates written to an outbox before anything is sent, then delivered.

- :mod:`~bot.broadcast.compose`: what recipients see (header + body, in each one's language; the
  author's text in one language or both, "... fr: ...") and the checks on the text
- :mod:`~bot.broadcast.outbox`: (tables in knowledge/schema.py) writing a broadcast and its deliveries, reading progress, claiming rows
- :mod:`~bot.broadcast.lease`: one delivery worker per platform
- :mod:`~bot.broadcast.limiter`: pacing under each sender's declared limits
- :mod:`~bot.broadcast.worker`: the delivery worker (delivery guarantee in its docstring)
- :mod:`~bot.broadcast.wakeup`: the doorbell that starts this process's workers on a new broadcast
- :mod:`~bot.broadcast.supervise`: the workers that run alongside `schoolbot serve`
- :mod:`~bot.broadcast.console`: delivery to console subscribers, in the console session

Only the light parts are imported here (the admin commands need them on every start).
"""

from bot.broadcast.compose import Broadcast, BroadcastError, board_title, broadcast_text, check_broadcast, compose
from bot.broadcast.outbox import UNDELIVERABLE, Outbox, Progress
from bot.broadcast.wakeup import Wakeup

__all__ = ["UNDELIVERABLE", "Broadcast", "BroadcastError", "Outbox", "Progress", "Wakeup", "board_title",
           "broadcast_text", "check_broadcast", "compose"]
