"""Seat advantage on a ladder: mean points and mean rank by seat, with standard errors.

Why: in some games the start seat has an edge (shared/DESIGN.md measured +0.3 to +1.2
points per match for seat 0 in one of them); schedules give every bot equal time in
every seat so the edge cancels out of the ratings, and this report shows how big it is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat's record over a ladder's matches."""

    seat: int
    matches: int
    mean_points: float
    points_se: float
    mean_rank: float
    rank_se: float


def seat_lines(seats: Iterable[tuple[str, int, str, int, int]]) -> list[SeatLine]:
    """Per seat, from (match id, seat, bot, score, rank) rows (``Store.ladder_seats``)."""
    points: dict[int, list[float]] = {}
    ranks: dict[int, list[float]] = {}
    for _, seat, _, score, rank in seats:
        points.setdefault(seat, []).append(score)
        ranks.setdefault(seat, []).append(rank)
    return [
        SeatLine(seat, len(points[seat]), *_mean_se(points[seat]), *_mean_se(ranks[seat]))
        for seat in sorted(points)
    ]


def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.nan
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)
