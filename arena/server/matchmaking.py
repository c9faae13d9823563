"""Who plays next on the live ladder: rating-driven matchmaking over the bots free now.

The table is chosen by the leagues' rule (``schedule.closest_table``), with the ladder's
placement matches first: the anchor is a bot still in its placement matches if there is
one (the fewest played first), else the most uncertain bot; the other seats go to
whoever makes the closest table by TrueSkill match quality. Seats are then ordered to
give each bot its least-used seats and neighbours (the start seat has an edge in this
game).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.league.rating import RatingModel, Skill
from arena.league.schedule import closest_table, count_seating, seat_order


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
        chosen = closest_table(self.model, free, size, skills, played, tiebreak, placement_left)
        seats = seat_order(chosen, self.seat_use, self.left_of, self.rng)
        count_seating(seats, self.seat_use, self.left_of)
        return seats
