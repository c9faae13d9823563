"""What the pages show, built from the store: plain data the templates (and the static
export) render. Every function here runs on a read pool thread and reads a bounded
amount (see ``arena/store/web_reads.py``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Final, TypeVar

from arena.league.intervals import RankInterval
from arena.league.leaderboard import Row, standing_row, with_interval
from arena.server.intervals_cache import IntervalCache, Reader, ladder_figures
from arena.store import Store
from arena.store.rows import Standing, standing_key
from arena.store.web_reads import RatingPoint, bot_history, ladder_heads, window_seats
from arena.text import shown

from .chart import Chart, rating_chart

T = TypeVar("T")

CHART_BOTS: Final = 10
"""The ladder's rating chart shows the best ranked this many bots of the page..."""
CHART_POINTS: Final = 200
"""...each over its newest this many rated matches."""
H2H_WINDOW: Final = 1000
"""The head-to-head matrix counts the ladder's newest this many matches."""
H2H_BOTS: Final = 12
"""The matrix shows at most this many bots (the best ranked on the page)."""
SHARED_S: Final = 1.0
"""How long a ladder's chart and matrix, once read, serve every page that asks (so many
readers of a busy ladder cost the database one read a second, not one each)."""
LEADERBOARD_PAGE: Final = 100
"""Rows of a leaderboard page."""


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """A leaderboard row as the page shows it."""

    row: Row
    """The rank, name, rating and totals, as every leaderboard rounds them."""
    forfeits: int
    """Matches forfeited."""
    status: str | None
    """A submitted bot's life on the ladder (None for a league's bots)."""

    @property
    def low(self) -> float:
        """The interval's lower end, mu - 3 sigma: the conservative rating ranked by."""
        return round(self.row.mu - 3 * self.row.sigma, 2)

    @property
    def high(self) -> float:
        """The interval's upper end, mu + 3 sigma."""
        return round(self.row.mu + 3 * self.row.sigma, 2)


@dataclass(frozen=True, slots=True)
class LeaderPage:
    """One page of a ladder's leaderboard."""

    rows: list[LeaderRow]
    next: tuple[float, str, int] | None
    """(standing key, name, last rank) after which the next page starts."""


class LadderIntervals:
    """Each ladder's 95% rank intervals and ``p_above_next``, as every leaderboard shows
    them (arena/league/intervals.py), kept per ladder between reads and refreshed at most
    every few seconds (``IntervalCache``: they cost about 1 ms per bot); a ladder's
    version is its newest match (one index seek)."""

    def __init__(self, open_reader: Reader | None = None) -> None:
        self._open_reader = open_reader
        """A read connection of the caches' own, to refresh them in the background."""
        self._caches: dict[str, IntervalCache] = {}
        self._lock = threading.Lock()

    def get(self, store: Store, ladder: str) -> dict[str, RankInterval]:
        """The ladder's intervals by bot, read with ``store`` when due."""
        with self._lock:
            cache = self._caches.get(ladder)
        if cache is None:
            cache = IntervalCache(
                ladder,
                lambda read: ladder_heads(read, [ladder]).get(ladder),
                open_reader=self._open_reader,
            )
            with self._lock:
                if len(self._caches) > 256:  # ladder names come from requests
                    self._caches.clear()
                cache = self._caches.setdefault(ladder, cache)
        return cache.by_bot(store, include_retired=True)


def ladder_intervals(store: Store, ladder: str) -> dict[str, RankInterval]:
    """The ladder's intervals read now (what the static export shows)."""
    return dict(ladder_figures(store, ladder).intervals[True])


def leader_rows(
    standings: Sequence[Standing], first_rank: int, intervals: Mapping[str, RankInterval]
) -> list[LeaderRow]:
    """Standings (``Store.standings``) as rows ranked from ``first_rank``, with their
    rank intervals."""
    return [
        LeaderRow(
            with_interval(standing_row(rank, s.rating, s.stats), intervals),
            int(s.stats.get("forfeits", 0) or 0),
            s.status,
        )
        for rank, s in enumerate(standings, start=first_rank)
    ]


def leader_page(
    store: Store,
    ladder: str,
    *,
    after: tuple[float, str, int] | None = None,
    limit: int = LEADERBOARD_PAGE,
    intervals: Mapping[str, RankInterval] | None = None,
) -> LeaderPage:
    """Up to ``limit`` rows in leaderboard order after ``after`` (indexed), with the
    ladder's rank ``intervals`` (read now if not given)."""
    standings = store.standings(
        ladder, after=(after[0], after[1]) if after else None, limit=limit + 1
    )
    more = len(standings) > limit
    standings = standings[:limit]
    first = after[2] + 1 if after else 1
    if intervals is None:
        intervals = ladder_intervals(store, ladder)
    rows = leader_rows(standings, first, intervals)
    nxt = None
    if more:
        last = standings[-1].rating
        nxt = (standing_key(last.mu, last.sigma), last.bot, first + len(rows) - 1)
    return LeaderPage(rows, nxt)


