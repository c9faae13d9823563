"""What the store reads and writes, as plain values (the same on every database)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a finished match, as stored."""

    seat: int
    bot: str
    score: int
    game_rank: int
    rank: int
    forfeited: bool
    decisions: int
    think_ms: float
    timeouts: int
    errors: int
    invalid: int


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A finished match, as stored."""

    id: str
    league_id: str
    idx: int
    ladder: str
    seed: int
    end_reason: str
    decisions: int
    wall_s: float
    finished_at: float
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True, slots=True)
class HeldMatch:
    """A finished match waiting to be rated: what ``record_match`` will be given."""

    match: MatchRow
    config: dict[str, Any]
    faults: list[tuple[int, int, str, str, int]]
    record: bytes


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A bot's current rating on a ladder."""

    ladder: str
    bot: str
    mu: float
    sigma: float
    matches: int


@dataclass(frozen=True, slots=True)
class Standing:
    """A bot on a ladder as the leaderboard shows it: its rating, its totals (the keys
    of ``seat_stats``; empty before its first recorded match) and, for a bot submitted
    to ``arena serve``, its status."""

    rating: RatingRow
    stats: dict[str, float]
    status: str | None


def standing_key(mu: float, sigma: float) -> float:
    """The leaderboard's sort key, smallest first: ``3 sigma - mu``, the negated
    conservative skill, computed exactly as the ``ratings_by_standing`` index does."""
    return 3 * sigma - mu
