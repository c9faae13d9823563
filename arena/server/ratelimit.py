"""Rate limits: a per-key sliding window (an owner's changes per minute, a peer's failed
authentications) and per-key token buckets (reads per client address)."""

from __future__ import annotations

import ipaddress
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


class TokenBuckets:
    """Per key, a token bucket: ``burst`` events at once, then ``rate`` per second on
    average (the reads of one client address). In memory and O(1) per key: a key whose
    bucket has filled up again is the same as a key never seen, and such keys are dropped
    whenever the table has doubled since the last sweep."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        """key -> (tokens left, when counted)."""
        self._sweep_at = 1024

    def acquire(self, key: str) -> float:
        """Take one token for ``key`` and return 0, or, if its bucket is empty, take
        nothing and return the seconds until a token is there."""
        now = self._clock()
        tokens, then = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) >= self._sweep_at:
            self._sweep(now)
        return 0.0

    def _sweep(self, now: float) -> None:
        refill_s = self.burst / self.rate
        self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < refill_s}
        self._sweep_at = max(1024, 2 * len(self._buckets))

    def __len__(self) -> int:
        return len(self._buckets)


def peer_key(peer: str) -> str:
    """The client address a gRPC peer string (``ipv4:1.2.3.4:5678``,
    ``ipv6:[2001:db8::1]:5678``) is counted under: an IPv4 address (IPv4-mapped IPv6
    addresses included), the /64 network of an IPv6 address (one subscriber gets a
    whole /64, so counting its addresses one by one would count nothing), or, for
    anything else (a Unix socket), the peer string without a port."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv4":
        return rest.rpartition(":")[0] or rest
    if kind == "ipv6":
        host = rest.rpartition(":")[0].strip("[]") if rest.startswith("[") else rest
        try:
            address = ipaddress.IPv6Address(host.partition("%")[0])
        except ValueError:
            return peer
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return peer
