"""The live ladder's rank intervals, computed once per change of the database and kept.

Rank intervals need every bot's rating (a bot far down the leaderboard with a wide
belief may still be better than the leader), so a page cannot compute them from its own
rows. Reading every rating on each public read would make a read cost more as the ladder
grows; instead the intervals last computed are kept with the writer's commit count
(``Store.commits``: every rated match and every bot change of ``arena serve`` is a
commit of its one writer Store): a read after no change costs a lookup, and only the
first read after a change pays for the whole ladder (off the event loop, on a read
thread).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from arena.league.intervals import RankInterval, calibration, rank_intervals
from arena.league.leaderboard import DEFAULT_SCHEDULE
from arena.league.rating import Skill
from arena.store import Store


@dataclass
class IntervalCache:
    """Per leaderboard filter (with or without retired bots): the last intervals, by bot."""

    ladder: str
    writer: Store
    """The Store every change of the ladder is committed through."""
    _kept: dict[bool, tuple[int, dict[str, RankInterval]]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def by_bot(self, store: Store, include_retired: bool) -> dict[str, RankInterval]:
        """Each bot's rank interval on the leaderboard with (or without) retired bots,
        read with ``store`` (a read connection) if they changed."""
        version = self.writer.commits  # read before the ratings: never newer than them
        with self._lock:
            kept = self._kept.get(include_retired)
        if kept is not None and kept[0] == version:
            return kept[1]
        ratings = store.ladder_ratings(self.ladder, include_retired=include_retired)
        found = rank_intervals(
            tuple(r.bot for r in ratings),
            tuple(Skill(r.mu, r.sigma) for r in ratings),
            sharpen=calibration(DEFAULT_SCHEDULE),
        )
        intervals = {r.bot: interval for r, interval in zip(ratings, found, strict=True)}
        with self._lock:
            self._kept[include_retired] = (version, intervals)
        return intervals
