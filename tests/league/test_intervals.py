"""Rank intervals and the probability that a bot is above the next: their arithmetic,
and that they say what is true on ladders whose order is known."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.league.intervals import calibration, p_better, rank_intervals, unresolved
from arena.league.rating import Skill

skills = st.builds(
    Skill,
    mu=st.floats(min_value=0, max_value=50, allow_nan=False),
    sigma=st.floats(min_value=0.05, max_value=9, allow_nan=False),
)


@given(skills, skills, st.floats(min_value=1, max_value=2))
def test_p_better_is_a_probability_of_one_side(a: Skill, b: Skill, sharpen: float) -> None:
    p = p_better(a, b, sharpen)
    assert 0 <= p <= 1
    assert p + p_better(b, a, sharpen) == pytest.approx(1)
    if abs(a.mu - b.mu) > 1e-9:
        assert (p > 0.5) == (a.mu > b.mu)


@settings(max_examples=25, deadline=None)
@given(st.lists(skills, min_size=1, max_size=7))
def test_intervals_are_ranks_of_the_field(field: list[Skill]) -> None:
    order = sorted(field, key=lambda s: -s.conservative)
    names = tuple(f"bot{i}" for i in range(len(order)))
    found = rank_intervals(names, tuple(order))
    assert len(found) == len(order)
    for position, interval in enumerate(found, start=1):
        assert 1 <= interval.rank_low <= interval.rank_high <= len(order)
        assert (interval.p_above_next is None) == (position == len(order))
    assert rank_intervals(names, tuple(order)) == found  # the same on every read


def test_separated_bots_have_exact_ranks_and_certain_neighbours() -> None:
    field = tuple(Skill(40 - 5 * i, 0.5) for i in range(5))
    found = rank_intervals(tuple("abcde"), field)
    assert [(iv.rank_low, iv.rank_high) for iv in found] == [(i, i) for i in range(1, 6)]
    assert all(iv.p_above_next == 1.0 for iv in found[:-1])
    assert unresolved(list(field), 0.95) == []


def test_close_bots_share_their_ranks_and_are_not_separated() -> None:
    field = (Skill(30, 1), Skill(29.8, 1), Skill(20, 0.5))
    found = rank_intervals(("a", "b", "c"), field)
    assert (found[0].rank_low, found[0].rank_high) == (1, 2)
    assert (found[1].rank_low, found[1].rank_high) == (1, 2)
    assert (found[2].rank_low, found[2].rank_high) == (3, 3)
    assert 0.5 < (found[0].p_above_next or 0) < 0.6
    assert unresolved(list(field), 0.95) == [0]


def test_a_bot_s_interval_depends_on_its_rating_not_on_the_read() -> None:
    """Draws are seeded per bot: adding a far-away bot changes nobody's figures."""
    near = (Skill(30, 2), Skill(28, 2), Skill(27, 2))
    alone = rank_intervals(("a", "b", "c"), near)
    with_far = rank_intervals(("a", "b", "c", "z"), (*near, Skill(-40, 1)))
    assert with_far[:2] == alone[:2]


def test_schedules_not_measured_keep_trueskill_s_own_beliefs() -> None:
    assert calibration("informative") > 1
    assert calibration("balanced") > 1
    assert calibration("random") == 1.0
