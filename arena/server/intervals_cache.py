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
has new ones computed (one at a time), so no read waits for the fit but the very first.

The fit runs in a process of its own (``fit_worker``), niced: on a ladder of a million
matches it reads two million count rows and takes seconds of CPU, which on a thread
would hold the GIL that every read and the referee's loop need (docs/BENCHMARKS.md,
public reads). Intervals move slowly; a few seconds of staleness is not visible. The
live ladder's matchmaking reads the joint model kept here too (``joint``), and each
commit asks for a refresh when one is due (``nudge``), so the model follows the ladder
even when nobody reads it.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Final

from arena.league.intervals import RankInterval, ladder_joint, rank_intervals
from arena.league.joint import JointFit
from arena.store import Store

from .worker_processes import end_pool, end_with_arena, process_pool

log = logging.getLogger(__name__)

REFRESH_S: Final = 10.0
"""Kept intervals of a changed ladder serve this long before they are computed again."""
COST_SHARE: Final = 5.0
"""...or this many times what computing them took, if that is longer."""
WORKER_NICENESS: Final = 10
"""The fitting process yields the CPU to the referee, the bots and the reads."""
WORKER_ROWS: Final = 20_000
"""A ladder with more count rows than this is fitted in the fit worker (a fit of 20,000
rows takes about 0.1 s)..."""
WORKER_BOTS: Final = 100
"""...and so is one with more bots than this (the fit's cost grows with the cube of the
bots too: 200 bots take about 0.3 s however few their rows). A small ladder is fitted
where it is asked for: starting the worker costs more than its fit."""

Reader = Callable[[], Store]
"""Opens a read connection of the ladder's database (picklable, for the fit worker:
e.g. ``functools.partial(open_store, path, read_only=True)``)."""


@dataclass(frozen=True, slots=True)
class Figures:
    """What one computation of a ladder yields: the joint model, and each bot's rank
    interval on the leaderboard with retired bots (``intervals[True]``) and without."""

    joint: JointFit
    intervals: Mapping[bool, dict[str, RankInterval]]


def ladder_figures(store: Store, ladder: str, start: JointFit | None = None) -> Figures:
    """The ladder's joint model and rank intervals, read now: every rating of the ladder
    (one row per bot) and the model's counts (one row per distinct choice set), never
    its history. ``start``: the fit kept from before (a refit from it takes fewer
    steps). One fit serves both leaderboards (with and without retired bots)."""
    joint = ladder_joint(store, ladder, start)
    intervals: dict[bool, dict[str, RankInterval]] = {}
    for include_retired in (True, False):
        bots = [r.bot for r in store.ladder_ratings(ladder, include_retired=include_retired)]
        everyone = intervals.get(True)
        if everyone is not None and len(bots) == len(everyone):
            intervals[include_retired] = everyone  # nobody retired: the same board
            continue
        found = rank_intervals(joint, bots)
        intervals[include_retired] = dict(zip(bots, found, strict=True))
    return Figures(joint, intervals)


def figures_from(open_reader: Reader, ladder: str, start: JointFit | None) -> Figures:
    """``ladder_figures`` on a read connection of its own."""
    store = open_reader()
    try:
        return ladder_figures(store, ladder, start)
    finally:
        store.close()


_worker_lock = threading.Lock()
_worker: ProcessPoolExecutor | None = None


def fit_worker() -> ProcessPoolExecutor:
    """The process the joint model is fitted in (started on first use;
    ``worker_processes``)."""
    global _worker
    with _worker_lock:
        if _worker is None:
            _worker = process_pool(1, _in_the_worker)
        return _worker


def _in_the_worker(arena: int) -> None:  # pragma: no cover - runs in the worker
    """Lower the worker's priority, and end it with the arena's process."""
    os.nice(WORKER_NICENESS)
    end_with_arena(arena, "arena-fit-parent")


def figures_in_worker(open_reader: Reader, ladder: str, start: JointFit | None) -> Figures:
    """``figures_from`` in the fit worker; the calling thread waits without the GIL. A
    worker that died is replaced for the next call (this one raises)."""
    global _worker
    worker = fit_worker()
    try:
        return worker.submit(figures_from, open_reader, ladder, start).result()
    except BaseException:
        if getattr(worker, "_broken", False):
            with _worker_lock:
                if _worker is worker:
                    _worker = None
        raise


def stop_fit_worker() -> None:
    """End the fit worker now, a fit under way or not (a server stopping must not wait
    seconds for figures nobody will read)."""
    global _worker
    with _worker_lock:
        worker, _worker = _worker, None
    if worker is not None:
        end_pool(worker)


def _in_a_thread(work: Callable[[], None]) -> None:
    threading.Thread(target=work, name="arena-intervals", daemon=True).start()


