"""A per-key sliding-window rate limit (an owner's changes, a peer's failed
authentications)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable


class RateLimiter:
    """At most ``limit`` events per key in any ``window_s`` seconds. In memory: a restart
    forgets the window, which costs at most one extra window of events."""

    def __init__(
        self, limit: int, window_s: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window_s = window_s
        self._clock = clock
        self._events: dict[str, deque[float]] = {}

    def wait_s(self, key: str) -> float:
        """Seconds until an event for ``key`` would be allowed (0: now); counts nothing."""
        now = self._clock()
        events = self._events.get(key)
        if events is None:
            return 0.0
        while events and events[0] <= now - self.window_s:
            events.popleft()
        if not events:
            del self._events[key]  # a key seen once long ago costs no memory
            return 0.0
        if len(events) >= self.limit:
            return max(0.0, events[0] + self.window_s - now)
        return 0.0

    def acquire(self, key: str) -> float:
        """Count an event for ``key`` and return 0, or, if the limit is reached, count
        nothing and return the seconds until the next event would be allowed."""
        wait = self.wait_s(key)
        if wait:
            return wait
        self._events.setdefault(key, deque()).append(self._clock())
        return 0.0
