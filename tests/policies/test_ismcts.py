"""The generic ISMCTS policy, on every game that can determinize: legal actions only,
blind to what its seat may not know, within its budget, reproducible from its seed, and
clearly stronger than random. How strong it is against greedy is a benchmark
(scripts/bench/bench_ismcts.py, docs/BENCHMARKS.md), not a test."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest

from arena.games import AnyGame, all_games
from arena.policies import Policy, RandomPolicy
from arena.policies.ismcts import IsmctsPolicy, SearchFactory, rewards

SMALL = 6
"""Iterations per decision where only legality and bookkeeping matter."""

GAMES = [game for game in all_games() if "ismcts" in game.policies]


def ids(game: AnyGame) -> str:
    return game.name


def deciding(game: AnyGame, state: Any) -> int:
    seat = game.deciding(state)
    assert seat is not None
    return seat


def play(game: AnyGame, policies: list[Policy], config: Any, seed: int) -> Iterator[Any]:
    """A match with checked ``apply``: each (state before, seat, action chosen)."""
    state = game.new_match(config, random.Random(seed))
    while (seat := game.deciding(state)) is not None:
        action = policies[seat].choose(game.observe(state, seat))
        yield state, seat, action
        game.apply(state, action, seat)  # raises ValueError on an illegal action


def greedy_seats(game: AnyGame, players: int) -> list[Policy]:
    return [game.policies["greedy"](s) for s in range(players)]


def test_every_game_that_determinizes_offers_it() -> None:
    assert {game.name for game in GAMES} >= {"abluxxen", "fluxx"}
    for game in GAMES:
        factory = game.policies["ismcts"]
        assert getattr(factory, "cpu_bound", False), "a search decides in a policy process"
        # Policy processes build it from a pickled factory.
        rebuilt = pickle.loads(pickle.dumps(factory))
        policy = rebuilt(1, iterations=3)
        assert isinstance(policy, IsmctsPolicy)
        assert policy.game is game
        assert policy.iterations == 3


@pytest.mark.parametrize("game", GAMES, ids=ids)
@pytest.mark.parametrize("players", [2, 4, 5])
def test_it_plays_whole_matches_with_legal_actions_only(game: AnyGame, players: int) -> None:
    # The search sits in seat 1 beside greedy seats; ``play`` applies with the check.
    config = game.make_config(players)
    policies = greedy_seats(game, players)
    policies[1] = IsmctsPolicy(game, 3, iterations=SMALL)
    searched = 0
    for state, seat, action in play(game, policies, config, seed=players):
        if seat == 1:
            assert action in game.observe(state, seat).legal
            searched += 1
    assert searched > 0


def positions(game: AnyGame, seed: int, every: int = 9) -> list[Any]:
    """Copies of every ``every``-th state of a greedy 4-player match."""
    config = game.make_config(4)
    out = []
    for i, (state, _, _) in enumerate(play(game, greedy_seats(game, 4), config, seed)):
        if i % every == 0:
            out.append(game.state_from_json(game.state_to_json(state)))
    return out


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_its_choices_do_not_depend_on_what_its_seat_cannot_see(game: AnyGame) -> None:
    # The same observation from two worlds whose hidden parts differ: with the same seed
    # the search must choose alike and visit alike, or it peeked.
    checked = 0
    for state in positions(game, seed=11, every=5):
        seat = game.deciding(state)
        assert seat is not None
        other = game.resample_hidden(state, seat, random.Random(checked))
        seen = game.observe(state, seat)
        assert game.observe(other, seat) == seen
        if len(seen.legal) < 2:
            continue
        assert game.state_to_json(other) != game.state_to_json(state), "nothing resampled"
        first = IsmctsPolicy(game, 5, iterations=12)
        second = IsmctsPolicy(game, 5, iterations=12)
        assert first.choose(seen) == second.choose(game.observe(other, seat))
        assert first.last == second.last
        checked += 1
        if checked == 6:
            break
    assert checked >= 3


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_it_runs_exactly_its_iteration_budget(game: AnyGame) -> None:
    for state in positions(game, seed=12)[:6]:
        obs = game.observe(state, deciding(game, state))
        policy = IsmctsPolicy(game, 1, iterations=17)
        assert policy.choose(obs) in obs.legal
        if len(obs.legal) == 1:
            assert policy.last.iterations == 0, "a forced decision is not searched"
            continue
        assert policy.last.iterations == 17
        # Every iteration adds one visit to exactly one root action.
        assert sum(policy.last.visits.values()) == 17


def test_a_time_limit_cuts_the_search_short_on_its_clock() -> None:
    now = [0.0]

    def clock() -> float:  # a fake clock: each reading is one second later
        now[0] += 1.0
        return now[0]

    game = GAMES[0]
    state = next(
        s for s in positions(game, seed=13) if len(game.observe(s, deciding(game, s)).legal) > 1
    )
    obs = game.observe(state, deciding(game, state))
    policy = IsmctsPolicy(game, 1, iterations=1000, time_limit_s=3.5, clock=clock)
    assert policy.choose(obs) in obs.legal
    # Read at the start (1.0: stop at 4.5); the first iteration always runs; the
    # readings 2.0, 3.0 and 4.0 let the second to fourth run; 5.0 stops the fifth.
    assert policy.last.iterations == 4


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_one_seed_gives_one_match(game: AnyGame) -> None:
    config = game.make_config(4)

    def actions(seed: int) -> list[int]:
        policies = greedy_seats(game, 4)
        policies[2] = IsmctsPolicy(game, seed, iterations=SMALL)
        return [game.action_code(a) for _, _, a in play(game, policies, config, seed=9)]

    assert actions(4) == actions(4)


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_the_reward_follows_the_final_ranks(game: AnyGame) -> None:
    config = game.make_config(4)
    for seed in range(3):
        moments = list(play(game, greedy_seats(game, 4), config, seed))
        state = moments[-1][0]  # one state, advanced in place: now the final one
        result = game.result(state)
        assert result is not None
        ranks = result.ranks
        got = rewards(game, state)
        for seat, rank in enumerate(ranks):
            # Seats ranked below count 1 each, tied seats (itself aside) half each.
            beaten = sum(1.0 if r > rank else 0.5 if r == rank else 0.0 for r in ranks) - 0.5
            expected = 0.5 * beaten / 3 + (0.5 if beaten == 3 else 0.0)
            assert got[seat] == pytest.approx(expected)


@pytest.mark.parametrize("game", GAMES, ids=ids)
@pytest.mark.slow
def test_it_beats_random_seats_clearly(game: AnyGame) -> None:
    # Seeded, so the outcome is fixed: a small budget wins nearly all of a few
    # two-player matches against random (whose own share would be half). At four seats
    # Fluxx is too much a game of luck for a few matches to tell (greedy itself won 3 of
    # 8 against three random seats).
    config = game.make_config(2)
    wins = 0.0
    matches = 6
    for index in range(matches):
        seat = index % 2
        policies: list[Policy] = [RandomPolicy(10 * index + s) for s in range(2)]
        policies[seat] = IsmctsPolicy(game, index, iterations=20)
        state = game.new_match(config, random.Random(100 + index))
        while (seat_now := game.deciding(state)) is not None:
            game.apply_legal(state, policies[seat_now].choose(game.observe(state, seat_now)))
        result = game.result(state)
        assert result is not None
        if result.ranks[seat] == 1:
            wins += 1 / result.ranks.count(1)
    assert wins >= 5


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"iterations": 0}, "at least one iteration"),
        ({"time_limit_s": 0.0}, "time limit must be positive"),
        ({"rollout_turns": -1}, "cannot run -1 turns"),
    ],
)
def test_bad_budgets_are_refused_in_plain_words(settings: dict[str, float], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        SearchFactory(GAMES[0].name)(1, **settings)
