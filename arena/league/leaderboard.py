"""The leaderboard: one row per entrant of a ladder, in the formats people read."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Final

from arena.store import Store
from arena.store.rows import RatingRow
from arena.text import shown

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


def leaderboard(store: Store, ladder: str) -> list[Row]:
    """Rows sorted by conservative skill (mu - 3 sigma), best first."""
    stats = store.seat_stats(ladder)
    ratings = sorted(store.ratings(ladder), key=lambda r: (-(r.mu - 3 * r.sigma), r.bot))
    return [
        standing_row(position, rating, stats.get(rating.bot, {}))
        for position, rating in enumerate(ratings, start=1)
    ]


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
        out.append(f"{value:.2f}" if isinstance(value, float) else str(value))
    return out


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
        writer.writerow([*(k for k, _ in _HEADERS), "ladder"])
        for ladder in ladders:
            for row in ladder.rows:
                writer.writerow([*_cells(row), ladder.name])
        return buffer.getvalue().rstrip("\n")
    if fmt not in TEXT_FORMATS:
        raise ValueError(f"{fmt!r} is not a text format; HTML comes from arena.web.export")
    if fmt == "markdown":
        return "\n\n".join(_markdown(ladder) for ladder in ladders)
    return "\n\n".join(_table(ladder) for ladder in ladders)


_TITLES: Final = [t for _, t in _HEADERS]


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
