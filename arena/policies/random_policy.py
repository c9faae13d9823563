"""Uniformly random over the canonical legal actions."""

from __future__ import annotations

import random

from arena.games.abluxxen import Action, Observation
from arena.v1 import bot_pb2

from .seeding import seed_for_match


class RandomPolicy:
    """Picks uniformly among the legal actions; seeded for reproducibility."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def match_start(self, start: bot_pb2.MatchStart) -> None:
        """Served as a bot: reseed from the match, so each match replays identically."""
        self._rng.seed(seed_for_match(start))

    def choose(self, obs: Observation) -> Action:
        """A uniformly random legal action."""
        return self._rng.choice(obs.legal)
