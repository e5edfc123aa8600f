"""The delivery workers' leases (table ``delivery_workers``): one row per platform, naming the worker delivering it.

A part of :class:`knowledge.store.Store` (``store.leases``), on its connection and lock. Whether a
holder is still alive is :class:`bot.broadcast.lease.Lease`'s to judge; here are its rows.
"""

from __future__ import annotations

from collections.abc import Callable


class Leases:
    """Who delivers each platform's outbox: token, host, pid, when it started and its last heartbeat."""

    def __init__(self, store):
        self.store = store

    def take(self, platform: str, token: str, host: str, pid: int, started: str, heartbeat: float,
             holder_alive: Callable[[dict], bool]) -> dict | None:
        """Make `token` the platform's worker, unless another holder (not `token`) is alive by
        `holder_alive(holder)`: then nothing is written and that holder's row is returned. Read and
        write are one transaction, so two workers starting at once cannot both take it."""
        with self.store.transaction(knowledge=False) as conn:
            row = conn.execute(
                "SELECT token, host, pid, started, heartbeat FROM delivery_workers WHERE platform = ?", (platform,)
            ).fetchone()
            if row is not None and row[0] != token:
                holder = {"token": row[0], "host": row[1], "pid": row[2], "started": row[3], "heartbeat": row[4]}
                if holder_alive(holder):
                    return holder
            conn.execute(
                "INSERT INTO delivery_workers (platform, token, host, pid, started, heartbeat) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(platform) DO UPDATE SET token = excluded.token, host = excluded.host, pid = excluded.pid, "
                "started = excluded.started, heartbeat = excluded.heartbeat",
                (platform, token, host, pid, started, heartbeat),
            )
        return None

    def renew(self, platform: str, token: str, heartbeat: float) -> bool:
        """The heartbeat. False when `token` no longer holds the platform's lease."""
        with self.store.lock:
            cur = self.store.conn.execute(
                "UPDATE delivery_workers SET heartbeat = ? WHERE platform = ? AND token = ?",
                (heartbeat, platform, token),
            )
        return cur.rowcount == 1

    def release(self, platform: str, token: str) -> None:
        """Give up the platform's lease, if `token` still holds it."""
        with self.store.lock:
            self.store.conn.execute("DELETE FROM delivery_workers WHERE platform = ? AND token = ?", (platform, token))

    def holders(self) -> list[dict]:
        """Every platform's current worker: platform, host, pid, started, heartbeat (unix time), by platform."""
        return [
            {"platform": r[0], "host": r[1], "pid": r[2], "started": r[3], "heartbeat": r[4]}
            for r in self.store.conn.execute(
                "SELECT platform, host, pid, started, heartbeat FROM delivery_workers ORDER BY platform")
        ]
