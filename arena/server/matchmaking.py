"""Who plays next on the live ladder: the leagues' default schedule over the bots free now.

The table is chosen by the leagues' rule (``schedule.informative_table``), with the
ladder's placement matches first: bots still in their placement matches come first,
then the bots that played least; among those, the table brings together the pairs whose
order is least certain, with a pull towards pairs that have met least so every pair
stays connected. Seats are then ordered to give each bot its least-used seats and
neighbours (the start seat has an edge in this game).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.league.joint import JointFit
from arena.league.rating import RatingModel
from arena.league.schedule import (
    count_meetings,
    count_seating,
    informative_table,
    pair_floor,
    seat_order,
)


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
    meetings: dict[tuple[str, str], int] = field(default_factory=dict)
    """How often each pair of bots met (while the arena runs)."""
    tables: int = 0
    """Tables chosen while the arena runs (what the pair floor grows with)."""

    def table(
        self,
        free: Sequence[str],
        size: int,
        joint: JointFit,
        played: Mapping[str, int],
        placement_left: Mapping[str, int],
    ) -> tuple[str, ...]:
        """A seated table of ``size`` bots out of ``free`` (which must hold enough),
        chosen by the ladder's ``joint`` model (a few seconds stale at most)."""
        if len(free) < size:
            raise ValueError(f"{len(free)} free bots for a table of {size}")
        tiebreak = {b: self.rng.random() for b in free}
        floor = pair_floor(self.tables, len(played) or len(free), size)
        chosen = informative_table(
            free,
            size,
            joint.p_better,
            played,
            self.meetings,
            tiebreak,
            placement_left,
            floor=floor,
        )
        self.tables += 1
        seats = seat_order(chosen, self.seat_use, self.left_of, self.rng)
        count_seating(seats, self.seat_use, self.left_of)
        count_meetings(seats, self.meetings)
        return seats
