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
"""

from __future__ import annotations

import asyncio
import weakref
from collections import deque
from collections.abc import Callable
from typing import Final, Protocol

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

    def __init__(self, loop: asyncio.AbstractEventLoop, tick_s: float = TICK_S) -> None:
        self._loop = loop
        self._tick_s = tick_s
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
        return total


_CLOCKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopLag] = weakref.WeakKeyDictionary()


def loop_clock() -> LoopLag:
    """The clock of the running event loop (one watch per loop, shared by its seats)."""
    loop = asyncio.get_running_loop()
    clock = _CLOCKS.get(loop)
    if clock is None:
        clock = _CLOCKS[loop] = LoopLag(loop)
    return clock