def chart_series(points: Sequence[RatingPoint]) -> dict[str, dict[str, list[float]]]:
    """Per bot: the match index (x), mu, and the band mu - 3 sigma .. mu + 3 sigma, in
    the form ``chart.rating_chart`` measures."""
    series: dict[str, dict[str, list[float]]] = {}
    for p in points:
        # Shown, as every name on a page (the template shows it again: shown is idempotent
        # on what it has shown).
        s = series.setdefault(shown(p.bot), {"x": [], "mu": [], "low": [], "high": []})
        s["x"].append(p.idx)
        s["mu"].append(round(p.mu, 3))
        s["low"].append(round(p.mu - 3 * p.sigma, 3))
        s["high"].append(round(p.mu + 3 * p.sigma, 3))
    return dict(sorted(series.items()))


def ladder_chart(
    store: Store, ladder: str, bots: Sequence[str], points: int = CHART_POINTS
) -> Chart:
    """The rating chart: each of ``bots`` over its newest ``points`` rated matches of
    the ladder (one index range each)."""
    history = [p for bot in bots for p in bot_history(store, ladder, bot, points)]
    return rating_chart(chart_series(history), points)


def bot_chart(store: Store, ladder: str, bot: str, points: int = CHART_POINTS) -> Chart:
    """A bot's own rating chart on ``ladder``: its newest ``points`` rated matches."""
    return rating_chart(chart_series(bot_history(store, ladder, bot, points)), points)


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of the matrix: the row's bot against the column's."""

    ahead: int
    met: int

    @property
    def percent(self) -> int | None:
        """How often the row's bot finished ahead, in percent (None: they never met)."""
        return round(100 * self.ahead / self.met) if self.met else None

    @property
    def hue(self) -> int:
        """Red (0) for never ahead to green (120) for always."""
        return round(1.2 * (self.percent or 0))


@dataclass
class HeadToHead:
    """For each ordered pair of bots: matches where the first finished ahead of the
    second (ties count for neither) and matches they both played."""

    bots: list[str]
    ahead: dict[str, dict[str, int]] = field(default_factory=dict)
    met: dict[str, dict[str, int]] = field(default_factory=dict)
    window: int = H2H_WINDOW
    matches: int = 0
    """Matches counted (at most ``window``)."""

    def cell(self, a: str, b: str) -> Cell:
        """``a`` against ``b``."""
        return Cell(self.ahead[a][b], self.met[a][b])


def head_to_head(
    store: Store, ladder: str, bots: Sequence[str], window: int = H2H_WINDOW
) -> HeadToHead:
    """The matrix among ``bots`` over the ladder's newest ``window`` matches (a bounded
    window rather than the whole history: a million matches would take seconds)."""
    wanted = set(bots)
    h2h = HeadToHead(list(bots), window=window)
    h2h.ahead = {a: dict.fromkeys(bots, 0) for a in bots}
    h2h.met = {a: dict.fromkeys(bots, 0) for a in bots}
    tables: dict[str, list[tuple[str, int]]] = {}
    for match_id, bot, rank in window_seats(store, ladder, window):
        tables.setdefault(match_id, []).append((bot, rank))
    h2h.matches = len(tables)
    for seats in tables.values():
        present = [(b, r) for b, r in seats if b in wanted]
        for (a, ra), (b, rb) in combinations(present, 2):
            if a == b:
                continue
            h2h.met[a][b] += 1
            h2h.met[b][a] += 1
            if ra < rb:
                h2h.ahead[a][b] += 1
            elif rb < ra:
                h2h.ahead[b][a] += 1
    return h2h


class Shared:
    """Values that every page may share for ``SHARED_S`` seconds (per key), computed by
    whichever read thread asks first; the others wait for it rather than compute it
    again."""

    def __init__(self, seconds: float = SHARED_S, clock: Callable[[], float] = time.monotonic):
        self.seconds = seconds
        self._clock = clock
        self._values: dict[tuple[str, ...], tuple[float, Any]] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple[str, ...], make: Callable[[], T]) -> T:
        """The value under ``key``, made again once it is older than ``seconds``."""
        with self._lock:  # reads are few threads; one computes while the others wait
            now = self._clock()
            found = self._values.get(key)
            if found is not None and now - found[0] < self.seconds:
                value: T = found[1]
                return value
            made = make()
            if len(self._values) > 256:
                self._values.clear()
            self._values[key] = (now, made)
            return made
