"""Uniformly random over the canonical legal actions."""

from __future__ import annotations

import random

from arena.games.abluxxen import Action, Observation


class RandomPolicy:
    """Picks uniformly among the legal actions; seeded for reproducibility."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action:
        """A uniformly random legal action."""
        return self._rng.choice(obs.legal)
