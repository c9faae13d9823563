"""The ISMCTS policy: legal actions only, blind to what its seat may not know, within
its budget, and reproducible from its seed. Its strength is a benchmark
(scripts/bench_ismcts.py, docs/BENCHMARKS.md), not a test."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from arena.games import abluxxen as ab
from arena.games import get as get_game
from arena.games.abluxxen import DecisionKind as D
from arena.games.abluxxen.greedy import GreedyPolicy
from arena.games.abluxxen.ismcts import IsmctsPolicy, rewards
from arena.games.abluxxen.state import State
from arena.policies import Policy

SMALL = 6
"""Iterations per decision where only legality and bookkeeping matter."""


def play(
    policies: list[Policy], config: ab.GameConfig, seed: int
) -> Iterator[tuple[State, int, ab.Action]]:
    """A match with checked ``apply``: each (state before, seat, action chosen)."""
    state = ab.new_game(config, random.Random(seed))
    while not state.is_over:
        seat = state.deciding
        action = policies[seat].choose(ab.observe(state, seat))
        yield state, seat, action
        ab.apply(state, action, seat)  # raises IllegalActionError on an illegal action


@pytest.mark.parametrize(
    ("players", "preset", "deals"),
    [(4, "amigo", 1), (2, "amigo", 1), (3, "amigo-expert", 2), (5, "ravensburger-2014", 1)],
)
def test_it_plays_whole_matches_with_legal_actions_only(
    players: int, preset: str, deals: int
) -> None:
    # Every decision kind occurs across these tables (the duel's SHADOW_PICK and pool
    # groups, the expert ones, several deals); ismcts sits in seat 1 beside greedy seats.
    config = ab.make_config(players, preset, deals=deals)
    policies: list[Policy] = [GreedyPolicy(s) for s in range(players)]
    policies[1] = IsmctsPolicy(3, iterations=SMALL)
    kinds = set()
    for state, seat, action in play(policies, config, seed=players):
        if seat == 1:
            assert action in ab.legal_actions(state)
            kinds.add(state.kind)
    assert D.PLAY in kinds
    assert D.DRAW in kinds


def positions(seed: int) -> list[State]:
    """Copies of every 9th state of a greedy 4-player match, whatever the decision."""
    config = ab.make_config(4, "amigo")
    greedy: list[Policy] = [GreedyPolicy(s) for s in range(4)]
    return [
        state.clone() for i, (state, _, _) in enumerate(play(greedy, config, seed)) if i % 9 == 0
    ]


def test_its_choices_do_not_depend_on_cards_its_seat_cannot_see() -> None:
    # The same observation from two worlds whose other hands and deck differ: with the
    # same seed the search must choose alike and visit alike, or it peeked.
    game = get_game("abluxxen")
    checked = 0
    for state in positions(seed=11):
        seat = state.deciding
        other = game.resample_hidden(state, seat, random.Random(checked))
        seen = ab.observe(state, seat)
        assert ab.observe(other, seat) == seen
        if len(seen.legal) < 2:
            continue
        hidden = [s for s in range(4) if s != seat]
        assert any(state.hands[s] != other.hands[s] for s in hidden) or state.deck != other.deck
        first, second = IsmctsPolicy(5, iterations=12), IsmctsPolicy(5, iterations=12)
        assert first.choose(seen) == second.choose(ab.observe(other, seat))
        assert first.last == second.last
        checked += 1
    assert checked >= 5


def test_it_runs_exactly_its_iteration_budget() -> None:
    for state in positions(seed=12)[:6]:
        obs = ab.observe(state, state.deciding)
        policy = IsmctsPolicy(1, iterations=17)
        policy.choose(obs)
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

    state = next(s for s in positions(seed=13) if len(ab.legal_actions(s)) > 1)
    obs = ab.observe(state, state.deciding)
    policy = IsmctsPolicy(1, iterations=1000, time_limit_s=3.5, clock=clock)
    action = policy.choose(obs)
    assert action in obs.legal
    # Read at the start (1.0: stop at 4.5); the first iteration always runs; the
    # readings 2.0, 3.0 and 4.0 let the second to fourth run; 5.0 stops the fifth.
    assert policy.last.iterations == 4


def test_one_seed_gives_one_match() -> None:
    config = ab.make_config(4, "amigo")

    def actions(seed: int) -> list[int]:
        policies: list[Policy] = [GreedyPolicy(s) for s in range(4)]
        policies[2] = IsmctsPolicy(seed, iterations=SMALL)
        return [action.code for _, _, action in play(policies, config, seed=9)]

    assert actions(4) == actions(4)


def test_the_reward_follows_the_final_ranks() -> None:
    config = ab.make_config(4, "amigo")
    greedy: list[Policy] = [GreedyPolicy(s) for s in range(4)]
    for seed in range(3):
        over = ab.new_game(config, random.Random(seed))
        while not over.is_over:
            seat = over.deciding
            ab.apply(over, greedy[seat].choose(ab.observe(over, seat)), seat)
        assert over.result is not None
        ranks = over.result.ranks
        got = rewards(over, deal=0)
        for seat, rank in enumerate(ranks):
            if ranks.count(rank) == 1:
                # Rank r of 4 beats 4 - r seats; only the winner gets the win's half.
                expected = 0.5 * (4 - rank) / 3 + (0.5 if rank == 1 else 0.0)
                assert got[seat] == pytest.approx(expected)


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
        IsmctsPolicy(1, **settings)  # type: ignore[arg-type]


def test_the_game_lists_it_for_in_process_seats() -> None:
    factory = get_game("abluxxen").policies["ismcts"]
    policy = factory(1)
    assert isinstance(policy, IsmctsPolicy)
