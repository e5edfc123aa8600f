"""One delivery worker per platform: a lease row in ``delivery_workers``.

A worker holds its platform's lease while it delivers and renews it with a
heartbeat. Another worker takes it over only when the holder is gone: on the
same host its pid is no longer alive (or its heartbeat is very old, for pid
reuse); on another host its heartbeat is older than ``LEASE_STALE_SECONDS``.
"""

from __future__ import annotations

import os
import socket
import time
import uuid

from knowledge.store import Store, utcnow

LEASE_STALE_SECONDS = 30.0  # another host's worker is gone when its heartbeat is this old
LEASE_STALE_LOCAL_SECONDS = 300.0  # same host: the pid is checked; this catches pid reuse
HEARTBEAT_SECONDS = 5.0


def new_token() -> str:
    """Names one worker run: host, pid and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Lease:
    """The right of the worker named `token` to deliver `platform`'s outbox.

    `replaces` names an earlier worker of this process that has stopped (say it could not
    release the lease while the database was unusable): its lease is taken over at once.
    """

    def __init__(self, store: Store, platform: str, token: str, replaces: str | None = None):
        self.store = store
        self.platform = platform
        self.token = token
        self.replaces = replaces

    def acquire(self) -> dict | None:
        """Take the lease. Returns None, or the live holder's row if another worker has it."""
        host, pid, now = socket.gethostname(), os.getpid(), time.time()

        def alive(holder: dict) -> bool:
            if holder["token"] == self.replaces:
                return False
            age = now - holder["heartbeat"]
            if holder["host"] == host:
                return pid_alive(holder["pid"]) and age < LEASE_STALE_LOCAL_SECONDS
            return age < LEASE_STALE_SECONDS

        return self.store.leases.take(self.platform, self.token, host, pid, utcnow().isoformat(), now, alive)

    def renew(self) -> bool:
        """The heartbeat. False when another worker has taken the lease."""
        return self.store.leases.renew(self.platform, self.token, time.time())

    def release(self) -> None:
        self.store.leases.release(self.platform, self.token)


def lease_holders(store: Store) -> list[dict]:
    """Every platform's current worker: platform, host, pid, started, heartbeat (unix time)."""
    return store.leases.holders()


def live_platforms(store: Store) -> set[str]:
    """Platforms whose worker has renewed its lease recently."""
    now = time.time()
    return {w["platform"] for w in lease_holders(store) if now - w["heartbeat"] < LEASE_STALE_SECONDS}
