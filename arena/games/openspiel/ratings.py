"""The draw probability of an OpenSpiel game's ladders, measured from random play.

OpenSpiel's ``GameType`` says nothing about how often a game ties, so the arena plays
``SAMPLE`` seeded random matches of the table once per process (memoized per game
string) and takes the share of rank-adjacent seat pairs with equal returns, as Fluxx's
figure is the share of tied neighbours; clipped to [``FLOOR``, ``CEILING``]: TrueSkill
needs a draw probability below 1, and a game that never ties at random can still tie.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, Final

from .match import MatchState, advance

SAMPLE: Final = 48
"""Random matches measured per table (a few seconds for the longest curated game)."""
FLOOR: Final = 0.01
CEILING: Final = 0.9
MAX_MOVES: Final = 20_000
"""Moves after which a sampled match is left out (none of the curated games gets near)."""


MEASURED_KEPT: Final = 256
"""Tables whose rate is kept (the cache is bounded: game strings can come from outside)."""
_measured: dict[str, float] = {}


def measured_draw_rate(game_string: str, loaded: Any) -> float:
    """The share of tied rank-adjacent pairs in ``SAMPLE`` random matches of
    ``loaded`` (the game of ``game_string``, turn-based), clipped; measured once."""
    rate = _measured.get(game_string)
    if rate is None:
        if len(_measured) >= MEASURED_KEPT:
            _measured.clear()
        rate = _measured[game_string] = _measure(game_string, loaded)
    return rate


def _measure(game_string: str, loaded: Any) -> float:
    chooser = random.Random(f"draws/{game_string}")
    tied = pairs = 0
    for seed in range(SAMPLE):
        match = MatchState(None, seed, loaded.new_initial_state())  # type: ignore[arg-type]
        advance(match)
        state = match.state
        for _ in range(MAX_MOVES):
            if state.is_terminal():
                break
            state.apply_action(chooser.choice(state.legal_actions()))
            advance(match)
        if not state.is_terminal():
            continue
        returns = sorted(state.returns())
        pairs += len(returns) - 1
        tied += sum(a == b for a, b in itertools.pairwise(returns))
    rate = tied / pairs if pairs else 0.0
    return min(CEILING, max(FLOOR, rate))
