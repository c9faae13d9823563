"""The live ladder's rank intervals are kept between reads: recomputed after a change
only once the kept ones are ``refresh_s`` old (the joint model's fit and draws cost
tens of milliseconds on a large ladder, on the GIL the referee's loop needs), never
on a read after no change, and then in the background while reads get the kept ones.
On a fake clock."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from arena.server import intervals_cache
from arena.server.intervals_cache import IntervalCache
from arena.store import Store, open_store

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
        # one computation serves both filters (nobody retired here: the same board)
        assert cache.by_bot(store, include_retired=False) is again
        assert not refreshes
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
    real = intervals_cache.ladder_figures

    def slow(*args: Any, **kwargs: Any) -> Any:
        now[0] += 4.0  # the fit takes 4 s of the (fake) clock
        return real(*args, **kwargs)

    monkeypatch.setattr(intervals_cache, "ladder_figures", slow)
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


@dataclass(frozen=True)
class _ReaderThatSaysWhere:
    """Opens the database like the server's reader, and writes down the process it was
    called in."""

    db: Path
    where: Path

    def __call__(self) -> Store:
        self.where.write_text(str(os.getpid()))
        return open_store(self.db, read_only=True)


def test_the_fit_runs_in_a_process_of_its_own_and_shows_the_same_figures(
    tmp_path: Path,
) -> None:
    """On a long history the fit takes seconds of CPU: in the server's process it would
    hold the GIL every read and the referee's loop need. A ladder with more count rows
    than ``worker_rows`` is fitted in the fit worker, which computes exactly what the
    server would, and ends with the server."""
    db = tmp_path / "arena.db"
    history(db, matches=30)
    where = tmp_path / "pid"
    reader = _ReaderThatSaysWhere(db, where)
    cache = IntervalCache(LADDER, lambda _store: 0, open_reader=reader, worker_rows=10)
    store = open_store(db, read_only=True)
    try:
        away = cache.by_bot(store, include_retired=True)
        worker = int(where.read_text())
        assert worker != os.getpid()
        here = intervals_cache.ladder_figures(store, LADDER)
        assert away == here.intervals[True]
        assert cache.joint().bots == here.joint.bots
        assert cache.by_bot(store, include_retired=False) == here.intervals[False]
    finally:
        store.close()
        intervals_cache.stop_fit_worker()
    with pytest.raises(ProcessLookupError):
        os.kill(worker, 0)
