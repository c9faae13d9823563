"""The joint model under every leaderboard: its arithmetic, and that its figures say what
is true on fields whose order is known (simulated from the model itself here; the real
game's fields are measured by scripts/bench/rating_truth.py, docs/RATINGS.md)."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.league.intervals import rank_intervals
from arena.league.joint import Outcomes, fit, ranked, shortest_rank_runs
from arena.store.outcomes import outcomes_of

ranks_of_a_match = st.lists(st.integers(min_value=1, max_value=4), min_size=2, max_size=5).map(
    lambda ranks: {f"bot{i}": r for i, r in enumerate(ranks)}
)


def plackett_luce(
    rng: random.Random, strengths: dict[str, float], table: list[str]
) -> dict[str, int]:
    """A ranking drawn from the Plackett-Luce model (best first, no ties)."""
    left, ranks = list(table), dict[str, int]()
    while left:
        weights = [math.exp(strengths[b]) for b in left]
        pick = rng.choices(left, weights)[0]
        ranks[pick] = len(ranks) + 1
        left.remove(pick)
    return ranks


def test_a_match_is_its_choice_sets_best_first() -> None:
    assert outcomes_of({"a": 2, "b": 1, "c": 3}) == [
        (("a", "b", "c"), ("b",)),
        (("a", "c"), ("a",)),
    ]


def test_a_tie_is_chosen_together_and_forfeits_share_the_last_place() -> None:
    # b and c tie for first; d and e forfeited (both last): chosen together, from
    # themselves, so the model learns nothing of their order.
    assert outcomes_of({"a": 3, "b": 1, "c": 1, "d": 4, "e": 4}) == [
        (("a", "b", "c", "d", "e"), ("b", "c")),
        (("a", "d", "e"), ("a",)),
        (("d", "e"), ("d", "e")),
    ]


@settings(max_examples=60, deadline=None)
@given(st.lists(ranks_of_a_match, min_size=1, max_size=8))
def test_counts_add_and_take_back_exactly(matches: list[dict[str, int]]) -> None:
    outcomes = Outcomes()
    for ranks in matches:
        outcomes.add(ranks)
    for ranks in matches[1:]:
        outcomes.add(ranks, -1)
    alone = Outcomes()
    alone.add(matches[0])
    assert outcomes == alone


@settings(max_examples=40, deadline=None)
@given(st.lists(ranks_of_a_match, min_size=1, max_size=12))
def test_p_better_is_a_probability_of_one_side(matches: list[dict[str, int]]) -> None:
    outcomes = Outcomes()
    for ranks in matches:
        outcomes.add(ranks)
    joint = fit(outcomes)
    for a, b in itertools.combinations(joint.bots, 2):
        p = joint.p_better(a, b)
        assert 0 <= p <= 1
        assert p + joint.p_better(b, a) == pytest.approx(1)
        if abs(joint.strength(a) - joint.strength(b)) > 1e-9:
            assert (p > 0.5) == (joint.strength(a) > joint.strength(b))
    order = joint.order(joint.bots)
    found = rank_intervals(joint, order)
    for position, interval in enumerate(found, start=1):
        assert 1 <= interval.rank_low <= interval.rank_high <= len(order)
        assert (interval.p_above_next is None) == (position == len(order))
    assert rank_intervals(joint, order) == found  # the same on every read


def test_a_bot_that_always_wins_is_first_but_not_infinitely_sure() -> None:
    outcomes = Outcomes()
    outcomes.add({"a": 1, "b": 2})
    joint = fit(outcomes)
    assert joint.strength("a") > 0 > joint.strength("b")
    assert 0.5 < joint.p_better("a", "b") < 0.9  # one match is one match


def test_a_bot_without_matches_has_the_prior() -> None:
    outcomes = Outcomes()
    outcomes.add({"a": 1, "b": 2, "c": 3})
    joint = fit(outcomes, ["a", "b", "c", "new"])
    assert joint.strength("new") == pytest.approx(0, abs=1e-9)
    assert fit(outcomes).p_better("new", "other") == 0.5


def test_shared_matches_make_a_difference_surer_than_either_skill() -> None:
    """What TrueSkill's independent beliefs lose: two bots that met often are ordered
    with more certainty than their separate uncertainties allow."""
    rng = random.Random(3)
    strengths = {"a": 0.3, "b": 0.0, "c": -2.0, "d": -2.0}
    outcomes = Outcomes()
    for _ in range(300):
        outcomes.add(plackett_luce(rng, strengths, ["a", "b", "c", "d"]))
    joint = fit(outcomes)
    i, j = joint.index("a"), joint.index("b")
    assert i is not None
    assert j is not None
    assert joint.cov[i, j] > 0
    independent = math.sqrt(joint.cov[i, i] + joint.cov[j, j])
    joint_sd = math.sqrt(joint.cov[i, i] + joint.cov[j, j] - 2 * joint.cov[i, j])
    assert joint_sd < independent


def test_rank_intervals_hold_the_truth_and_p_never_overclaims() -> None:
    """Leagues drawn from the model itself (8 bots a quarter logit apart, tables of 4,
    75 matches per bot): the 95% intervals hold the true rank 95-100% of the time, and
    neighbour pairs given p in a bin are right at least as often as p says, less 3
    points."""
    rng = random.Random(11)
    truth = [f"bot{i}" for i in range(8)]
    strengths = {b: -0.25 * i for i, b in enumerate(truth)}
    hits = total = 0
    right: list[tuple[float, bool]] = []
    for _ in range(40):
        outcomes = Outcomes()
        for _ in range(150):
            outcomes.add(plackett_luce(rng, strengths, rng.sample(truth, 4)))
        joint = fit(outcomes)
        order = joint.order(truth)
        board = ranked(joint, order)
        for bot, low, high in zip(order, board.rank_low, board.rank_high, strict=True):
            hits += low <= truth.index(bot) + 1 <= high
            total += 1
        for (a, b), p in zip(itertools.pairwise(order), board.p_above_next, strict=False):
            assert p is not None
            right.append((p, truth.index(a) < truth.index(b)))
    assert 0.95 <= hits / total <= 1.0
    for p_from, p_to in ((0.5, 0.7), (0.7, 0.9), (0.9, 1.01)):
        inside = [(p, ok) for p, ok in right if p_from <= p < p_to]
        assert len(inside) >= 30
        mean_p = sum(p for p, _ in inside) / len(inside)
        assert sum(ok for _, ok in inside) / len(inside) >= mean_p - 0.03


def test_the_order_s_probability_is_every_neighbour_at_once() -> None:
    rng = random.Random(5)
    strengths = {"a": 2.0, "b": 1.0, "c": 0.0, "d": -1.0}
    outcomes = Outcomes()
    for _ in range(200):
        outcomes.add(plackett_luce(rng, strengths, list(strengths)))
    joint = fit(outcomes)
    board = ranked(joint, ["a", "b", "c", "d"])
    pairs = [p for p in board.p_above_next if p is not None]
    assert board.p_order <= min(pairs) + 0.01
    assert ranked(joint, ["b", "a", "c", "d"]).p_order < 0.05


@settings(max_examples=30, deadline=None)
@given(st.lists(ranks_of_a_match, min_size=2, max_size=15), st.randoms(use_true_random=False))
def test_the_fit_depends_on_the_counts_not_on_their_order(
    matches: list[dict[str, int]], rng: random.Random
) -> None:
    """A resumed league is shown the same fits as an uninterrupted one: the same counts
    made in another order (or with matches added and taken back) fit to the same bits."""
    first, second = Outcomes(), Outcomes()
    for ranks in matches:
        first.add(ranks)
    shuffled = list(matches)
    rng.shuffle(shuffled)
    second.add(matches[0])
    second.add(matches[0], -1)
    for ranks in shuffled:
        second.add(ranks)
    a, b = fit(first), fit(second)
    assert a.bots == b.bots
    assert a.theta.tobytes() == b.theta.tobytes()
    assert a.cov.tobytes() == b.cov.tobytes()


def test_on_the_model_s_own_matches_the_sandwich_agrees_with_the_model() -> None:
    """The robust covariance differs from the model's only where the matches do not
    behave as the model says; on matches drawn from it, they agree."""
    rng = random.Random(9)
    strengths = {"a": 1.0, "b": 0.5, "c": 0.0, "d": -0.5, "e": -1.0}
    outcomes = Outcomes()
    for _ in range(3000):
        outcomes.add(plackett_luce(rng, strengths, rng.sample(list(strengths), 4)))
    model, sandwich = fit(outcomes), fit(outcomes, sandwich=True)
    assert model.theta.tobytes() == sandwich.theta.tobytes()
    ratio = sandwich.cov.diagonal() / model.cov.diagonal()
    assert ((ratio > 0.8) & (ratio < 1.25)).all()


def test_figures_do_not_depend_on_how_the_board_lists_the_bots() -> None:
    """Pages and filters list the same bots in other orders (equal ratings sort either
    way): each bot's interval is the same."""
    rng = random.Random(4)
    strengths = {f"b{i}": -0.2 * i for i in range(6)}
    outcomes = Outcomes()
    for _ in range(60):
        outcomes.add(plackett_luce(rng, strengths, rng.sample(list(strengths), 4)))
    joint = fit(outcomes, [*strengths, "newcomer"])
    order = [*joint.order(strengths), "newcomer"]
    swapped = [order[1], order[0], *order[2:]]
    first, second = ranked(joint, order), ranked(joint, swapped)
    by_bot = dict(zip(order, zip(first.rank_low, first.rank_high, strict=True), strict=True))
    again = dict(zip(swapped, zip(second.rank_low, second.rank_high, strict=True), strict=True))
    assert by_bot == again


