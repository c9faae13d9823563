"""The web app's reads: every one indexed and bounded, in plain SQL that PostgreSQL
also runs (row values, LIMIT, no SQLite-only functions).

Nothing here reads a whole history. Lists are keyset pages (the position of the last
row shown, as ``Store.match_page``); what needs many matches at once (the rating chart,
the head-to-head matrix) reads a window of the ladder's newest matches, and a filter
that most matches fail (matches with faults) examines a bounded number of matches per
page and says where it stopped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .base import Store
from .rows import MatchRow

SCAN_BUDGET: Final = 5000
"""Matches a filtered page examines at most before it answers with what it found."""

Position = tuple[float, int]
"""A match's place in a list, newest first: (finished_at, idx)."""


@dataclass(frozen=True, slots=True)
class MatchPage:
    """A page of matches, and where the next one starts (None: the list ends here)."""

    matches: list[MatchRow]
    next: Position | None
    scanned_out: bool = False
    """Whether the page stopped because it examined its budget of matches, not because
    it was full (a filtered list where matching rows are rare)."""


def ladder_heads(store: Store, ladders: Sequence[str]) -> dict[str, Position]:
    """The newest match of each ladder (one index seek each)."""
    heads = {}
    for ladder in ladders:
        rows = store.read(
            "SELECT finished_at, idx FROM matches WHERE ladder = ? "
            "ORDER BY finished_at DESC, idx DESC LIMIT 1",
            (ladder,),
        )
        if rows:
            heads[ladder] = (rows[0][0], rows[0][1])
    return heads


def ladder_league(store: Store, ladder: str) -> str | None:
    """The league a ladder's matches belong to (None before its first match)."""
    rows = store.read("SELECT league_id FROM matches WHERE ladder = ? LIMIT 1", (ladder,))
    return str(rows[0][0]) if rows else None


def _positions(
    store: Store, ladder: str, league: str, bot: str | None, before: Position | None, limit: int
) -> list[tuple[str, float, int]]:
    """(id, finished_at, idx) of up to ``limit`` matches of the ladder (of one bot), newest
    first, after ``before``: from ``matches_by_ladder_finish`` or ``seats_by_bot``."""
    if bot is None:
        sql = "SELECT id, finished_at, idx FROM matches WHERE ladder = ?"
        params: list[object] = [ladder]
        if before is not None:
            sql += " AND finished_at <= ? AND (finished_at, idx) < (?, ?)"
            params += [before[0], *before]
        sql += " ORDER BY finished_at DESC, idx DESC LIMIT ?"
    else:
        sql = (
            "SELECT s.match_id, s.finished_at, s.idx FROM seats AS s "
            "WHERE s.bot = ? AND s.league_id = ?"
        )
        params = [bot, league]
        if before is not None:
            sql += " AND s.finished_at <= ? AND (s.finished_at, s.idx) < (?, ?)"
            params += [before[0], *before]
        sql += " ORDER BY s.finished_at DESC, s.idx DESC LIMIT ?"
    return [(r[0], r[1], r[2]) for r in store.read(sql, [*params, limit])]


def _with_faults(store: Store, ids: Sequence[str]) -> set[str]:
    """Those of ``ids`` where a seat had a fault (its counts, kept with its fault rows)."""
    found: set[str] = set()
    for start in range(0, len(ids), 500):
        batch = ids[start : start + 500]
        marks = ", ".join("?" * len(batch))
        found.update(
            r[0]
            for r in store.read(
                f"SELECT DISTINCT match_id FROM seats WHERE match_id IN ({marks}) "
                "AND timeouts + errors + invalid > 0",
                batch,
            )
        )
    return found


def _rows(store: Store, ids: Sequence[str]) -> list[MatchRow]:
    """Whole match rows (with their seats) of ``ids``, in that order."""
    if not ids:
        return []
    marks = ", ".join("?" * len(ids))
    rows = store.read(f"SELECT * FROM matches WHERE id IN ({marks})", ids)
    order = {match_id: i for i, match_id in enumerate(ids)}
    found = store._match_rows(rows)  # the Store's own row reader, with seats in batches
    return sorted(found, key=lambda m: order[m.id])


def ladder_matches(
    store: Store,
    ladder: str,
    *,
    bot: str | None = None,
    faults_only: bool = False,
    before: Position | None = None,
    limit: int,
    budget: int = SCAN_BUDGET,
) -> MatchPage:
    """Up to ``limit`` finished matches of ``ladder``, newest first, after ``before``; of
    one ``bot``, and only those with a fault if ``faults_only`` (then at most ``budget``
    matches are examined: a short page says where to go on)."""
    league = ladder_league(store, ladder)
    if league is None:
        return MatchPage([], None)
    if not faults_only:
        found = _positions(store, ladder, league, bot, before, limit + 1)
        more = len(found) > limit
        found = found[:limit]
        nxt = (found[-1][1], found[-1][2]) if more else None
        return MatchPage(_rows(store, [f[0] for f in found]), nxt)
    chosen: list[str] = []
    position = before
    examined = 0
    while len(chosen) < limit and examined < budget:
        step = min(max(limit * 4, 200), budget - examined)
        found = _positions(store, ladder, league, bot, position, step)
        if not found:
            return MatchPage(_rows(store, chosen), None)
        faulted = _with_faults(store, [f[0] for f in found])
        for match_id, finished_at, idx in found:
            examined += 1
            position = (finished_at, idx)
            if match_id in faulted:
                chosen.append(match_id)
                if len(chosen) == limit:
                    break
        if len(found) < step and len(chosen) < limit:
            return MatchPage(_rows(store, chosen), None)
    return MatchPage(_rows(store, chosen), position, scanned_out=len(chosen) < limit)


