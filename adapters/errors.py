"""Small error types shared by the command line and the platform adapters."""

from __future__ import annotations


class PlatformStopped(Exception):
    """A platform cannot run or has to stop (missing/rejected token, another instance polling, ...).

    Raise it (or a subclass) from a platform runner with a one-line message for
    the operator: `serve` prints that line, stops the other platforms and
    exits with status 1, without a traceback.
    """


class UsageError(Exception):
    """A command-line argument or file is wrong; the message says which and what to do."""
