"""The live ladder's rank intervals are kept between reads: recomputed after a change
only once the kept ones are ``refresh_s`` old (the joint model's fit and draws cost
tens of milliseconds on a large ladder, on the GIL the referee's loop needs), never
on a read after no change, and then in the background while reads get the kept ones.
On a fake clock."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.server import intervals_cache
from arena.server.intervals_cache import IntervalCache
from arena.store import open_store

from .kit import LADDER, history


def _cache(
    db: Path, version: list[int], now: list[float], refreshes: list[Callable[[], None]]
) -> IntervalCache:
    """A cache of the ladder in ``db`` whose version, clock and background thread the
    test moves by hand."""
    return IntervalCache(
        LADDER,
        lambda _store: version[0],
        open_reader=lambda: open_store(db, read_only=True),
        refresh_s=10.0,
        clock=lambda: now[0],
        background=refreshes.append,
    )


def test_intervals_are_kept_until_the_ladder_changes_and_they_are_due(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    history(db, matches=30)
    version, now = [0], [100.0]
    refreshes: list[Callable[[], None]] = []  # run by hand below, as the thread would
    cache = _cache(db, version, now, refreshes)
    store = open_store(db, read_only=True)
    try:
        first = cache.by_bot(store, include_retired=True)
        assert first
        assert all(1 <= i.rank_low <= i.rank_high for i in first.values())
        now[0] += 60.0
        assert cache.by_bot(store, include_retired=True) is first  # no change: kept
        version[0] += 1  # a change 60 s after they were computed: due at once...
        assert cache.by_bot(store, include_retired=True) is first  # ...the kept ones meanwhile
        assert len(refreshes) == 1
        assert cache.by_bot(store, include_retired=True) is first  # one refresh at a time
        assert len(refreshes) == 1
        refreshes.pop()()
        second = cache.by_bot(store, include_retired=True)
        assert second is not first
        version[0] += 1
        now[0] += 5.0
        assert cache.by_bot(store, include_retired=True) is second  # changed, not yet due
        now[0] += 5.0
        assert cache.by_bot(store, include_retired=True) is second
        refreshes.pop()()
        again = cache.by_bot(store, include_retired=True)
        assert again is not second
        assert again == first  # the same ratings, the same (seeded) intervals
        assert cache.by_bot(store, include_retired=False) is not again  # its own filter
    finally:
        store.close()


def test_commits_keep_the_matchmaking_s_joint_model_fitted_even_without_reads(
    tmp_path: Path,
) -> None:
    """The live ladder's tables are chosen by the joint model kept here: each commit asks
    for a refit when one is due (in the background, never on the caller), so it follows
    the ladder although nobody reads the leaderboard."""
    db = tmp_path / "arena.db"
    history(db, matches=30)
    version, now = [0], [100.0]
    refreshes: list[Callable[[], None]] = []
    cache = _cache(db, version, now, refreshes)
    store = open_store(db, read_only=True)
    try:
        assert cache.joint().bots == ()  # nothing fitted yet: the prior alone
        cache.nudge(store)
        assert len(refreshes) == 1
        cache.nudge(store)
        assert len(refreshes) == 1  # one refit at a time
        refreshes.pop()()
        fitted = cache.joint()
        assert len(fitted.bots) > 2
        cache.nudge(store)
        assert not refreshes  # no change since
        version[0] += 1
        now[0] += 5.0
        cache.nudge(store)
        assert not refreshes  # changed, not yet due
        now[0] += 5.0
        cache.nudge(store)
        assert len(refreshes) == 1
    finally:
        store.close()


def test_a_ladder_whose_fit_is_slow_is_refitted_at_most_a_fifth_of_the_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "arena.db"
    history(db, matches=30)
    version, now = [0], [100.0]
    real = intervals_cache.ladder_intervals

    def slow(*args: Any, **kwargs: Any) -> Any:
        now[0] += 4.0  # the fit takes 4 s of the (fake) clock
        return real(*args, **kwargs)

    monkeypatch.setattr(intervals_cache, "ladder_intervals", slow)
    refreshes: list[Callable[[], None]] = []
    cache = _cache(db, version, now, refreshes)
    store = open_store(db, read_only=True)
    try:
        first = cache.by_bot(store, include_retired=True)
        version[0] += 1
        now[0] += 12.0  # past refresh_s, but not 5 x 4 s since they were computed
        assert cache.by_bot(store, include_retired=True) is first
        assert not refreshes
        now[0] += 8.0
        assert cache.by_bot(store, include_retired=True) is first
        assert len(refreshes) == 1
    finally:
        store.close()