def test_a_leader_first_in_96_percent_of_draws_is_shown_first_alone() -> None:
    """Equal tails would cut 2.5% from each side and show 1..2 (holding 100%); the
    shortest run holding 95% is rank 1 alone."""
    first = [[0, 1]] * 96 + [[1, 0]] * 4
    low, high, held = shortest_rank_runs(np.array(first), 0.95)
    assert (low[0], high[0], held[0]) == (1, 1, 0.96)
    assert (low[1], high[1], held[1]) == (2, 2, 0.96)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 7).flatmap(
        lambda n: st.lists(st.permutations(range(n)), min_size=1, max_size=60)
    ),
    st.sampled_from([0.5, 0.9, 0.95, 0.99]),
)
def test_rank_runs_are_the_shortest_that_hold_the_level(
    draws: list[list[int]], level: float
) -> None:
    ranks = np.array(draws)
    n = ranks.shape[1]
    low, high, held = shortest_rank_runs(ranks, level)
    for bot in range(n):
        column = ranks[:, bot]
        inside = np.mean((column >= low[bot] - 1) & (column <= high[bot] - 1))
        assert 1 <= low[bot] <= high[bot] <= n
        assert held[bot] == inside >= level - 1e-12
        width = high[bot] - low[bot]  # one rank fewer than the run
        for start in range(n - width + 1):
            shorter = np.mean((column >= start) & (column < start + width))
            assert shorter < level - 1e-12
        for start in range(n - width):  # runs as short: none holds more
            alike = np.mean((column >= start) & (column <= start + width))
            assert alike <= held[bot] + 1e-12
