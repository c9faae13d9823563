"""Every registered game as a PettingZoo AEC environment, for reinforcement learning.

Why here, and why generic: learning code should reach any game the arena plays the way
the referee does, through the Game interface alone (``make_config``, ``new_match``,
``deciding``, ``observe``, ``apply_legal``, ``result`` and the OpenSpiel-style
``num_distinct_actions``, ``action_code``/``action_from_code`` and
``observation_tensor``), so a new game plug-in is an environment the day it registers,
with nothing game-specific written here. It needs the ``[rl]`` extra (pettingzoo,
gymnasium, numpy) and is imported only on demand (``arena.games.pettingzoo_env``), so a
default install never needs those packages.

Conventions (see also the docstrings of ``env`` and ``ArenaEnv``):

* Agents are ``player_0`` .. ``player_{n-1}``: agent ``player_i`` plays seat ``i``.
  ``agent_selection`` is always the deciding seat while the match runs.
* Observation of an agent: ``{"observation": float32 vector of length
  observation_tensor_size(config), "action_mask": int8 vector of length
  num_distinct_actions(config)}``. The mask has a 1 at the code of every action in the
  seat's legal set (``game.observe(state, seat).legal``), so it is all zeros for every
  agent but the deciding one. The Game interface declares no bounds for tensor entries
  (scores, for instance, may be negative and unbounded), so the Box is (-inf, inf):
  PettingZoo's ``api_test`` warns about that, it does not fail.
* Actions are codes (``Discrete(num_distinct_actions)``). Stepping an action that is not
  in the deciding seat's legal set raises ValueError and leaves the match unchanged (an
  environment that silently replaced it would hide the learner's bug; wrap it in
  PettingZoo's ``TerminateIllegalWrapper`` for the penalize-and-end convention).
* Rewards are zero until the match ends; then each agent receives once, from the final
  ranks (``GameResult.ranks``, 1 = best), ``(players + 1 - 2 * position) / (players - 1)``
  where ``position`` is the seat's place 1..players, tied seats sharing the average of
  the places they occupy. The best seat gets +1, the worst -1, the rewards of a match sum
  to 0, and tied seats get equal rewards. With 3 players and ranks (1, 1, 3): +0.5, +0.5,
  -1. ``infos`` then tell each agent its ``rank``, ``score`` and the ``end_reason``.
* The match ends by the game's own rules (its turn caps included), so every agent is
  *terminated* at once, never truncated. As the AEC API requires, each terminated agent
  is then selected in turn (seat order) and must be stepped with ``None``, which removes
  it; a non-None action for a terminated agent raises ValueError.
* Seeding: ``reset(seed=s)`` shuffles the match with ``random.Random(s)``; a ``reset()``
  without a seed continues the previous generator (a new match each time), seeded from
  the system on the first reset. ``reset``'s ``options`` are accepted and ignored: the
  table is fixed when the environment is made.

Example (Abluxxen)::

    from arena.games import pettingzoo_env

    env = pettingzoo_env("abluxxen", preset="amigo", players=4)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
"""

from __future__ import annotations

import operator
import random
from typing import Any, Final, SupportsIndex

from arena import DISTRIBUTION

from .registry import AnyGame, get

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ImportError as missing:  # pragma: no cover - only without the extra
    raise ImportError(
        f"arena.games.pettingzoo needs the [rl] extra: pip install '{DISTRIBUTION}[rl]' ({missing})"
    ) from missing

Obs = dict[str, npt.NDArray[Any]]
"""An agent's observation: ``observation`` (float32) and ``action_mask`` (int8)."""

RENDER_MODES: Final = ("ansi", "human")


def agent_name(seat: int) -> str:
    """The agent that plays ``seat``."""
    return f"player_{seat}"


def rank_rewards(ranks: tuple[int, ...] | list[int]) -> list[float]:
    """Final rewards from ranks (1 = best, ties share a rank), in [-1, 1], summing to 0:
    ``(n + 1 - 2 * position) / (n - 1)``, a tied group sharing the average of the places
    it occupies. Dense and competition ranking give the same rewards."""
    n = len(ranks)
    if n < 2:
        return [0.0] * n
    out = []
    for rank in ranks:
        better = sum(1 for other in ranks if other < rank)
        tied = sum(1 for other in ranks if other == rank)
        position = better + (tied + 1) / 2
        out.append((n + 1 - 2 * position) / (n - 1))
    return out


class ArenaEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """A match of one registered game at one table, as a PettingZoo AEC environment
    (conventions in the module docstring).

    Besides the AEC API it offers ``game`` and ``config`` (the Game and its
    configuration), ``match_state`` (the game's state of the current match, for tests and
    tools: it holds hidden information) and ``seat_of(agent)``.
    """

    def __init__(
        self,
        game: AnyGame,
        config: Any,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; choose one of "
                f"{', '.join(RENDER_MODES)} or None"
            )
        self.game: AnyGame = game
        self.config: Any = config
        self.render_mode = render_mode
        players = game.players_of(config)
        self._num_actions = game.num_distinct_actions(config)
        self._tensor_size = game.observation_tensor_size(config)
        self.metadata = {
            "name": f"arena_{game.name}_v0",
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": False,
        }
        self.possible_agents: list[str] = [agent_name(seat) for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces: dict[str, spaces.Dict] = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=-np.inf, high=np.inf, shape=(self._tensor_size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(
                        low=0, high=1, shape=(self._num_actions,), dtype=np.int8
                    ),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents
        }
        self._rng: random.Random | None = None
        self._state: Any = None
        self._rendered = 0

    # -- spaces -------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        """The same Dict space object every time (PettingZoo seeds it)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(num_distinct_actions)``, the same object every time."""
        return self.action_spaces[agent]

    # -- the match ----------------------------------------------------------------

    @property
    def match_state(self) -> Any:
        """The game's state of the current match (RuntimeError before ``reset``)."""
        if self._state is None:
            raise RuntimeError("no match yet: call reset() first")
        return self._state

    def seat_of(self, agent: str) -> int:
        """The seat ``agent`` plays."""
        try:
            return self._seats[agent]
        except KeyError:
            raise ValueError(f"no agent {agent!r}; agents: {self.possible_agents}") from None

    def reset(
        self, seed: SupportsIndex | None = None, options: dict[str, Any] | None = None
    ) -> None:
        """A new match, shuffled by ``random.Random(seed)`` (or by the generator of the
        previous reset when ``seed`` is None); ``options`` are ignored."""
        if seed is not None:
            self._rng = random.Random(operator.index(seed))  # NumPy integers too
        elif self._rng is None:
            self._rng = random.Random()
        self._state = self.game.new_match(self.config, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._rendered = 0
        self._skip_agent_selection = None  # AECEnv's dead-step bookkeeping
        seat = self.game.deciding(self._state)
        if seat is None:  # a game over before its first decision: nothing to play
            self._finish()
            self._accumulate_rewards()
        else:
            self.agent_selection = agent_name(seat)

    def observe(self, agent: str) -> Obs:
        """The agent's observation tensor and action mask (see the module docstring)."""
        obs = self.game.observe(self.match_state, self.seat_of(agent))
        tensor = np.asarray(self.game.observation_tensor(obs), dtype=np.float32)
        if tensor.shape != (self._tensor_size,):
            raise AssertionError(
                f"{self.game.name}: observation_tensor has shape {tensor.shape}, "
                f"observation_tensor_size says {self._tensor_size}"
            )
        mask = np.zeros(self._num_actions, dtype=np.int8)
        for action in obs.legal:
            mask[self.game.action_code(action)] = 1
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play the action code ``action`` for ``agent_selection``; ``None`` for a
        terminated agent (which removes it). ValueError for an action that is not the
        code of a legal action (the match is left unchanged)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.match_state
        seat = self.seat_of(agent)
        chosen = self._legal_action(state, seat, action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.game.apply_legal(state, chosen)
        following = self.game.deciding(state)
        if following is None:
            self._finish()
        else:
            self.agent_selection = agent_name(following)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _legal_action(self, state: Any, seat: int, action: Any) -> Any:
        """The legal action whose code is ``action``, or ValueError."""
        legal = self.game.observe(state, seat).legal
        try:
            if isinstance(action, bool | np.bool_):
                raise TypeError
            code = operator.index(action)
        except TypeError:
            raise ValueError(
                f"{agent_name(seat)} must step an integer action code (or None once "
                f"terminated), not {action!r}"
            ) from None
        for candidate in legal:
            if self.game.action_code(candidate) == code:
                return candidate
        codes = ", ".join(str(self.game.action_code(a)) for a in legal)
        raise ValueError(
            f"action {code} is not legal for {agent_name(seat)} now; legal codes: {codes} "
            "(the action_mask of its observation)"
        )

    def _finish(self) -> None:
        """Rewards, infos and terminations once the match is over."""
        result = self.game.result(self.match_state)
        if result is None:
            raise AssertionError(f"{self.game.name}: no seat decides but there is no result")
        rewards = rank_rewards(tuple(result.ranks))
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = rewards[seat]
            self.terminations[agent] = True
            self.infos[agent] = {
                "rank": int(result.ranks[seat]),
                "score": int(result.scores[seat]),
                "end_reason": str(result.end_reason),
            }
        self.agent_selection = self.agents[0]

    # -- rendering ----------------------------------------------------------------

    def render(self) -> str | None:
        """The match in words since the previous render (all hands revealed: a
        spectator's view), from ``game.replay_text``; ``ansi`` returns it, ``human``
        prints it. None without a render mode."""
        if self.render_mode is None:
            return None
        record = self.game.record_json(self.match_state)
        lines = list(self.game.replay_text(record, [], self.possible_agents, None))
        text = "\n".join(lines[self._rendered :])
        self._rendered = len(lines)
        if self.render_mode == "human":
            if text:
                print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(
    name: str,
    preset: str | None = None,
    players: int | None = None,
    render_mode: str | None = None,
    **options: Any,
) -> ArenaEnv:
    """The environment without PettingZoo's order-enforcing wrapper (see ``env``)."""
    game = get(name)
    if players is None:
        players = game.check_tables[0][0] if game.check_tables else game.table_sizes[0]
    config = game.make_config(players, preset, **options)
    return ArenaEnv(game, config, render_mode=render_mode)


def env(
    name: str,
    preset: str | None = None,
    players: int | None = None,
    render_mode: str | None = None,
    **options: Any,
) -> AECEnv:
    """A PettingZoo AEC environment of the registered game ``name`` (``arena.games.get``).

    ``preset`` names the game's rule preset (its default when None), ``players`` the
    table size (default: the players of the game's first check table,
    ``game.check_tables[0]``), ``render_mode`` is None, ``"ansi"`` or ``"human"``, and
    ``options`` go to ``game.make_config`` (``deals=``, rule options...), which raises
    InvalidOptionsError for what the game does not allow. Wrapped, as PettingZoo's own
    environments are, in its OrderEnforcingWrapper (``.unwrapped`` is the ArenaEnv).
    """
    return OrderEnforcingWrapper(
        raw_env(name, preset=preset, players=players, render_mode=render_mode, **options)
    )
