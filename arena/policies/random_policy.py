"""Uniformly random over the canonical legal actions: the same for every game."""

from __future__ import annotations

import random
from typing import Any

from .base import MatchInfo
from .seeding import seed_for_match


class RandomPolicy:
    """Picks uniformly among the legal actions; seeded for reproducibility."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def match_start(self, info: MatchInfo) -> None:
        """Served as a bot: reseed from the match, so each match replays identically."""
        self._rng.seed(seed_for_match(info))

    def choose(self, obs: Any) -> Any:
        """A uniformly random legal action."""
        return self._rng.choice(obs.legal)
