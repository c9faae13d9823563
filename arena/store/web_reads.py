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
    """A page of matches, in the order walked, and where the walk goes on (None: the
    list ends here)."""

    matches: list[MatchRow]
    next: Position | None
    scanned_out: bool = False
    """Whether the page stopped because it examined its budget of matches, not because
    it was full (a filtered list where matching rows are rare)."""


@dataclass(frozen=True, slots=True)
class MatchFilter:
    """Which of a ladder's matches a list shows. ``bots`` and ``opponents`` are exact
    names (a page resolves what a person typed with ``bots_like``)."""

    bots: tuple[str, ...] = ()
    """Matches where one of these bots sat (all matches if empty)."""
    opponents: tuple[str, ...] = ()
    """...and one of these too (in another seat, or the same bot twice)."""
    faults_only: bool = False
    """Only matches where a seat had a fault."""
    end_reason: str = ""
    """Only matches that ended so ("" any)."""
    since: float | None = None
    """Finished at or after this time (Unix seconds)."""
    until: float | None = None
    """Finished before this time."""

    @property
    def rare(self) -> bool:
        """Whether rows are chosen by looking at them (a bounded scan), not by an index."""
        return self.faults_only or bool(self.end_reason) or bool(self.opponents)


MAX_NAMES: Final = 20
"""Bots a name filter stands for, at most (the first by name)."""


def bots_like(store: Store, ladder: str, text: str, limit: int = MAX_NAMES) -> list[str]:
    """The ladder's bots whose names hold ``text`` (ignoring case), an exact name first;
    at most ``limit``, by name. Reads the ladder's rows of ``bot_stats`` only: a ladder's
    bots, never its matches. (``lower`` on both sides: SQLite's LIKE ignores ASCII case,
    PostgreSQL's does not.)"""
    pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = store.read(
        "SELECT bot FROM bot_stats WHERE ladder = ? AND lower(bot) LIKE lower(?) ESCAPE '\\' "
        "ORDER BY bot LIMIT ?",
        (ladder, pattern, limit + 1),
    )
    names = [str(r[0]) for r in rows]
    if text in names:
        names.remove(text)
        names.insert(0, text)
    elif len(names) > limit and store.read(
        "SELECT 1 FROM bot_stats WHERE ladder = ? AND bot = ?", (ladder, text)
    ):
        names.insert(0, text)
    return names[:limit]


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


END_REASON_WINDOW: Final = 500
"""The newest matches whose end reasons a match list offers as a filter."""


def ladder_end_reasons(store: Store, ladder: str) -> list[str]:
    """The ways the ladder's newest ``END_REASON_WINDOW`` matches ended, sorted."""
    rows = store.read(
        "SELECT DISTINCT end_reason FROM (SELECT end_reason FROM matches WHERE ladder = ? "
        "ORDER BY finished_at DESC, idx DESC LIMIT ?) AS recent ORDER BY 1",
        (ladder, END_REASON_WINDOW),
    )
    return [str(r[0]) for r in rows]


def ladder_league(store: Store, ladder: str) -> str | None:
    """The league a ladder's matches belong to (None before its first match)."""
    rows = store.read("SELECT league_id FROM matches WHERE ladder = ? LIMIT 1", (ladder,))
    return str(rows[0][0]) if rows else None


Found = tuple[str, float, int]
"""(id, finished_at, idx) of a match."""


@dataclass(frozen=True, slots=True)
class _Walk:
    """Which list a page walks (a ladder's matches, of its league), which way, and the
    span of finish times it covers ([since, until); None: open)."""

    ladder: str
    league: str
    newest_first: bool
    since: float | None
    until: float | None


def _positions(
    store: Store, walk: _Walk, bot: str | None, start: Position | None, limit: int
) -> list[Found]:
    """Up to ``limit`` matches of the walk (of one bot) after ``start``: from
    ``matches_by_ladder_finish`` or ``seats_by_bot``."""
    if bot is None:
        sql = "SELECT id, finished_at, idx FROM matches WHERE ladder = ?"
        params: list[object] = [walk.ladder]
        at, at_idx = "finished_at", "idx"
    else:
        sql = (
            "SELECT s.match_id, s.finished_at, s.idx FROM seats AS s "
            "WHERE s.bot = ? AND s.league_id = ?"
        )
        params = [bot, walk.league]
        at, at_idx = "s.finished_at", "s.idx"
    if start is not None:
        # The plain bound first: it is what lets the index range start at the position.
        bound, past = ("<=", "<") if walk.newest_first else (">=", ">")
        sql += f" AND {at} {bound} ? AND ({at}, {at_idx}) {past} (?, ?)"
        params += [start[0], *start]
    if walk.since is not None:
        sql += f" AND {at} >= ?"
        params.append(walk.since)
    if walk.until is not None:
        sql += f" AND {at} < ?"
        params.append(walk.until)
    way = "DESC" if walk.newest_first else "ASC"
    sql += f" ORDER BY {at} {way}, {at_idx} {way} LIMIT ?"
    return [(r[0], r[1], r[2]) for r in store.read(sql, [*params, limit])]


def _distinct(
    store: Store, walk: _Walk, bots: Sequence[str], start: Position | None, limit: int
) -> list[Found]:
    """Up to ``limit`` distinct matches of the walk where one of ``bots`` sat (any if
    empty). Each bot's own first ``limit`` suffice: a match among the first ``limit``
    distinct ones has fewer than ``limit`` before it in any list it is on."""
    if not bots:
        return _positions(store, walk, None, start, limit)
    merged: dict[str, Found] = {}
    for bot in bots:
        for found in _positions(store, walk, bot, start, limit):
            merged[found[0]] = found
    ordered = sorted(merged.values(), key=lambda f: (f[1], f[2]), reverse=walk.newest_first)
    return ordered[:limit]