@dataclass(frozen=True, slots=True)
class FaultRow:
    """One fault of a bot, with its match."""

    match_id: str
    finished_at: float
    seat: int
    n: int
    kind: str
    detail: str
    request_id: int


def bot_faults(
    store: Store, ladder: str, bot: str, *, before: Position | None, limit: int
) -> tuple[list[FaultRow], Position | None]:
    """The faults of ``bot`` in up to ``limit`` of its faulted matches of the ladder,
    newest first (at most ``SCAN_BUDGET`` of its matches examined), and where to go on."""
    page = ladder_matches(store, ladder, bot=bot, faults_only=True, before=before, limit=limit)
    faults: list[FaultRow] = []
    for match in page.matches:
        seats = [s.seat for s in match.seats if s.bot == bot]
        for seat in seats:
            faults += [
                FaultRow(match.id, match.finished_at, r[0], r[1], r[2], r[3], r[4])
                for r in store.read(
                    "SELECT seat, n, kind, detail, request_id FROM faults "
                    "WHERE match_id = ? AND seat = ? ORDER BY n",
                    (match.id, seat),
                )
            ]
    return faults, page.next


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A bot's rating after one match: which of its rated matches (1 the first), mu,
    sigma."""

    bot: str
    idx: int
    mu: float
    sigma: float


def ladder_history(store: Store, ladder: str, window: int) -> list[RatingPoint]:
    """Every seated bot's rating after each of the ladder's newest ``window`` matches,
    oldest first (the matches from the ladder's index, each rating by primary key)."""
    rows = store.read(
        "SELECT h.bot, m.idx, h.mu, h.sigma FROM "
        "(SELECT id, finished_at, idx FROM matches WHERE ladder = ? "
        " ORDER BY finished_at DESC, idx DESC LIMIT ?) AS m "
        "JOIN seats AS s ON s.match_id = m.id "
        "JOIN rating_history AS h ON h.ladder = ? AND h.bot = s.bot AND h.match_id = m.id "
        "ORDER BY m.finished_at, m.idx, h.bot",
        (ladder, window, ladder),
    )
    return [RatingPoint(r[0], r[1], r[2], r[3]) for r in rows]


def bot_history(store: Store, ladder: str, bot: str, window: int) -> list[RatingPoint]:
    """One bot's rating after each of its newest ``window`` rated matches of the ladder,
    oldest first, numbered by its rated matches (the last is its current count): one
    range of ``rating_history``'s key (match ids sort by index within a league,
    ``LEAGUE/NNNNNN``, and a ladder is one league's)."""
    rated = bot_rating(store, ladder, bot)
    if rated is None:
        return []
    rows = store.read(
        "SELECT mu, sigma FROM rating_history WHERE ladder = ? AND bot = ? "
        "ORDER BY match_id DESC LIMIT ?",
        (ladder, bot, window),
    )
    last = rated[2]
    return [RatingPoint(bot, last - k, r[0], r[1]) for k, r in reversed(list(enumerate(rows)))]


def window_seats(store: Store, ladder: str, window: int) -> list[tuple[str, str, int]]:
    """(match id, bot, rank) of every seat of the ladder's newest ``window`` matches."""
    rows = store.read(
        "SELECT s.match_id, s.bot, s.rank FROM "
        "(SELECT id FROM matches WHERE ladder = ? ORDER BY finished_at DESC, idx DESC LIMIT ?)"
        " AS m JOIN seats AS s ON s.match_id = m.id",
        (ladder, window),
    )
    return [(r[0], r[1], r[2]) for r in rows]


def bot_ladders(store: Store, bot: str) -> list[str]:
    """The ladders ``bot`` is rated on (a scan of the ratings: one row per bot and
    ladder, not per match)."""
    return [r[0] for r in store.read("SELECT ladder FROM ratings WHERE bot = ? ORDER BY 1", (bot,))]


def bot_rating(store: Store, ladder: str, bot: str) -> tuple[float, float, int] | None:
    """A bot's current (mu, sigma, rated matches) on a ladder."""
    rows = store.read(
        "SELECT mu, sigma, matches FROM ratings WHERE ladder = ? AND bot = ?", (ladder, bot)
    )
    return (rows[0][0], rows[0][1], rows[0][2]) if rows else None


def deal_group_played(store: Store, league_id: str, first: int, tables: int) -> int:
    """Finished matches among a league's indices ``first .. first + tables - 1`` (a
    duplicate deal group), through the (league_id, idx) unique index."""
    rows = store.read(
        "SELECT count(*) FROM matches WHERE league_id = ? AND idx >= ? AND idx < ?",
        (league_id, first, first + tables),
    )
    return int(rows[0][0])
