"""The leaderboard: one row per entrant of a ladder, in the formats people read.

Every row carries its 95% rank interval and the probability that it is better than the
row below (arena/league/intervals.py): a leaderboard's order is only as good as these
say. ``with_intervals`` is the one way they are added, for every reader (the CLI, the
server's GetLeaderboard and pages, the web app)."""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Final

from arena.store import Store
from arena.store.rows import RatingRow
from arena.text import shown

from .intervals import RankInterval, calibration, rank_intervals
from .rating import Skill

DEFAULT_SCHEDULE: Final = "informative"
"""The schedule of leagues by default and of the live ladder (schedule.py)."""

TEXT_FORMATS: Final = ("table", "json", "csv", "markdown")
"""What ``render`` writes."""
FORMATS: Final = (*TEXT_FORMATS, "html")
"""What ``arena ratings`` writes (HTML by the web app's templates)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One entrant's standing."""

    rank: int
    name: str
    conservative: float
    mu: float
    sigma: float
    matches: int
    wins: int
    mean_score: float
    mean_rank: float
    timeouts: int
    errors: int
    invalid: int
    rank_low: int = 0
    """Best rank of the 95% rank interval (0: not computed)."""
    rank_high: int = 0
    """Worst rank of the 95% rank interval (0: not computed)."""
    p_above_next: float | None = None
    """Probability that this bot is better than the next row's (None: the last row)."""


def leaderboard(store: Store, ladder: str) -> list[Row]:
    """Rows sorted by conservative skill (mu - 3 sigma), best first, with their rank
    intervals (computed from the stored ratings on every read, so a ladder rated before
    they existed has them too)."""
    stats = store.seat_stats(ladder)
    ratings = sorted(store.ratings(ladder), key=lambda r: (-(r.mu - 3 * r.sigma), r.bot))
    rows = [
        standing_row(position, rating, stats.get(rating.bot, {}))
        for position, rating in enumerate(ratings, start=1)
    ]
    return with_intervals(rows, ratings, sharpen=ladder_calibration(store, ladder))


def ladder_calibration(store: Store, ladder: str) -> float:
    """The calibration of the schedule a ladder was played on (intervals.calibration):
    its league's, or the default schedule's (the live ladder's) if it has none."""
    league = store.league(ladder.rsplit("/", 3)[0])
    schedule = DEFAULT_SCHEDULE
    if league is not None:
        settings = json.loads(str(league["config_json"])).get("settings") or {}
        schedule = str(settings.get("schedule", DEFAULT_SCHEDULE))
    return calibration(schedule)


def with_intervals(
    rows: Sequence[Row], ratings: Sequence[RatingRow], *, sharpen: float
) -> list[Row]:
    """``rows`` with their rank intervals and ``p_above_next``, computed over ``ratings``:
    every rating of the leaderboard, in its order (a bot anywhere on it, with a wide
    enough belief, may be better than the leader)."""
    found = rank_intervals(
        tuple(r.bot for r in ratings), tuple(Skill(r.mu, r.sigma) for r in ratings), sharpen=sharpen
    )
    by_bot = {r.bot: interval for r, interval in zip(ratings, found, strict=True)}
    return [with_interval(row, by_bot) for row in rows]


def with_interval(row: Row, intervals: Mapping[str, RankInterval]) -> Row:
    """``row`` with its bot's rank interval and ``p_above_next`` (from the same
    leaderboard's ``rank_intervals``, by bot)."""
    interval = intervals.get(row.name)
    if interval is None:
        return row
    return replace(
        row,
        rank_low=interval.rank_low,
        rank_high=interval.rank_high,
        p_above_next=interval.p_above_next,
    )


def separation_line(store: Store, ladder: str, threshold: float, matches: int) -> str:
    """The ``--until separated`` verdict: every neighbour pair separated, or which are
    not (with the probability that the upper one is better)."""
    rows = leaderboard(store, ladder)
    open_pairs = [
        f"{shown(a.name)} > {shown(b.name)} (p {a.p_above_next:.2f})"
        for a, b in itertools.pairwise(rows)
        if a.p_above_next is not None and a.p_above_next < threshold
    ]
    if not open_pairs:
        return (
            f"separated after {matches} matches: every pair of neighbours is ordered with "
            f"probability >= {threshold:g}"
        )
    return (
        f"not separated after {matches} matches (the cap): {len(open_pairs)} pair(s) of "
        f"neighbours below probability {threshold:g}: {', '.join(open_pairs)}"
    )


