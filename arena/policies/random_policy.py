"""Uniformly random over the canonical legal actions: the same for every game."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from .base import MatchInfo
from .seeding import seed_for_match


class RandomPolicy:
    """Picks uniformly among the legal actions; seeded for reproducibility."""

    instant: ClassVar[bool] = True
    """A decision takes microseconds: in-process seats run it on the loop, inside its
    turn budget (``referee/seats.py``), where a thread would cost more than it."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def match_start(self, info: MatchInfo) -> None:
        """Served as a bot: reseed from the match, so each match replays identically."""
        self._rng.seed(seed_for_match(info))

    def choose(self, obs: Any) -> Any:
        """A uniformly random legal action."""
        return self._rng.choice(obs.legal)