def ladder_matches(
    store: Store,
    ladder: str,
    *,
    where: MatchFilter = MatchFilter(),
    start: Position | None = None,
    newest_first: bool = True,
    limit: int,
    budget: int = SCAN_BUDGET,
) -> MatchPage:
    """Up to ``limit`` finished matches of ``ladder`` chosen by ``where``, after
    ``start`` in the walk's order (newest first unless told otherwise). A filter that
    rows must be looked at for (``MatchFilter.rare``) examines at most ``budget``
    matches: a short page then says where to go on."""
    league = ladder_league(store, ladder)
    if league is None:
        return MatchPage([], None)

    span = _Walk(ladder, league, newest_first, where.since, where.until)

    def walk(position: Position | None, count: int) -> list[Found]:
        return _distinct(store, span, where.bots, position, count)

    if not where.rare:
        found = walk(start, limit + 1)
        more = len(found) > limit
        found = found[:limit]
        nxt = (found[-1][1], found[-1][2]) if more else None
        return MatchPage(_rows(store, [f[0] for f in found]), nxt)
    chosen: list[str] = []
    position = start
    examined = 0
    while len(chosen) < limit and examined < budget:
        step = min(max(limit * 4, 200), budget - examined)
        found = walk(position, step)
        if not found:
            return MatchPage(_rows(store, chosen), None)
        kept = _kept(store, where, [f[0] for f in found])
        for match_id, finished_at, idx in found:
            examined += 1
            position = (finished_at, idx)
            if match_id in kept:
                chosen.append(match_id)
                if len(chosen) == limit:
                    break
        if len(found) < step and len(chosen) < limit:
            return MatchPage(_rows(store, chosen), None)
    return MatchPage(_rows(store, chosen), position, scanned_out=len(chosen) < limit)


def _kept(store: Store, where: MatchFilter, ids: Sequence[str]) -> set[str]:
    """Those of ``ids`` that pass ``where``'s rare conditions."""
    kept = set(ids)
    if where.faults_only:
        kept &= _with_faults(store, ids)
    if where.end_reason:
        kept &= _in_batches(
            store, "SELECT id FROM matches WHERE id IN ({marks}) AND end_reason = ?",
            [i for i in ids if i in kept], [where.end_reason],
        )  # fmt: skip
    if where.opponents:
        # One of ``bots`` and one of ``opponents``, in two seats (a bot can meet itself).
        candidates = [i for i in ids if i in kept]
        seats = _seats_of(store, candidates, {*where.bots, *where.opponents})
        kept = {
            match_id
            for match_id in candidates
            if _meet(seats.get(match_id, []), where.bots, where.opponents)
        }
    return kept


def _meet(seats: Sequence[tuple[int, str]], bots: Sequence[str], opponents: Sequence[str]) -> bool:
    """Whether one seat holds one of ``bots`` (any, if empty) and another one of
    ``opponents``."""
    return any(
        (not bots or a[1] in bots) and b[1] in opponents and a[0] != b[0]
        for a in seats
        for b in seats
    )


def _seats_of(
    store: Store, ids: Sequence[str], names: set[str]
) -> dict[str, list[tuple[int, str]]]:
    """(seat, bot) of the seats of ``ids`` held by one of ``names``."""
    seats: dict[str, list[tuple[int, str]]] = {}
    for start in range(0, len(ids), 500):
        batch = ids[start : start + 500]
        marks = ", ".join("?" * len(batch))
        for match_id, seat, bot in store.read(
            f"SELECT match_id, seat, bot FROM seats WHERE match_id IN ({marks})", batch
        ):
            if bot in names:
                seats.setdefault(match_id, []).append((seat, bot))
    return seats


def _in_batches(store: Store, sql: str, ids: Sequence[str], params: Sequence[object]) -> set[str]:
    """The first column of ``sql`` (``{marks}`` standing for a batch of ``ids``) over all
    of ``ids``, 500 at a time."""
    found: set[str] = set()
    for start in range(0, len(ids), 500):
        batch = ids[start : start + 500]
        marks = ", ".join("?" * len(batch))
        found.update(r[0] for r in store.read(sql.format(marks=marks), [*batch, *params]))
    return found


def _with_faults(store: Store, ids: Sequence[str]) -> set[str]:
    """Those of ``ids`` where a seat had a fault (its counts, kept with its fault rows)."""
    return _in_batches(
        store,
        "SELECT DISTINCT match_id FROM seats WHERE match_id IN ({marks}) "
        "AND timeouts + errors + invalid > 0",
        ids,
        [],
    )


def _rows(store: Store, ids: Sequence[str]) -> list[MatchRow]:
    """Whole match rows (with their seats) of ``ids``, in that order."""
    if not ids:
        return []
    marks = ", ".join("?" * len(ids))
    rows = store.read(f"SELECT * FROM matches WHERE id IN ({marks})", ids)
    order = {match_id: i for i, match_id in enumerate(ids)}
    found = store._match_rows(rows)  # the Store's own row reader, with seats in batches
    return sorted(found, key=lambda m: order[m.id])


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
    where = MatchFilter(bots=(bot,), faults_only=True)
    page = ladder_matches(store, ladder, where=where, start=before, limit=limit)
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
