"""Policies: observation in, action out. In-process seats play them; the SDK serves them
as bots. The game-independent parts live here; each game's own policies (``greedy``)
live in its package and are listed by ``Game.policies``."""

from .base import FaultInfo, MatchEnd, MatchInfo, Policy
from .random_policy import RandomPolicy
from .registry import builtin_factory, builtin_names
from .seeding import seed_for_match

__all__ = [
    "FaultInfo",
    "MatchEnd",
    "MatchInfo",
    "Policy",
    "RandomPolicy",
    "builtin_factory",
    "builtin_names",
    "seed_for_match",
]
