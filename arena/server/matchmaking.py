"""Who plays next on the live ladder: rating-driven matchmaking over the bots free now.

The anchor is a bot still in its placement matches if there is one (the fewest played
first), else the most uncertain bot; the other seats go to whoever makes the closest
table by TrueSkill match quality. Seats are then ordered to give each bot its least-used
seats and neighbours (the start seat has an edge in this game).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.league.rating import RatingModel, Skill, quality
from arena.league.schedule import count_seating, seat_order


@dataclass(slots=True)
class Matchmaker:
    """Chooses and seats tables; remembers seatings while the arena runs."""

    model: RatingModel
    """The ladder's TrueSkill environment."""
    rng: random.Random = field(default_factory=random.Random)
    """Tie-breaks."""
    seat_use: dict[tuple[str, int], int] = field(default_factory=dict)
    """How often each bot sat in each seat."""
    left_of: dict[tuple[str, str], int] = field(default_factory=dict)
    """How often each bot had each left neighbour."""

    def table(
        self,
        free: Sequence[str],
        size: int,
        skills: Mapping[str, Skill],
        played: Mapping[str, int],
        placement_left: Mapping[str, int],
    ) -> tuple[str, ...]:
        """A seated table of ``size`` bots out of ``free`` (which must hold enough)."""
        if len(free) < size:
            raise ValueError(f"{len(free)} free bots for a table of {size}")
        tiebreak = {b: self.rng.random() for b in free}

        def skill(bot: str) -> Skill:
            return skills.get(bot, Skill())

        anchor = max(
            free,
            key=lambda b: (
                placement_left.get(b, 0) > 0,
                -played.get(b, 0) if placement_left.get(b, 0) > 0 else 0,
                skill(b).sigma,
                -played.get(b, 0),
                tiebreak[b],
            ),
        )
        chosen = [anchor]
        while len(chosen) < size:
            chosen.append(
                max(
                    (b for b in free if b not in chosen),
                    key=lambda b: (
                        round(quality(self.model, [skill(c) for c in [*chosen, b]]), 9),
                        -played.get(b, 0),
                        tiebreak[b],
                    ),
                )
            )
        seats = seat_order(chosen, self.seat_use, self.left_of, self.rng)
        count_seating(seats, self.seat_use, self.left_of)
        return seats
