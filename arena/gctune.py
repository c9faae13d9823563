"""Garbage-collector settings for the arena's and the bots' long-running processes.

Both are latency-sensitive servers: the referee cuts every decision at its deadline on
its own event-loop timer, and a bot must answer within it. With CPython's defaults a
full collection walks every live match's state and record, which in a league of 64
concurrent matches stalls the loop for 20-30 ms (scripts/bench/bench_referee.py: timeouts
were cut up to 32 ms late; with these settings, under 20 ms). The arena's garbage is
almost all acyclic and freed by reference counting, so collecting less often costs
little memory.
"""

from __future__ import annotations

import gc
from typing import Final

YOUNG_THRESHOLD: Final = 10_000
"""Allocations between young-generation collections (CPython's default: 700)."""


def tune_for_latency() -> None:
    """Move everything alive now (modules, tables) out of the collector's sight, and
    collect the young generations less often. Call once, when the process has started."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, 20, 100)
