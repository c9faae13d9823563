"""Every registered game's PettingZoo environment (``arena.games.pettingzoo``) passes
PettingZoo's own checks, on every preset and table size.

Why: learning code trusts the AEC API exactly as PettingZoo's ``api_test`` and
``seed_test`` define it (the dead-step convention, accumulated rewards, seeding), and the
environment is built generically over the Game interface, so every game plug-in gets it,
and gets it checked here, without a line of its own. Both PettingZoo checks play until
the match ends (``NUM_CYCLES`` is far above any match length), so the end of a match and
the dead steps are checked too. Beyond them: a full random match keeps the action mask
equal to ``game.observe``'s legal set at every step, ends with every agent terminated and
rewards from the ranks, and illegal actions raise ValueError.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="needs the [rl] extra")

from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from arena.games import AnyGame, InvalidOptionsError, all_games, pettingzoo_env
from arena.games.pettingzoo import ArenaEnv, rank_rewards, raw_env

GAMES = all_games()
TABLES = [
    pytest.param(game, players, preset, id=f"{game.name}-{preset}-{players}p")
    for game in GAMES
    for preset in game.presets
    for players in game.table_sizes
]
NUM_CYCLES = 10_000
"""Cycles for api_test and seed_test: matches end long before (both stop at the end)."""

# api_test's advice for plain Box observations and NumPy-array observations does not
# apply to the Dict observations with action masks that PettingZoo's own classic games
# use too; these warnings are expected.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
]


def unwrapped(env: Any) -> ArenaEnv:
    inner = env.unwrapped
    assert isinstance(inner, ArenaEnv)
    return inner


@pytest.mark.parametrize(("game", "players", "preset"), TABLES)
@pytest.mark.slow
def test_pettingzoo_api_test(game: AnyGame, players: int, preset: str) -> None:
    env = pettingzoo_env(game.name, preset=preset, players=players)
    assert isinstance(env, OrderEnforcingWrapper)
    api_test(env, num_cycles=NUM_CYCLES)


@pytest.mark.parametrize(("game", "players", "preset"), TABLES)
@pytest.mark.slow
def test_pettingzoo_seed_test(game: AnyGame, players: int, preset: str) -> None:
    seed_test(lambda: pettingzoo_env(game.name, preset=preset, players=players), NUM_CYCLES)


def play_out(env: Any, seed: int) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    """A random match in ``env``, checking the mask against the game at every step;
    returns the final reward and info that ``last()`` gave each agent."""
    inner = unwrapped(env)
    game = inner.game
    env.reset(seed=seed)
    chooser = random.Random(seed)
    final_rewards: dict[str, float] = {}
    final_infos: dict[str, dict[str, Any]] = {}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        assert not truncated
        state = inner.match_state
        if terminated:
            assert game.deciding(state) is None
            final_rewards[agent] = reward
            final_infos[agent] = info
            env.step(None)
            continue
        seat = game.deciding(state)
        assert seat is not None
        assert agent == f"player_{seat}" == env.agent_selection
        assert reward == 0
        legal = game.observe(state, seat).legal
        codes = sorted(game.action_code(a) for a in legal)
        assert np.flatnonzero(obs["action_mask"]).tolist() == codes
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        assert obs["observation"].tolist() == pytest.approx(
            game.observation_tensor(game.observe(state, seat))
        )
        env.step(chooser.choice(codes))
        steps += 1
    assert steps > 0
    assert not env.agents
    return final_rewards, final_infos


@pytest.mark.parametrize(("game", "players", "preset"), TABLES)
@pytest.mark.slow
def test_a_random_match_masks_the_legal_set_and_ends_for_everyone(
    game: AnyGame, players: int, preset: str
) -> None:
    env = pettingzoo_env(game.name, preset=preset, players=players)
    rewards, infos = play_out(env, seed=players)
    agents = [f"player_{s}" for s in range(players)]
    assert sorted(rewards) == agents
    result = game.result(unwrapped(env).match_state)
    assert result is not None
    expected = rank_rewards(tuple(result.ranks))
    assert [rewards[a] for a in agents] == pytest.approx(expected)
    assert sum(rewards.values()) == pytest.approx(0)
    assert [infos[a]["rank"] for a in agents] == list(result.ranks)


@pytest.mark.parametrize("game", [pytest.param(g, id=g.name) for g in GAMES])
def test_illegal_and_malformed_actions_raise_and_change_nothing(game: AnyGame) -> None:
    env = raw_env(game.name)
    env.reset(seed=3)
    agent = env.agent_selection
    before = game.state_to_json(env.match_state)
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    for bad in (illegal, -1, mask.size, None, 1.5, "0", True):
        with pytest.raises(ValueError, match=agent):
            env.step(bad)
    assert game.state_to_json(env.match_state) == before
    assert env.agent_selection == agent
    env.step(np.int64(np.flatnonzero(mask)[0]))  # NumPy integers are fine


def test_terminated_agents_take_only_none() -> None:
    env = raw_env(GAMES[0].name)
    env.reset(seed=0)
    chooser = random.Random(0)
    while not env.terminations[env.agent_selection]:
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(chooser.choice(np.flatnonzero(mask).tolist()))
    with pytest.raises(ValueError, match="None"):
        env.step(0)
    for _ in range(len(env.possible_agents)):
        env.step(None)
    assert env.agents == []


def test_seeds_replay_and_unseeded_resets_deal_new_matches() -> None:
    game = GAMES[0]
    env = raw_env(game.name)
    env.reset(seed=5)
    first = game.state_to_json(env.match_state)
    env.reset()
    second = game.state_to_json(env.match_state)
    env.reset(seed=np.int64(5))
    assert game.state_to_json(env.match_state) == first
    assert second != first


@pytest.mark.parametrize(
    ("ranks", "rewards"),
    [
        ((1, 2), [1.0, -1.0]),
        ((2, 1, 3), [0.0, 1.0, -1.0]),
        ((1, 1, 3), [0.5, 0.5, -1.0]),
        ((1, 1, 2), [0.5, 0.5, -1.0]),  # dense ranks read the same
        ((1, 1), [0.0, 0.0]),
        ((3, 1, 2, 3), [-2 / 3, 1.0, 1 / 3, -2 / 3]),
    ],
)
def test_rank_rewards(ranks: tuple[int, ...], rewards: list[float]) -> None:
    assert rank_rewards(ranks) == pytest.approx(rewards)


def test_spaces_options_and_rendering() -> None:
    game = GAMES[0]
    players, preset = game.check_tables[0]
    env = raw_env(game.name, preset=preset, players=players, render_mode="ansi")
    config = game.make_config(players, preset)
    assert env.config == config
    assert env.possible_agents == [f"player_{s}" for s in range(players)]
    space = env.observation_space("player_0")
    assert space["observation"].shape == (game.observation_tensor_size(config),)
    assert space["action_mask"].shape == (game.num_distinct_actions(config),)
    assert env.action_space("player_1").n == game.num_distinct_actions(config)
    env.reset(seed=1)
    first = env.render()
    assert isinstance(first, str)
    assert first
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    assert env.render() not in ("", first)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(game.name, render_mode="rgb_array")
    with pytest.raises(InvalidOptionsError):
        raw_env(game.name, players=max(game.table_sizes) + 1)
