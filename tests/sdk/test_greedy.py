"""GreedyPolicy clearly beats RandomPolicy at 4-player amigo tables (engine only)."""

from __future__ import annotations

import random

import pytest

from arena.games import abluxxen as ab
from arena.games.abluxxen.greedy import GreedyPolicy
from arena.policies import Policy, RandomPolicy

GAMES = 400
"""100 games with greedy in each seat (seat 0 starts and has an edge: DESIGN.md)."""
PLAYERS = 4


def play(policies: list[Policy], seed: int, preset: str = "amigo") -> tuple[int, ...]:
    """One game; the ranks by seat."""
    state = ab.new_game(ab.make_config(len(policies), preset), random.Random(seed))
    while not state.is_over:
        seat = state.deciding
        ab.apply(state, policies[seat].choose(ab.observe(state, seat)), seat)
    assert state.result is not None
    return state.result.ranks


@pytest.mark.slow
def test_greedy_beats_random() -> None:
    wins = 0.0
    greedy_ranks = 0
    random_ranks = 0
    for game in range(GAMES):
        seat = game % PLAYERS
        policies: list[Policy] = [RandomPolicy(1000 * game + s) for s in range(PLAYERS)]
        policies[seat] = GreedyPolicy(seed=game)
        ranks = play(policies, seed=game)
        if ranks[seat] == 1:
            wins += 1 / ranks.count(1)  # a shared first place counts as a share of a win
        greedy_ranks += ranks[seat]
        random_ranks += sum(ranks) - ranks[seat]
    win_rate = wins / GAMES
    greedy_mean = greedy_ranks / GAMES
    random_mean = random_ranks / (GAMES * (PLAYERS - 1))
    # With no skill difference greedy's wins would be Binomial(400, 0.25): mean 100,
    # sd 8.7. The bar of 60% (240 wins) is 16 sd above that (P(X >= 240) = 1.4e-49), yet
    # far below the measured rate (400/400 wins, mean rank 1.00 against the random seats'
    # 2.99 when this test was written), so retuning the heuristics won't make it flaky.
    assert win_rate >= 0.60, f"greedy won {win_rate:.1%} of {GAMES} games"
    # Mean rank under no skill is 2.5 for every seat; the gap between greedy's mean and
    # the random seats' would have sd ~0.075 over 400 games, so a whole rank is > 13 sd.
    assert greedy_mean + 1.0 <= random_mean, (greedy_mean, random_mean)


@pytest.mark.parametrize("preset", sorted(ab.PRESETS))
@pytest.mark.parametrize("players", [2, 3, 5])
def test_greedy_plays_every_preset_and_table_size(preset: str, players: int) -> None:
    # Duel decisions (SHADOW_PICK, pool groups) and expert ones only occur here.
    for seed in range(3):
        ranks = play([GreedyPolicy(seed=s) for s in range(players)], seed=seed, preset=preset)
        assert sorted(ranks)[0] == 1