@dataclass
class _Kept:
    version: Hashable
    at: float
    figures: Figures
    cost: float
    """How long computing them took (the clock's seconds)."""


@dataclass
class IntervalCache:
    """A ladder's last rank intervals (with and without retired bots) and joint model."""

    ladder: str
    version: Callable[[Store], Hashable]
    """The ladder's version as ``store`` reads it (changes whenever a rating may have)."""
    open_reader: Reader | None = None
    """A read connection of the cache's own, for computing in the background and in the
    fit worker (None: the read that finds them due computes them itself, and waits)."""
    refresh_s: float = REFRESH_S
    clock: Callable[[], float] = time.monotonic
    background: Callable[[Callable[[], None]], None] = _in_a_thread
    """Runs a refresh (a thread; tests run it by hand)."""
    worker_rows: int = WORKER_ROWS
    worker_bots: int = WORKER_BOTS
    """Ladders with more count rows or bots are fitted in the fit worker
    (``figures_in_worker``)."""
    _kept: _Kept | None = None
    _computing: bool = False
    """A background refresh is under way."""
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _first: threading.Lock = field(default_factory=threading.Lock)
    """Held while figures are computed (by a read that found none kept, or a refresh): a
    read that finds none kept waits for those (not the GIL) rather than computing its
    own."""

    def by_bot(self, store: Store, include_retired: bool) -> dict[str, RankInterval]:
        """Each bot's rank interval on the leaderboard with (or without) retired bots:
        the kept ones, computed with ``store`` (a read connection) the first time."""
        version = self.version(store)  # read before the ratings: never newer than them
        now = self.clock()
        with self._lock:
            kept = self._kept
            if kept is not None and (self._computing or not self._due(kept, version, now)):
                return kept.figures.intervals[include_retired]
            refresh = kept is not None and self.open_reader is not None
            self._computing = self._computing or refresh
        if kept is not None and refresh:
            self.background(lambda: self._refresh(version, now))
            return kept.figures.intervals[include_retired]
        with self._first:
            with self._lock:
                kept = self._kept
            if kept is None or self._due(kept, version, now):
                kept = self._compute(store, version, now)
        return kept.figures.intervals[include_retired]

    def joint(self) -> JointFit:
        """The joint model last fitted (the prior alone before the first): what the live
        ladder's matchmaking reads, a few seconds stale at most."""
        with self._lock:
            kept = self._kept
        return kept.figures.joint if kept is not None else JointFit.empty()

    def nudge(self, store: Store) -> None:
        """After a commit (and when the server starts): refresh in the background if
        due (never here), so that the matchmaking's joint model follows the ladder even
        when nobody reads it."""
        if self.open_reader is None:
            return
        version = self.version(store)
        now = self.clock()
        with self._lock:
            kept = self._kept
            if self._computing or (kept is not None and not self._due(kept, version, now)):
                return
            self._computing = True
        self.background(lambda: self._refresh(version, now))

    def _due(self, kept: _Kept, version: Hashable, now: float) -> bool:
        """Whether kept figures are to be computed again: the ladder changed since, and
        they are ``refresh_s`` old, or ``COST_SHARE`` times what they took to compute if
        that is longer (a ladder whose fit takes seconds is refitted at most a fifth of
        the time)."""
        return kept.version != version and now - kept.at >= max(
            self.refresh_s, kept.cost * COST_SHARE
        )

    def _refresh(self, version: Hashable, now: float) -> None:
        """Compute the figures again (in the background; a first read meanwhile waits
        for these rather than computing its own)."""
        try:
            with self._first:
                self._compute(None, version, now)
        except Exception:  # the kept figures serve on; the next due read tries again
            log.exception("rank intervals of %s could not be refreshed", self.ladder)
        finally:
            with self._lock:
                self._computing = False

    def _compute(self, store: Store | None, version: Hashable, now: float) -> _Kept:
        """Compute the figures now, with ``store`` or (None) a read connection of the
        cache's own, and keep them."""
        with self._lock:
            before = self._kept
        start = before.figures.joint if before is not None else None
        if store is not None:
            figures = self._figures(store, start)
        else:
            assert self.open_reader is not None
            own = self.open_reader()
            try:
                figures = self._figures(own, start)
            finally:
                own.close()
        kept = _Kept(version, now, figures, max(self.clock() - now, 0.0))
        with self._lock:
            self._kept = kept
        return kept

    def _figures(self, store: Store, start: JointFit | None) -> Figures:
        """A large ladder's in the fit worker, a small one's here."""
        if self.open_reader is not None and (
            store.rated_bots(self.ladder) > self.worker_bots
            or store.outcome_rows_over(self.ladder, self.worker_rows)
        ):
            return figures_in_worker(self.open_reader, self.ladder, start)
        return ladder_figures(store, self.ladder, start)
