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

from .intervals import RankInterval, ladder_joint, rank_intervals
from .joint import JointFit, Separated, ranked

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


def leaderboard(store: Store, ladder: str, joint: JointFit | None = None) -> list[Row]:
    """Rows sorted by conservative skill (mu - 3 sigma), best first, with their rank
    intervals from the joint model of the ladder's history (``joint``, else fitted now
    from the stored counts, so a ladder rated before they existed has them too)."""
    stats = store.seat_stats(ladder)
    ratings = sorted(store.ratings(ladder), key=lambda r: (-(r.mu - 3 * r.sigma), r.bot))
    rows = [
        standing_row(position, rating, stats.get(rating.bot, {}))
        for position, rating in enumerate(ratings, start=1)
    ]
    return with_intervals(rows, ratings, joint or ladder_joint(store, ladder))


def with_intervals(rows: Sequence[Row], ratings: Sequence[RatingRow], joint: JointFit) -> list[Row]:
    """``rows`` with their rank intervals and ``p_above_next`` from the ladder's joint
    model, over ``ratings``: every rating of the leaderboard, in its order (a bot
    anywhere on it may be better than the leader)."""
    found = rank_intervals(joint, [r.bot for r in ratings])
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


ORDER_NOTE: Final = (
    "order: TrueSkill's mu-3σ (the live rating); 95% rank and p>next: the joint model of "
    "every rated match (docs/RATINGS.md)"
)
"""The line under every text leaderboard that says where its figures come from."""


def disagreements(rows: Sequence[Row]) -> list[str]:
    """The neighbour pairs the joint model orders the other way round from the board
    (``p_above_next`` below 0.5), as ``lower > upper (p ...)``: every view shows them."""
    return [
        f"{shown(b.name)} > {shown(a.name)} (p {1 - a.p_above_next:.2f})"
        for a, b in itertools.pairwise(rows)
        if a.p_above_next is not None and a.p_above_next < 0.5
    ]


def order_lines(rows: Sequence[Row]) -> list[str]:
    """The note under a leaderboard: where its order and figures come from, and where
    the joint model orders neighbours differently from TrueSkill."""
    lines = [ORDER_NOTE]
    differ = disagreements(rows)
    if differ:
        lines.append("the joint model orders differently: " + ", ".join(differ))
    return lines


def separation_line(
    store: Store, ladder: str, threshold: float, matches: int, stopped: Separated | None
) -> str:
    """The ``--until separated`` verdict, on the board the rule decided on when it
    stopped the league (``stopped``), else on the final board (the cap): the probability
    that the board's whole order is right, and the neighbour pairs below ``threshold``."""
    if stopped is not None:
        return (
            f"separated after {matches} matches: the board after {stopped.rated} rated "
            f"matches, on which the rule decided, holds its whole order with probability "
            f"{stopped.board.p_order:.3f} >= {threshold:g}: "
            + " > ".join(shown(bot) for bot in stopped.order)
            + (
                f" (the {matches - stopped.rated} matches already started then were played "
                "out and rated)"
                if matches > stopped.rated
                else ""
            )
        )
    joint = ladder_joint(store, ladder)
    rows = leaderboard(store, ladder, joint)
    board = ranked(joint, [r.name for r in rows])
    open_pairs = [
        f"{shown(a.name)} > {shown(b.name)} (p {a.p_above_next:.2f})"
        for a, b in itertools.pairwise(rows)
        if a.p_above_next is not None and a.p_above_next < threshold
    ]
    return (
        f"not separated after {matches} matches (the cap): the board's order holds as a whole "
        f"with probability {board.p_order:.3f} < {threshold:g}; "
        f"{len(open_pairs)} pair(s) of neighbours below probability {threshold:g}"
        + (f": {', '.join(open_pairs)}" if open_pairs else "")
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
    lines += ["", *order_lines(ladder.rows)]
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
    lines += order_lines(ladder.rows)
    return "\n".join(lines)
