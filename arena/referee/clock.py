"""The arena's clock for deadlines: the event loop's time, and how late the loop ran.

A bot is charged only for time it had. The referee's event loop is shared by every match
it plays (and, in ``arena serve``, by the gRPC service): when it is busy, its timers fire
late and replies wait unread, so a decision's wall time includes the arena's own lag.
``LoopLag`` watches the loop with a periodic tick that measures its own lateness: a tick
due at ``t`` that runs at ``t + x`` means the loop could not run anything for ``x``.
``lag(since, until)`` sums those stalls (ticks later than JITTER_S) over a span; a
deadline is then measured in time the bot had (wall time minus the arena's lag), see
``seats.RemoteSeat``.

The tick runs only while some decision is waiting (``hold``/``release``), so an idle
arena does not wake up for nothing. Stalls shorter than a tick interval are not seen; a
deadline charges at most that much of the arena's lag to a bot.

The tick also samples the kernel's count of how long the loop's thread and gRPC's I/O
threads waited for a CPU (``runqueue.py``): on a machine with more runnable threads than
cores, a reply can sit in the arena's process for tens of milliseconds in waits each
shorter than the jitter allowance. The lag of a span is then the larger of the stalls and
the loop thread's wait, plus the I/O threads' wait. Only on a loop whose clock is real
time: a virtual clock (tests) has no kernel waits.
"""

from __future__ import annotations

import asyncio
import bisect
import weakref
from array import array
from collections import deque
from collections.abc import Callable
from typing import Final, Protocol

from .runqueue import RunQueueWaits, thread_waits

TICK_S: Final = 0.005
"""How often the watch ticks while decisions wait (its overhead: one callback per tick)."""
JITTER_S: Final = 0.002
"""A tick this late or less is the loop's ordinary pace (a turn through many matches'
ready callbacks), not a stall: not counted. (Counted, it would credit a bot with most of
its wall time whenever the loop is merely busy.)"""
KEEP_S: Final = 120.0
"""How far back stalls are remembered (longer than any decision may wait)."""


class Timer(Protocol):
    """A scheduled callback that can be cancelled (``asyncio.TimerHandle``)."""

    def cancel(self) -> None:
        """Do not run the callback."""
        ...


class ArenaClock(Protocol):
    """What a seat's deadline needs from a clock it does not own."""

    def time(self) -> float:
        """Now, in seconds (the event loop's monotonic time)."""
        ...

    def call_at(self, when: float, callback: Callable[[], object]) -> Timer:
        """Run ``callback`` at ``when`` (or as soon after as the loop can)."""
        ...

    def lag(self, since: float, until: float) -> float:
        """Seconds between ``since`` and ``until`` during which the arena's loop was
        stalled (could not run its callbacks): time a waiting bot was not given."""
        ...

    def hold(self) -> None:
        """A decision starts waiting: watch the loop."""
        ...

    def release(self) -> None:
        """A decision stopped waiting."""
        ...


class LoopLag:
    """The clock of one event loop, with a watch on its lag (see the module)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        tick_s: float = TICK_S,
        waits: RunQueueWaits | None = None,
    ) -> None:
        self._loop = loop
        self._tick_s = tick_s
        self._waits = waits
        self._sampled = array("d")
        """When each run-queue wait sample was taken (loop time), oldest first."""
        self._loop_waits = array("d")
        """The loop thread's cumulative wait at each sample."""
        self._io_waits = array("d")
        """The I/O threads' cumulative wait at each sample."""
        self._stalls: deque[tuple[float, float]] = deque()
        """(start, end) of each stall seen, oldest first."""
        self._due = 0.0
        """When the pending tick should run (meaningful while ``_handle`` is set)."""
        self._handle: asyncio.TimerHandle | None = None
        self._holders = 0
        self.worst_s = 0.0
        """The longest stall seen (for benchmarks and logs)."""

    def time(self) -> float:
        """The loop's time."""
        return self._loop.time()

    def call_at(self, when: float, callback: Callable[[], object]) -> Timer:
        """``loop.call_at``."""
        return self._loop.call_at(when, callback)

    def hold(self) -> None:
        """Watch the loop while at least one decision waits."""
        self._holders += 1
        if self._handle is None:
            self._sample(self._loop.time())  # the span from here on has a first sample
            self._due = self._loop.time() + self._tick_s
            self._handle = self._loop.call_at(self._due, self._tick)

    def release(self) -> None:
        """One decision less waiting; the watch stops at its next tick once none waits."""
        self._holders = max(0, self._holders - 1)

    def _tick(self) -> None:
        now = self._loop.time()
        late = now - self._due
        if late > JITTER_S:
            self._stalls.append((self._due, now))
            self.worst_s = max(self.worst_s, late)
        self._sample(now)
        horizon = now - KEEP_S
        stalls = self._stalls
        while stalls and stalls[0][1] < horizon:
            stalls.popleft()
        if self._holders > 0:
            self._due = now + self._tick_s
            self._handle = self._loop.call_at(self._due, self._tick)
        else:
            self._handle = None

    def lag(self, since: float, until: float) -> float:
        """The stalled time within [since, until], the stall still going on included (a
        tick that is overdue now: the loop has been busy since it was due)."""
        total = 0.0
        for start, end in reversed(self._stalls):
            if end <= since:
                break
            total += max(0.0, min(end, until) - max(start, since))
        if self._handle is not None and until - self._due > JITTER_S:
            total += until - max(self._due, since)
        if self._sampled:
            loop_wait, io_wait = self._waited(since, until)
            total = max(total, loop_wait) + io_wait
        return total

    def _sample(self, now: float) -> None:
        """Record the threads' run-queue waits so far (if this loop has them)."""
        if self._waits is None:
            return
        loop_wait, io_wait = self._waits.read(now)
        self._sampled.append(now)
        self._loop_waits.append(loop_wait)
        self._io_waits.append(io_wait)
        if self._sampled[0] < now - 2 * KEEP_S:  # drop what is past KEEP_S, now and then
            old = bisect.bisect_left(self._sampled, now - KEEP_S)
            del self._sampled[:old], self._loop_waits[:old], self._io_waits[:old]

    def _waited(self, since: float, until: float) -> tuple[float, float]:
        """The loop thread's and the I/O threads' run-queue waits within [since, until],
        by the samples around it (a sample is at most a tick apart while decisions wait:
        a wait just before ``since`` may count, one after the last sample does not)."""
        first = max(bisect.bisect_right(self._sampled, since) - 1, 0)
        last = bisect.bisect_right(self._sampled, until) - 1
        if last <= first:
            return 0.0, 0.0
        return (
            self._loop_waits[last] - self._loop_waits[first],
            self._io_waits[last] - self._io_waits[first],
        )


_CLOCKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopLag] = weakref.WeakKeyDictionary()


def loop_clock() -> LoopLag:
    """The clock of the running event loop (one watch per loop, shared by its seats)."""
    loop = asyncio.get_running_loop()
    clock = _CLOCKS.get(loop)
    if clock is None:
        # Kernel waits are real time: only a loop on the real clock may count them.
        real_time = type(loop).time is asyncio.BaseEventLoop.time
        clock = _CLOCKS[loop] = LoopLag(loop, waits=thread_waits() if real_time else None)
    return clock
