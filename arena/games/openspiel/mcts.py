"""OpenSpiel's own MCTS (``open_spiel.python.algorithms.mcts.MCTSBot``) as the built-in
``openspiel_mcts`` of every OpenSpiel game of perfect information.

In such a game everything is public, so the seat's witness is the match's own history
(``witness``) and ``determinize`` rebuilds the very state: the bot searches it with
OpenSpiel's UCT and random rollouts, chance nodes (backgammon's dice) sampled by the
bot's own generator. Games of imperfect information do not get it: searching one
sampled world as if it were the truth would be a different (and unsound) algorithm;
they have ``ismcts``. Randomness comes from one seeded ``numpy`` generator, so a seed
fixes every choice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from arena.games import get as get_game
from arena.policies.base import MatchInfo
from arena.policies.seeding import seed_for_match

SIMULATIONS: Final = 200
"""Simulations per decision (OpenSpiel's example uses 1000; 200 beats random at
tic_tac_toe and connect_four within tens of milliseconds)."""
MIN_SIMULATIONS: Final = 2
"""OpenSpiel's MCTS expands the root in its first simulation: a choice needs a second."""
UCT_C: Final = 2.0
"""OpenSpiel's default exploration constant for returns in [-1, 1]."""
ROLLOUTS: Final = 1
"""Random rollouts per leaf (OpenSpiel's default)."""


class MctsPolicy:
    """OpenSpiel's MCTSBot on the OpenSpiel game ``game`` (an ``OpenSpielGame``)."""

    cpu_bound: ClassVar[bool] = True
    """A decision is a search: in a policy process, like ``ismcts``."""

    def __init__(
        self,
        game: Any,
        seed: int | None = None,
        *,
        simulations: int = SIMULATIONS,
        uct_c: float = UCT_C,
        rollouts: int = ROLLOUTS,
    ) -> None:
        if simulations < MIN_SIMULATIONS:
            raise ValueError(
                f"OpenSpiel's MCTS needs at least {MIN_SIMULATIONS} simulations, not {simulations}"
            )
        self.game = game
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self._seed(seed)
        self._bots: dict[str, Any] = {}

    def _seed(self, seed: int | None) -> None:
        import numpy as np

        self._numpy = np.random.RandomState(random.Random(seed).getrandbits(32))
        self._rng = random.Random(seed)
        self._bots = {}

    def match_start(self, info: MatchInfo) -> None:
        """Served as a bot: reseed from the match, so each match replays identically."""
        self._seed(seed_for_match(info))

    def _bot(self, loaded: Any) -> Any:
        """One MCTSBot per table, sharing the policy's generator."""
        from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped]

        key = str(loaded)
        bot = self._bots.get(key)
        if bot is None:
            evaluator = mcts.RandomRolloutEvaluator(self.rollouts, self._numpy)
            bot = mcts.MCTSBot(
                loaded, self.uct_c, self.simulations, evaluator, random_state=self._numpy
            )
            self._bots[key] = bot
        return bot

    def choose(self, obs: Any) -> int:
        """The most visited action of a search from the rebuilt state."""
        if len(obs.legal) == 1:
            return int(obs.legal[0])
        state = self.game.determinize(obs, self._rng).state
        action = int(self._bot(state.get_game()).step(state))
        assert action in obs.legal
        return action


@dataclass(frozen=True, slots=True)
class MctsFactory:
    """The ``openspiel_mcts`` built-in of the game registered as ``game``: picklable (a
    name, not the game), so policy processes can build it."""

    game: str

    cpu_bound: ClassVar[bool] = MctsPolicy.cpu_bound

    def __call__(self, seed: int | None = None, **settings: Any) -> MctsPolicy:
        return MctsPolicy(get_game(self.game), seed, **settings)
