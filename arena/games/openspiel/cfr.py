"""OpenSpiel's CFR+ (``pyspiel.CFRPlusSolver``) as the built-in ``openspiel_cfr`` of
small poker: an approximate equilibrium, solved once per table and then played by
looking up the seat's information state.

Why only small poker: CFR walks the whole game tree on every iteration and keeps a
policy for every information state, so it is for games whose tree fits in a second or
two of solving. The tables it solves are listed in ``SOLVABLE`` with what one solve
costs (measured: docs/BENCHMARKS.md). What the policy reads is the seat's own
information-state string, the key of the solved table: nothing a seat may not know.

A solve is deterministic (``ITERATIONS`` iterations, no randomness), so every process
solves the same table; a choice samples the solved mixed strategy with the policy's
seeded generator, so a seed fixes every choice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from arena.games import get as get_game
from arena.policies.base import MatchInfo
from arena.policies.seeding import seed_for_match

from .family import pyspiel_module

NAME: Final = "openspiel_cfr"
"""The built-in's name."""
ITERATIONS: Final = 200
"""CFR+ iterations per solve. Exploitability of the average policy after 200: kuhn_poker
0.0003, leduc_poker 0.005 (chips a hand; a uniformly random policy's: 0.46 and 2.37)."""
SOLVABLE: Final = {"kuhn_poker": (2, 3, 4), "leduc_poker": (2,)}
"""Games and the table sizes CFR+ solves in at most a few seconds (kuhn_poker at 4
players: 2 s; at 5 it would take 35 s, leduc_poker at 3 players 15 minutes)."""
REFUSAL: Final = "OpenSpiel's CFR solves small poker only: " + ", ".join(
    f"{game} at {'/'.join(map(str, sizes))} players" for game, sizes in SOLVABLE.items()
)

_solved: dict[str, Any] = {}
"""Solved tables by game string, kept for the life of the process (a league's policy
process solves each table once)."""


def _short_name(spec: str) -> str:
    """The game's name in a game string (``leduc_poker`` of ``leduc_poker(players=2)``)."""
    return spec.partition("(")[0]


def solvable_game(spec: str) -> bool:
    """Whether ``spec`` (a game string) names a game ``SOLVABLE`` lists."""
    return _short_name(spec) in SOLVABLE


def table_refusal(table: str, players: int) -> str | None:
    """Why the table ``table`` (a game string) of ``players`` seats is not solved, or None."""
    sizes = SOLVABLE.get(_short_name(table))
    if sizes is None:
        return REFUSAL
    if players not in sizes:
        return f"{REFUSAL} (this table has {players})"
    return None


def solved(table: str) -> Any:
    """The average policy of CFR+ on ``table`` (a ``pyspiel.TabularPolicy``), solved at
    the first call in this process; ValueError for a table ``SOLVABLE`` does not list."""
    policy = _solved.get(table)
    if policy is None:
        pyspiel = pyspiel_module()
        game = pyspiel.load_game(table)
        refusal = table_refusal(table, game.num_players())
        if refusal is not None:
            raise ValueError(refusal)
        solver = pyspiel.CFRPlusSolver(game)
        for _ in range(ITERATIONS):
            solver.evaluate_and_update_policy()
        policy = _solved[table] = solver.tabular_average_policy()
    return policy


class CfrPolicy:
    """Plays the CFR+ solution of its table, sampled at each decision."""

    cpu_bound: ClassVar[bool] = True
    """The first decision at a table solves it (up to a few seconds): in a policy
    process, like the searches."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def match_start(self, info: MatchInfo) -> None:
        """Served as a bot: reseed from the match, so each match replays identically."""
        self._rng.seed(seed_for_match(info))

    def choose(self, obs: Any) -> int:
        """An action drawn from the solved strategy at the seat's information state."""
        if len(obs.legal) == 1:
            return int(obs.legal[0])
        strategy = dict(solved(obs.game).get_state_policy(obs.information_state))
        weights = [strategy.get(action, 0.0) for action in obs.legal]
        if sum(weights) <= 0:  # not reached in a solved table; kept legal regardless
            return int(self._rng.choice(obs.legal))
        return int(self._rng.choices(obs.legal, weights)[0])


@dataclass(frozen=True, slots=True)
class CfrFactory:
    """The ``openspiel_cfr`` built-in of the game registered as ``game``: picklable (a
    name, not the game), so policy processes can build it."""

    game: str

    cpu_bound: ClassVar[bool] = CfrPolicy.cpu_bound

    def __call__(self, seed: int | None = None) -> CfrPolicy:
        # Loading the game registers it in this process, where the requests it answers
        # are read (``arena.sdk.answer.game_of`` finds OpenSpiel games only once loaded).
        get_game(self.game)
        return CfrPolicy(seed)


__all__ = ["NAME", "CfrFactory", "CfrPolicy", "solvable_game", "solved", "table_refusal"]
