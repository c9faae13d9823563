"""The leaderboard: one row per entrant of a ladder, in the formats people read."""

from __future__ import annotations

import csv
import html
import io
import json
from dataclasses import asdict, dataclass
from typing import Final

from arena.store import Store

FORMATS: Final = ("table", "json", "csv", "markdown", "html")


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
    rows = []
    for position, rating in enumerate(ratings, start=1):
        s = stats.get(rating.bot, {})
        rows.append(
            Row(
                rank=position,
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
        )
    return rows


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


def render(rows: list[Row], fmt: str, ladder: str, history: str = "") -> str:
    """The leaderboard as text in ``fmt`` (one of FORMATS)."""
    if fmt == "json":
        return json.dumps([asdict(r) for r in rows], indent=2)
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow([k for k, _ in _HEADERS])
        for row in rows:
            writer.writerow(_cells(row))
        return buffer.getvalue().rstrip("\n")
    titles = [t for _, t in _HEADERS]
    cells = [_cells(r) for r in rows]
    if fmt == "markdown":
        lines = [f"### Ladder `{ladder}`", "", "| " + " | ".join(titles) + " |"]
        lines.append("|" + "|".join("---:" if i != 1 else "---" for i in range(len(titles))) + "|")
        lines += ["| " + " | ".join(c) + " |" for c in cells]
        return "\n".join(lines)
    if fmt == "html":
        return _html(rows, titles, cells, ladder, history)
    widths = [max(len(t), *(len(c[i]) for c in cells)) for i, t in enumerate(titles)]
    lines = [f"ladder {ladder}"]
    lines.append(
        "  ".join(
            t.rjust(w) if i != 1 else t.ljust(w)
            for i, (t, w) in enumerate(zip(titles, widths, strict=True))
        )
    )
    for c in cells:
        lines.append(
            "  ".join(
                v.rjust(w) if i != 1 else v.ljust(w)
                for i, (v, w) in enumerate(zip(c, widths, strict=True))
            )
        )
    return "\n".join(lines)


def _html(
    rows: list[Row], titles: list[str], cells: list[list[str]], ladder: str, chart: str
) -> str:
    head = "".join(f"<th>{html.escape(t)}</th>" for t in titles)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in c) + "</tr>" for c in cells
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>Abluxxen Arena — {html.escape(ladder)}</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{padding:4px 10px;border-bottom:1px solid #ddd;text-align:right}"
        "td:nth-child(2),th:nth-child(2){text-align:left}</style></head><body>"
        f"<h1>Ladder {html.escape(ladder)}</h1><table><tr>{head}</tr>{body}</table>"
        f"<h2>Conservative skill over the matches</h2>{chart}</body></html>"
    )


def history_chart(store: Store, ladder: str, width: int = 720, height: int = 320) -> str:
    """An inline SVG of each bot's conservative skill after each of its matches."""
    history = store.rating_history(ladder)
    if not history:
        return "<p>No rated matches yet.</p>"
    order = {match: i for i, match in enumerate(dict.fromkeys(h[1] for h in history))}
    series: dict[str, list[tuple[int, float]]] = {}
    for bot, match, mu, sigma in history:
        series.setdefault(bot, []).append((order[match], mu - 3 * sigma))
    values = [v for points in series.values() for _, v in points]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    steps = max(len(order) - 1, 1)
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"]
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width + 160}' height='{height}'>"]
    for i, (bot, points) in enumerate(sorted(series.items())):
        colour = colours[i % len(colours)]
        path = " ".join(
            f"{10 + x * width / steps:.1f},{height - 10 - (v - low) * (height - 20) / span:.1f}"
            for x, v in points
        )
        parts.append(f"<polyline fill='none' stroke='{colour}' stroke-width='2' points='{path}'/>")
        parts.append(
            f"<text x='{width + 20}' y='{20 + 18 * i}' fill='{colour}'>{html.escape(bot)}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
