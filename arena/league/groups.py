"""Duplicate deals rated as a group: the tables that played one deal, rated as one
free-for-all of all their bots ranked by their summed score (as the ACPC rates
duplicate poker).

Why it may help: in a duplicate group the same hands are dealt at every table, so the
bots that held the same hand at different tables are compared on equal luck; rating the
tables one at a time throws that away. What it costs: scores from different tables are
compared, and a table of strong bots ends sooner (everyone scores less). Measured in
docs/RATINGS.md (scripts/bench/rating_truth.py --duplicate --rate-groups).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from arena.store.rows import SeatRow


def group_seats(tables: Sequence[Sequence[SeatRow]]) -> list[SeatRow]:
    """The seats of a deal group's tables as one table: each bot's score summed over its
    tables, ranked by it (highest first, equal sums tie, a forfeit ranks last)."""
    scores: dict[str, int] = {}
    forfeited: dict[str, bool] = {}
    first: dict[str, SeatRow] = {}
    for table in tables:
        for seat in table:
            scores[seat.bot] = scores.get(seat.bot, 0) + seat.score
            forfeited[seat.bot] = forfeited.get(seat.bot, False) or seat.forfeited
            first.setdefault(seat.bot, seat)

    def key(bot: str) -> tuple[bool, int]:
        return (forfeited[bot], -scores[bot])

    order = sorted(scores, key=key)
    return [
        replace(
            first[bot],
            seat=position,
            score=scores[bot],
            rank=1 + sum(key(other) < key(bot) for other in order),
        )
        for position, bot in enumerate(order)
    ]
