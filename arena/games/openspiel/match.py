"""A match of an OpenSpiel game, with the referee owning chance.

The arena, not OpenSpiel, draws every chance outcome: from the match's seed and the
outcome's place in the history (``chance_draw``), so a seed replays a match, a state
rebuilt from its history continues exactly as the original would, and no bot is ever
asked about a chance node: ``advance`` plays them out after every move, and the
deciding player is always a seat (or none, at the end).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .config import OpenSpielConfig
from .result import OpenSpielResult

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


def chance_draw(seed: int, position: int) -> float:
    """A uniform number in [0, 1) for the chance node at ``position`` of the history:
    splitmix64 of the seed and the position (cheap, stateless, well mixed)."""
    z = (seed + (position + 1) * _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    return (z >> 11) / float(1 << 53)


@dataclass(slots=True)
class MatchState:
    """A match: the OpenSpiel state, its table, the seed chance is drawn from, and the
    seats' decisions so far (chance nodes excluded)."""

    config: OpenSpielConfig
    seed: int
    state: Any
    """A ``pyspiel.State``, never at a chance node between calls."""
    decisions: int = 0
    ended: OpenSpielResult | None = None
    """The result, once asked for at the end (a terminal state never changes: the
    referee asks for it, then for the record, which holds it too)."""


def advance(match: MatchState) -> None:
    """Play out chance nodes until a seat decides or the match ends."""
    state = match.state
    while state.is_chance_node():
        u = chance_draw(match.seed, len(state.history()))
        outcomes = state.chance_outcomes()
        chosen = outcomes[-1][0]
        for action, probability in outcomes:
            u -= probability
            if u < 0.0:
                chosen = action
                break
        state.apply_action(chosen)


def history_json(state: Any) -> list[list[int]]:
    """The history as [player, action] pairs (player -1: chance)."""
    return [[step.player, step.action] for step in state.full_history()]  # ints already