def standing_row(rank: int, rating: RatingRow, stats: Mapping[str, float]) -> Row:
    """One bot's row: its rating and its totals (``Store.seat_stats``' keys), rounded
    as every leaderboard shows them."""
    s = stats
    return Row(
        rank=rank,
        name=rating.bot,
        conservative=round(rating.mu - 3 * rating.sigma, 3),
        mu=round(rating.mu, 3),
        sigma=round(rating.sigma, 3),
        matches=int(s.get("matches", 0)),
        wins=int(s.get("wins", 0) or 0),
        mean_score=round(float(s.get("mean_score", 0.0) or 0.0), 2),
        mean_rank=round(float(s.get("mean_rank", 0.0) or 0.0), 2),
        timeouts=int(s.get("timeouts", 0) or 0),
        errors=int(s.get("errors", 0) or 0),
        invalid=int(s.get("invalid", 0) or 0),
    )


_HEADERS: Final = (
    ("rank", "#"),
    ("name", "bot"),
    ("rank_low", "95% rank"),
    ("p_above_next", "p>next"),
    ("conservative", "mu-3σ"),
    ("mu", "mu"),
    ("sigma", "sigma"),
    ("matches", "matches"),
    ("wins", "wins"),
    ("mean_score", "avg score"),
    ("mean_rank", "avg rank"),
    ("timeouts", "timeouts"),
    ("errors", "errors"),
    ("invalid", "invalid"),
)


def _cells(row: Row) -> list[str]:
    data = asdict(row)
    out = []
    for key, _ in _HEADERS:
        value = data[key]
        if key == "rank_low":
            out.append(_rank_range(row))
        elif key == "p_above_next":
            out.append("" if value is None else f"{value:.2f}")
        else:
            out.append(f"{value:.2f}" if isinstance(value, float) else str(value))
    return out


def _rank_range(row: Row) -> str:
    if not row.rank_low:
        return ""
    return str(row.rank_low) if row.rank_low == row.rank_high else f"{row.rank_low}-{row.rank_high}"


@dataclass(frozen=True, slots=True)
class Ladder:
    """One ladder's leaderboard, ready to render: its name and its rows."""

    name: str
    rows: list[Row]


def render(rows: list[Row], fmt: str, ladder: str) -> str:
    """One ladder's leaderboard as text in ``fmt`` (one of TEXT_FORMATS)."""
    return render_ladders([Ladder(ladder, rows)], fmt)


def render_ladders(ladders: Sequence[Ladder], fmt: str) -> str:
    """Any number of leaderboards as ONE text in ``fmt`` (one of FORMATS).

    JSON is one array of row objects, each with a ``ladder`` key; CSV is one table with a
    ``ladder`` column (the last); the table and markdown forms head each ladder's table
    with its name. HTML is the web app's (``arena.web.export``), from its templates.
    """
    if fmt == "json":
        return json.dumps(
            [asdict(r) | {"ladder": ladder.name} for ladder in ladders for r in ladder.rows],
            indent=2,
        )
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        shown_keys = [k for k, _ in _HEADERS if k not in _INTERVAL_KEYS]
        writer.writerow([*shown_keys, *_INTERVAL_KEYS, "ladder"])
        for ladder in ladders:
            for row in ladder.rows:
                cells = dict(zip((k for k, _ in _HEADERS), _cells(row), strict=True))
                p = "" if row.p_above_next is None else row.p_above_next
                writer.writerow(
                    [
                        *(cells[k] for k in shown_keys),
                        row.rank_low,
                        row.rank_high,
                        p,
                        ladder.name,
                    ]
                )
        return buffer.getvalue().rstrip("\n")
    if fmt not in TEXT_FORMATS:
        raise ValueError(f"{fmt!r} is not a text format; HTML comes from arena.web.export")
    if fmt == "markdown":
        return "\n\n".join(_markdown(ladder) for ladder in ladders)
    return "\n\n".join(_table(ladder) for ladder in ladders)


_TITLES: Final = [t for _, t in _HEADERS]
_INTERVAL_KEYS: Final = ("rank_low", "rank_high", "p_above_next")
"""CSV's interval columns, last but the ladder, as numbers."""


def _markdown(ladder: Ladder) -> str:
    lines = [f"### Ladder `{shown(ladder.name)}`", "", "| " + " | ".join(_TITLES) + " |"]
    lines.append("|" + "|".join("---:" if i != 1 else "---" for i in range(len(_TITLES))) + "|")
    lines += ["| " + " | ".join(map(shown, _cells(r))) + " |" for r in ladder.rows]
    return "\n".join(lines)


def _table(ladder: Ladder) -> str:
    cells = [[shown(c) for c in _cells(r)] for r in ladder.rows]
    widths = [max(len(t), *(len(c[i]) for c in cells)) for i, t in enumerate(_TITLES)]
    lines = [f"ladder {shown(ladder.name)}"]
    for line in [_TITLES, *cells]:
        lines.append(
            "  ".join(
                v.rjust(w) if i != 1 else v.ljust(w)
                for i, (v, w) in enumerate(zip(line, widths, strict=True))
            )
        )
    return "\n".join(lines)
