"""Fluxx's greedy policy knows the Goals: it plays the Keeper that wins, never the Goal
that hands another seat the game, plays a Keeper limit against a leader, and beats
random play (scripts/bench/greedy_vs_random.py measures by how much, docs/BENCHMARKS.md)."""

from __future__ import annotations

import random

import pytest

from arena.games import fluxx as fx
from arena.games.fluxx.greedy import GreedyPolicy
from arena.policies import RandomPolicy

from .helpers import c, layout


def choice(state: fx.State) -> fx.Action:
    return GreedyPolicy(1).choose(fx.observe(state, state.deciding))


def test_it_plays_the_keeper_that_meets_the_goal() -> None:
    state = layout(
        players=3,
        hands={0: ["milk", "bread", "jackpot"]},
        tables={0: ["cookies"]},
        goals=["milk_and_cookies"],
        start="play",
    )
    assert choice(state) is fx.play(c("milk"))


def test_it_never_plays_a_goal_another_seat_meets() -> None:
    state = layout(
        players=3,
        hands={0: ["night_and_day", "toast", "time"]},
        tables={1: ["bread", "toaster"], 2: ["sun", "moon"]},
        goals=["hippyism"],
        start="play",
    )
    played = choice(state)
    assert played not in (fx.play(c("night_and_day")), fx.play(c("toast")))


def test_it_plays_the_goal_it_meets() -> None:
    state = layout(
        players=4,
        hands={0: ["dreamland", "rocket_science", "love"]},
        tables={0: ["rocket", "brain"], 1: ["sleep", "dreams"]},
        goals=["hippyism"],
        start="play",
    )
    assert choice(state) is fx.play(c("rocket_science"))


def test_it_plays_a_keeper_limit_against_the_leader() -> None:
    """Seat 1 holds both Keepers of the Goal in play among many: a Keeper limit makes it
    discard down, which the policy prefers to a plain Keeper of no Goal."""
    state = layout(
        players=3,
        hands={0: ["keeper_limit_2", "television"]},
        tables={1: ["sun", "moon", "eye", "cosmos", "party"]},
        goals=["star_gazing"],
        start="play",
    )
    assert choice(state) is fx.play(c("keeper_limit_2"))


@pytest.mark.slow
def test_it_wins_most_two_player_games_against_random() -> None:
    wins = 0
    matches = 40
    for m in range(matches):
        state = fx.new_game(fx.make_config(2), random.Random(m))
        seats: list[GreedyPolicy | RandomPolicy] = [GreedyPolicy(m), RandomPolicy(m)]
        if m % 2:
            seats.reverse()
        while not state.is_over:
            seat = state.deciding
            fx.apply(state, seats[seat].choose(fx.observe(state, seat)), seat)
        assert state.result is not None
        wins += state.result.winner == m % 2
    assert wins >= 0.65 * matches  # 82% ± 1.2% over 1,000 matches (docs/BENCHMARKS.md)
