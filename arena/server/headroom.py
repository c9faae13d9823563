"""The arena's own headroom: whether its process can open what reaching a bot takes.

Reaching a bot costs the arena a file descriptor (a connection; a verification opens a
fresh one) and some kernel memory. A process that has run out (EMFILE: its own limit;
ENFILE: the host's; ENOBUFS, ENOMEM: memory for sockets) cannot connect, and a healthy
bot then looks down: its Hello finds "no bot answers", its seat "did not accept a
stream". Such a failure is the arena's, and the ladder holds none of it against a bot
(docs/serve.md, "Connections and file descriptors").

``probe`` tells whether the process is short now: it opens a socket, then takes
``FD_LOW`` descriptors in all (duplicates of it) and gives them back at once. Short is
a socket that cannot be created for a reason of the process or the host, or fewer than
``FD_LOW`` descriptors to be had. That costs tens of microseconds whatever the number
of descriptors open (counting them in ``/proc/self/fd`` would cost 0.8 ms at 1,000, 10 ms
at 4,000 and 48 ms at 16,000, on the event loop: docs/BENCHMARKS.md). It runs when
something failed to reach a bot, and in the ladder once per ``LOOK_EVERY_S``; never per
decision.

``Headroom`` remembers when a look last found the process short, so a failure is judged
by the whole span it took: a Hello that waited 3 s for a connection the arena could not
make is the arena's if a look found it short within those 3 s, even if descriptors were
free again by the time the Hello gave up (gRPC retries a failed connect only after a
backoff). A bot cannot make the arena look short: only the arena's own state counts,
never what a bot or gRPC says about it.
"""

from __future__ import annotations

import asyncio
import errno
import os
import resource
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

FD_LOW: Final = 16
"""Fewer descriptors to be had than this is short: a connection takes one, and gRPC,
SQLite and the log may take a few at any moment."""
LOOK_EVERY_S: Final = 1.0
"""How often the ladder looks (and, while short, whether the arena has recovered)."""
SHORT_ERRNOS: Final = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
"""What ``socket()`` fails with when the process or the host has run out."""

FDS: Final = "file descriptors"
FD_ADVICE: Final = (
    "raise the open files limit (ulimit -n; systemd LimitNOFILE=), or lower "
    "--max-connections and --web-max-connections"
)
HOST_FILES_ADVICE: Final = (
    "the host's table of open files is full (sysctl fs.file-max); find the process "
    "that holds them, or raise it"
)
MEMORY_ADVICE: Final = "the host is out of memory for sockets; free memory, or add it"


@dataclass(frozen=True, slots=True)
class Shortage:
    """What the arena's process has run out of."""

    what: str
    """What it is short of, for public text ("file descriptors"): no figures."""
    why: str
    """In words, e.g. "out of file descriptors: 1020 open, the limit is 1024"."""
    advice: str
    """What the organizer can do about it."""


def probe() -> Shortage | None:
    """The arena's shortage now, or None if it can open a connection and more."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        first = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    except OSError as error:
        if error.errno in SHORT_ERRNOS:
            return _short(error, soft)
        return None  # (no IPv4 here: nothing this probe can tell)
    held: list[int] = []
    try:
        for _ in range(FD_LOW - 1):
            held.append(os.dup(first.fileno()))
    except OSError as error:
        if error.errno not in SHORT_ERRNOS:
            raise
        return Shortage(
            FDS,
            f"out of file descriptors: only {1 + len(held)} of the {_limit(soft)} its limit "
            "allows are free",
            FD_ADVICE,
        )
    finally:
        for fd in held:
            os.close(fd)
        first.close()
    return None


def _limit(soft: int) -> str:
    return "unlimited" if soft == resource.RLIM_INFINITY else str(soft)


def _short(error: OSError, soft: int) -> Shortage:
    if error.errno == errno.EMFILE:
        return Shortage(
            FDS,
            f"out of file descriptors: none of the {_limit(soft)} its limit allows is free",
            FD_ADVICE,
        )
    if error.errno == errno.ENFILE:
        return Shortage(FDS, "the host has no file descriptor left", HOST_FILES_ADVICE)
    return Shortage(
        "memory", f"cannot open a socket: {os.strerror(error.errno or 0)}", MEMORY_ADVICE
    )


class Headroom:
    """Looks at the process's headroom, and remembers the last time it was short. Times
    are the running event loop's."""

    def __init__(self, look: Callable[[], Shortage | None] = probe) -> None:
        self._probe = look
        self.short_at: float | None = None
        """Loop time of the last look that found the process short."""
        self.last: Shortage | None = None
        """What that look found."""

    @staticmethod
    def now() -> float:
        """The event loop's time."""
        return asyncio.get_running_loop().time()

    def look(self) -> Shortage | None:
        """The shortage now (remembered), or None."""
        shortage = self._probe()
        if shortage is not None:
            self.short_at = self.now()
            self.last = shortage
        return shortage

    def blame(self, since: float) -> Shortage | None:
        """The arena's own shortage that may explain a failure to reach a bot in an
        attempt begun at ``since`` (loop time): one found now, or by a look since then;
        None if the arena had what it needed, and the failure is the bot's."""
        shortage = self.look()
        if shortage is not None:
            return shortage
        if self.short_at is not None and self.short_at >= since:
            return self.last
        return None
