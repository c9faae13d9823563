"""``arena ratings --seats`` and ``--payoff``: reports over a ladder's whole history
(read from the local database, never on a public endpoint)."""

from __future__ import annotations

import json
from typing import Any

from arena.league.leaderboard import leaderboard
from arena.league.payoff import alpha_rank, payoff, significant_cycles
from arena.league.seats import seat_lines
from arena.store import Store
from arena.text import shown

REPORT_FORMATS = ("table", "json")


def seats_report(store: Store, ladder: str) -> dict[str, Any]:
    """Mean points and rank by seat, with standard errors."""
    return {
        "ladder": ladder,
        "seats": [
            {
                "seat": line.seat,
                "matches": line.matches,
                "mean_points": round(line.mean_points, 3),
                "points_se": round(line.points_se, 3),
                "mean_rank": round(line.mean_rank, 4),
                "rank_se": round(line.rank_se, 4),
            }
            for line in seat_lines(store.ladder_seats(ladder))
        ],
    }


def payoff_report(store: Store, ladder: str) -> dict[str, Any]:
    """Head to head, alpha-Rank next to TrueSkill, and significant cycles
    (NoMatchesError on a ladder without finished matches)."""
    table = payoff(store.ladder_seats(ladder))
    board = leaderboard(store, ladder)
    order = [row.name for row in board if row.name in table.bots]
    mass = alpha_rank(table, order)
    by_mass = sorted(order, key=lambda b: (-round(mass[b], 6), order.index(b)))
    return {
        "ladder": ladder,
        "head_to_head": [
            {
                "bot": a,
                "opponent": b,
                "ahead_share": round(share, 4),
                "matches": table.met[(a, b)],
            }
            for a in order
            for b in order
            if a != b and (share := table.share(a, b)) is not None
        ],
        "ranking": [
            {
                "bot": bot,
                "trueskill_rank": position,
                "alpha_rank": by_mass.index(bot) + 1,
                "alpha_rank_mass": round(mass[bot], 4),
            }
            for position, bot in enumerate(order, start=1)
        ],
        "cycles": [list(cycle) for cycle in significant_cycles(table)],
    }


def render_reports(reports: list[dict[str, Any]], fmt: str, kind: str) -> str:
    """The reports as JSON (one array) or terminal tables."""
    if fmt == "json":
        return json.dumps(reports, indent=2)
    render = _seats_text if kind == "seats" else _payoff_text
    return "\n\n".join(render(report) for report in reports)


def _seats_text(report: dict[str, Any]) -> str:
    lines = [f"ladder {shown(report['ladder'])}: by seat (mean ± standard error)"]
    lines.append("seat  matches   points            rank")
    for s in report["seats"]:
        lines.append(
            f"{s['seat']:>4}  {s['matches']:>7}  {s['mean_points']:7.2f} ± {s['points_se']:<6.2f}"
            f"  {s['mean_rank']:.3f} ± {s['rank_se']:.3f}"
        )
    return "\n".join(lines)


def _payoff_text(report: dict[str, Any]) -> str:
    order = [r["bot"] for r in report["ranking"]]
    names = [shown(b) for b in order]
    cells = {(h["bot"], h["opponent"]): h for h in report["head_to_head"]}
    width = max(9, *(len(n) for n in names))
    lines = [
        f"ladder {shown(report['ladder'])}: how often the row's bot finished ahead of the "
        "column's (share / matches together)",
        " " * width + "".join(f"  {n[:12]:>12}" for n in names),
    ]
    for a, name in zip(order, names, strict=True):
        row = []
        for b in order:
            cell = cells.get((a, b))
            text = (
                "-"
                if a == b
                else "never met"
                if cell is None
                else (f"{cell['ahead_share']:.2f}/{cell['matches']}")
            )
            row.append(f"  {text:>12}")
        lines.append(f"{name:<{width}}" + "".join(row))
    lines += [
        "",
        "ranking: TrueSkill (the leaderboard) next to alpha-Rank (share of the population)",
    ]
    lines.append(f"{'bot':<{width}}  trueskill  alpha-rank  mass")
    for r, name in zip(report["ranking"], names, strict=True):
        lines.append(
            f"{name:<{width}}  {r['trueskill_rank']:>9}  {r['alpha_rank']:>10}  "
            f"{r['alpha_rank_mass']:.4f}"
        )
    cycles = report["cycles"]
    if not cycles:
        lines.append("significant cycles: none (each edge tested at p < 0.05, Bonferroni)")
    for a, b, c in cycles:
        lines.append(
            f"significant cycle: {shown(a)} > {shown(b)} > {shown(c)} > {shown(a)} "
            f"(ahead {cells[(a, b)]['ahead_share']:.2f}, {cells[(b, c)]['ahead_share']:.2f}, "
            f"{cells[(c, a)]['ahead_share']:.2f})"
        )
    return "\n".join(lines)
