"""A ladder's rank intervals, kept between reads and refreshed at most every few seconds.

Rank intervals need every bot's rating (a bot far down the leaderboard with a wide
belief may still be better than the leader) and the joint model's fit of the whole
ladder, so a page cannot compute them from its own rows; and the fit and the posterior
draws cost tens of milliseconds on a large ladder (docs/RATINGS.md). Computed on every
read after a change, a busy ladder (several matches a second) would spend a core on
them, holding the GIL the referee's event loop needs. So the intervals last computed
are kept with the ladder's version (for ``arena serve``, its writer's commit count
``Store.commits``; for ``arena web``, the ladder's newest match): a read after no
change costs a lookup; a read after a change gets the kept intervals while they are
younger than ``refresh_s``, and otherwise still gets them while a background thread
computes the new ones on a read connection of its own (one at a time), so no read waits
for the draws but the very first. Intervals move slowly; a few seconds of staleness is
not visible. The live ladder's matchmaking reads the joint model kept here too
(``joint``), and each commit asks for a refresh when one is due (``nudge``), so the
model follows the ladder even when nobody reads it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Final

from arena.league.intervals import RankInterval, ladder_joint, rank_intervals
from arena.league.joint import JointFit
from arena.store import Store

log = logging.getLogger(__name__)

REFRESH_S: Final = 10.0
"""Kept intervals of a changed ladder serve this long before they are computed again."""
COST_SHARE: Final = 5.0
"""...or this many times what computing them took, if that is longer."""


def _in_a_thread(work: Callable[[], None]) -> None:
    threading.Thread(target=work, name="arena-intervals", daemon=True).start()


def ladder_intervals(
    store: Store, ladder: str, *, include_retired: bool, start: JointFit | None = None
) -> tuple[dict[str, RankInterval], JointFit]:
    """Each bot's rank interval on the ladder's leaderboard, read now, and the joint
    model they come from: every rating of the ladder (one row per bot) and the model's
    counts (one row per distinct choice set), never its history. ``start``: the fit
    kept from before (a refit from it takes fewer steps)."""
    ratings = store.ladder_ratings(ladder, include_retired=include_retired)
    joint = ladder_joint(store, ladder, start)
    found = rank_intervals(joint, [r.bot for r in ratings])
    return {r.bot: interval for r, interval in zip(ratings, found, strict=True)}, joint


@dataclass
class _Kept:
    version: Hashable
    at: float
    intervals: dict[str, RankInterval]
    joint: JointFit
    cost: float
    """How long computing them took (the clock's seconds)."""


@dataclass
class IntervalCache:
    """Per leaderboard filter (with or without retired bots): the last intervals, by bot."""

    ladder: str
    version: Callable[[Store], Hashable]
    """The ladder's version as ``store`` reads it (changes whenever a rating may have)."""
    open_reader: Callable[[], Store] | None = None
    """A read connection of the cache's own, for refreshing in the background (None:
    the read that finds them due computes them, and waits)."""
    refresh_s: float = REFRESH_S
    clock: Callable[[], float] = time.monotonic
    background: Callable[[Callable[[], None]], None] = _in_a_thread
    """Runs a refresh (a thread; tests run it at once)."""
    _kept: dict[bool, _Kept] = field(default_factory=dict)
    _computing: set[bool] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def by_bot(self, store: Store, include_retired: bool) -> dict[str, RankInterval]:
        """Each bot's rank interval on the leaderboard with (or without) retired bots:
        the kept ones, computed with ``store`` (a read connection) the first time."""
        version = self.version(store)  # read before the ratings: never newer than them
        now = self.clock()
        with self._lock:
            kept = self._kept.get(include_retired)
            if kept is not None:
                due = kept.version != version and now - kept.at >= self._every(kept)
                if not due or include_retired in self._computing:
                    return kept.intervals
            self._computing.add(include_retired)
        if kept is not None and self.open_reader is not None:
            self.background(lambda: self._refresh(include_retired))
            return kept.intervals
        try:
            return self._compute(store, include_retired, version, now)
        finally:
            with self._lock:
                self._computing.discard(include_retired)

    def joint(self) -> JointFit:
        """The joint model last fitted (the prior alone before the first): what the live
        ladder's matchmaking reads, a few seconds stale at most."""
        with self._lock:
            kept = self._kept.get(True) or self._kept.get(False)
        return kept.joint if kept is not None else JointFit.empty()

    def nudge(self, store: Store) -> None:
        """After a commit: refresh in the background if due (never here), so that the
        matchmaking's joint model follows the ladder even when nobody reads it."""
        if self.open_reader is None:
            return
        version = self.version(store)
        now = self.clock()
        with self._lock:
            kept = self._kept.get(True)
            if True in self._computing:
                return
            if kept is not None and (kept.version == version or now - kept.at < self._every(kept)):
                return
            self._computing.add(True)
        self.background(lambda: self._refresh(True))

    def _every(self, kept: _Kept) -> float:
        """How old kept figures must be before a change makes them due: ``refresh_s``,
        or ``COST_SHARE`` times what they took to compute if that is longer (a ladder
        whose fit takes seconds is refitted at most a fifth of the time)."""
        return max(self.refresh_s, kept.cost * COST_SHARE)

    def _refresh(self, include_retired: bool) -> None:
        """Compute the intervals again on a connection of the cache's own."""
        assert self.open_reader is not None
        try:
            store = self.open_reader()
            try:
                self._compute(store, include_retired, self.version(store), self.clock())
            finally:
                store.close()
        except Exception:  # the kept intervals serve on; the next due read tries again
            log.exception("rank intervals of %s could not be refreshed", self.ladder)
        finally:
            with self._lock:
                self._computing.discard(include_retired)

    def _compute(
        self, store: Store, include_retired: bool, version: Hashable, now: float
    ) -> dict[str, RankInterval]:
        with self._lock:
            before = self._kept.get(include_retired)
        intervals, joint = ladder_intervals(
            store,
            self.ladder,
            include_retired=include_retired,
            start=before.joint if before is not None else None,
        )
        cost = max(self.clock() - now, 0.0)
        with self._lock:
            self._kept[include_retired] = _Kept(version, now, intervals, joint, cost)
        return intervals
