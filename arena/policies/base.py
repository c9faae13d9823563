"""The policy interface shared by in-process seats and served bots."""

from __future__ import annotations

from typing import Protocol

from arena.games.abluxxen import Action, Observation


class Policy(Protocol):
    """Chooses an action for the seat that observes ``obs``; ``obs.legal`` is non-empty."""

    def choose(self, obs: Observation) -> Action:
        """One of ``obs.legal``."""
        ...
