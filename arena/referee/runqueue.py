"""How long the arena's own threads waited for a CPU: the kernel's run-queue wait of the
event loop's thread and of gRPC's I/O threads (Linux ``/proc/self/task/TID/schedstat``,
its second field, in nanoseconds).

A reply reaches the referee through gRPC's threads (an event-engine thread reads the
socket, the poller thread hands the completion to the loop) and then the loop itself.
On a machine with more runnable threads than cores, any of them can wait for a CPU while
the bot's reply is already there: measured on the 2-core machine, a reply that left the
bot 0.3 ms after the request sat 37 ms in the arena's process, while the loop's own tick
saw only 7 ms of lag (it counts only stalls longer than its jitter allowance; a thread
waiting for a CPU is late in many short steps). The run-queue wait is the kernel's exact
count of that time. ``clock.LoopLag`` samples it at each tick and counts it as the
arena's lag, so the bot is not charged for it.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
import weakref
from typing import Final, Protocol

REFRESH_S: Final = 1.0
"""How often the set of gRPC threads is looked at again (the event engine adds threads
under load)."""
POLLER_THREAD: Final = "_poll_wrapper"
"""In the name of grpc.aio's completion-queue poller thread (a Python thread)."""
IO_THREAD_COMM: Final = "event_engine"
"""The kernel name (comm) of gRPC's event-engine threads, which do the socket I/O."""


class RunQueueWaits(Protocol):
    """Cumulative run-queue waits of the arena's threads."""

    def read(self, now: float) -> tuple[float, float]:
        """Seconds, cumulative: how long the loop's thread has waited for a CPU, and how
        long the I/O threads have (summed over reads, the longest wait of any one of
        them between two reads: they hand a reply on one after the other, and a wait
        of several at once delays it once). ``now`` is the loop's time."""
        ...


def _wait_ns(fd: int) -> int:
    return int(os.pread(fd, 128, 0).split()[1])


def _close_all(fds: dict[int, int]) -> None:
    for fd in fds.values():
        with contextlib.suppress(OSError):
            os.close(fd)
    fds.clear()


class ThreadWaits:
    """``RunQueueWaits`` of the calling thread (the loop's) and of gRPC's I/O threads,
    read from ``/proc``. Each file stays open (a read is one ``pread``)."""

    def __init__(self) -> None:
        self._fds: dict[int, int] = {}
        """Open schedstat files by thread id: the loop's thread and the I/O threads."""
        self._loop_tid = threading.get_native_id()
        self._fds[self._loop_tid] = os.open(_schedstat(self._loop_tid), os.O_RDONLY)
        self._last: dict[int, int] = {}
        """Each I/O thread's wait at the last read, ns."""
        self._io_total_ns = 0
        self._refreshed = -math.inf
        weakref.finalize(self, _close_all, self._fds)

    def read(self, now: float) -> tuple[float, float]:
        if now - self._refreshed >= REFRESH_S:
            self._refreshed = now
            self._refresh()
        loop_wait = _wait_ns(self._fds[self._loop_tid])
        worst = 0
        for tid, last in list(self._last.items()):
            try:
                wait = _wait_ns(self._fds[tid])
            except (OSError, IndexError, ValueError):  # the thread has ended
                self._forget(tid)
                continue
            worst = max(worst, wait - last)
            self._last[tid] = wait
        self._io_total_ns += worst
        return loop_wait / 1e9, self._io_total_ns / 1e9

    def watched(self) -> list[str]:
        """The kernel names of the I/O threads watched (for tests and logs)."""
        return [_comm(tid) for tid in self._last]

    def _refresh(self) -> None:
        """Watch every gRPC I/O thread there is now, and forget those that ended."""
        pollers = {t.native_id for t in threading.enumerate() if POLLER_THREAD in t.name}
        try:
            alive = {int(name) for name in os.listdir("/proc/self/task")}
        except OSError:
            return
        for tid in [t for t in self._last if t not in alive]:
            self._forget(tid)
        for tid in alive - self._fds.keys():
            if tid in pollers or _comm(tid).startswith(IO_THREAD_COMM):
                try:
                    fd = os.open(_schedstat(tid), os.O_RDONLY)
                except OSError:
                    continue
                self._fds[tid] = fd
                try:
                    self._last[tid] = _wait_ns(fd)
                except (OSError, IndexError, ValueError):
                    self._forget(tid)

    def _forget(self, tid: int) -> None:
        self._last.pop(tid, None)
        fd = self._fds.pop(tid, None)
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


def _schedstat(tid: int) -> str:
    return f"/proc/self/task/{tid}/schedstat"


def _comm(tid: int) -> str:
    try:
        with open(f"/proc/self/task/{tid}/comm") as file:
            return file.read().strip()
    except OSError:
        return ""


def thread_waits() -> ThreadWaits | None:
    """The run-queue waits of the calling thread and gRPC's I/O threads, or None where
    the kernel does not report them (not Linux, or schedstats off)."""
    try:
        waits = ThreadWaits()
        waits.read(0.0)
    except (OSError, IndexError, ValueError):
        return None
    return waits
