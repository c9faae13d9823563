"""A ladder's rank intervals, kept between reads and refreshed at most every few seconds.

Rank intervals need every bot's rating (a bot far down the leaderboard with a wide
belief may still be better than the leader), so a page cannot compute them from its own
rows; and they cost about 1 ms of the interpreter per bot (posterior draws: 210 ms for
a ladder of 208 bots). Computed on every read after a change, a busy ladder (several
matches a second) would spend a core on them, holding the GIL the referee's event loop
needs. So the intervals last computed are kept with the ladder's version (for ``arena
serve``, its writer's commit count ``Store.commits``; for ``arena web``, the ladder's
newest match): a read after no change costs a lookup; a read after a change gets the
kept intervals while they are younger than ``refresh_s``, and otherwise recomputes them
(one reader at a time, on a read thread; the others keep getting the kept ones
meanwhile). Intervals move slowly; a few seconds of staleness is not visible.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Final

from arena.league.intervals import RankInterval, calibration, rank_intervals
from arena.league.leaderboard import DEFAULT_SCHEDULE
from arena.league.rating import Skill
from arena.store import Store

REFRESH_S: Final = 10.0
"""Kept intervals of a changed ladder serve this long before they are computed again."""


@dataclass
class _Kept:
    version: Hashable
    at: float
    intervals: dict[str, RankInterval]


@dataclass
class IntervalCache:
    """Per leaderboard filter (with or without retired bots): the last intervals, by bot."""

    ladder: str
    version: Callable[[Store], Hashable]
    """The ladder's version as ``store`` reads it (changes whenever a rating may have)."""
    sharpen: float = calibration(DEFAULT_SCHEDULE)
    """The calibration of the ladder's schedule (``intervals.calibration``)."""
    refresh_s: float = REFRESH_S
    clock: Callable[[], float] = time.monotonic
    _kept: dict[bool, _Kept] = field(default_factory=dict)
    _computing: set[bool] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def by_bot(self, store: Store, include_retired: bool) -> dict[str, RankInterval]:
        """Each bot's rank interval on the leaderboard with (or without) retired bots,
        read with ``store`` (a read connection) when they are due."""
        version = self.version(store)  # read before the ratings: never newer than them
        now = self.clock()
        with self._lock:
            kept = self._kept.get(include_retired)
            fresh = kept is not None and (kept.version == version or now - kept.at < self.refresh_s)
            if kept is not None and (fresh or include_retired in self._computing):
                return kept.intervals
            self._computing.add(include_retired)
        try:
            ratings = store.ladder_ratings(self.ladder, include_retired=include_retired)
            found = rank_intervals(
                tuple(r.bot for r in ratings),
                tuple(Skill(r.mu, r.sigma) for r in ratings),
                sharpen=self.sharpen,
            )
            intervals = {r.bot: interval for r, interval in zip(ratings, found, strict=True)}
            with self._lock:
                self._kept[include_retired] = _Kept(version, now, intervals)
            return intervals
        finally:
            with self._lock:
                self._computing.discard(include_retired)
