"""The rating update: the trueskill package's published examples, ties, forfeits."""

from __future__ import annotations

import pytest

from arena.games import get as get_game
from arena.league.rating import RatingModel, Skill, quality, rate
from arena.referee.match import final_ranks

# trueskill.org's documented environment for its examples: the package defaults.
PACKAGE_DEFAULTS = RatingModel(tau=25 / 300, draw_probability=0.10)


def test_published_one_on_one_win() -> None:
    """trueskill docs: rate_1vs1(Rating(), Rating()) -> 29.396/7.171 and 20.604/7.171."""
    winner, loser = rate(PACKAGE_DEFAULTS, [Skill(), Skill()], [0, 1])
    assert winner.mu == pytest.approx(29.396, abs=1e-3)
    assert winner.sigma == pytest.approx(7.171, abs=1e-3)
    assert loser.mu == pytest.approx(20.604, abs=1e-3)
    assert loser.sigma == pytest.approx(7.171, abs=1e-3)


def test_published_one_on_one_draw() -> None:
    """trueskill docs: a drawn 1 vs 1 -> both 25.000/6.458."""
    a, b = rate(PACKAGE_DEFAULTS, [Skill(), Skill()], [0, 0])
    for skill in (a, b):
        assert skill.mu == pytest.approx(25.0, abs=1e-3)
        assert skill.sigma == pytest.approx(6.458, abs=1e-3)


def test_output_has_the_shape_of_the_input_and_orders_by_rank() -> None:
    model = RatingModel()
    after = rate(model, [Skill()] * 4, [3, 1, 4, 2])
    assert len(after) == 4
    by_rank = sorted(zip([3, 1, 4, 2], after, strict=True))
    mus = [skill.mu for _, skill in by_rank]
    assert mus == sorted(mus, reverse=True)
    assert all(s.sigma < Skill().sigma for s in after)


def test_tied_seats_with_equal_ratings_get_equal_ratings() -> None:
    after = rate(RatingModel(), [Skill()] * 4, [1, 2, 2, 4])
    # Equal up to the factor graph's approximation.
    assert after[1].mu == pytest.approx(after[2].mu, abs=1e-3)
    assert after[1].sigma == pytest.approx(after[2].sigma, abs=1e-3)
    assert after[0].mu > after[1].mu > after[3].mu


def test_a_forfeited_winner_by_score_still_ranks_last() -> None:
    game_ranks = [1, 2, 3, 4]
    ranks = final_ranks(game_ranks, [True, False, False, False])
    after = rate(RatingModel(), [Skill()] * 4, ranks)
    assert min(after, key=lambda s: s.mu) is after[0]


@pytest.mark.slow
def test_tau_zero_lets_sigma_settle() -> None:
    """With tau = 0 a repeated result keeps shrinking sigma; with the package's default
    tau sigma stops near a floor (shared/DESIGN.md: about 0.68 per bot)."""
    fixed = [Skill()] * 4
    moving = [Skill()] * 4
    for match in range(300):
        ranks = [1 + (seat + match) % 4 for seat in range(4)]  # everyone equally strong
        fixed = rate(RatingModel(tau=0.0), fixed, ranks)
        moving = rate(RatingModel(tau=25 / 300), moving, ranks)
    assert max(s.sigma for s in fixed) < 0.5
    assert min(s.sigma for s in moving) > 0.6


def test_draw_probability_follows_the_tiebreak() -> None:
    game = get_game("abluxxen")
    for players in game.table_sizes:  # the values of every Abluxxen ladder so far
        assert game.rating_defaults("amigo", players).draw_probability == pytest.approx(0.01)
        shared = game.rating_defaults("ravensburger-2014", players).draw_probability
        assert shared == pytest.approx(0.06)


def test_fluxx_draw_probability_follows_the_table_size() -> None:
    """Fluxx ranks the winner 1st and all others tied 2nd: n-2 of the n-1 adjacent pairs
    tie, so the draw probability grows with the table (and stays usable at 2 seats)."""
    game = get_game("fluxx")
    draws = [game.rating_defaults("pegasus-2011", n).draw_probability for n in game.table_sizes]
    assert draws == sorted(draws)
    assert draws[0] == pytest.approx(0.01)
    assert draws[2] == pytest.approx(2 / 3, abs=0.01)  # 4 seats
    assert draws[-1] == pytest.approx(0.8, abs=0.01)  # 6 seats


def test_quality_prefers_close_tables() -> None:
    model = RatingModel()
    close = quality(model, [Skill(25, 2), Skill(25.5, 2), Skill(24.5, 2)])
    far = quality(model, [Skill(10, 2), Skill(25, 2), Skill(40, 2)])
    assert close > far


def test_a_match_needs_two_ranked_seats() -> None:
    with pytest.raises(ValueError, match="two seats"):
        rate(RatingModel(), [Skill()], [1])
