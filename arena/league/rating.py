"""TrueSkill ratings as pure functions (the ``trueskill`` package, free-for-all).

A match's ranks (1 = best, ties share, forfeited seats last) update every seat's
(mu, sigma); nothing here keeps global state.

Defaults, and why:
* ``tau = 0``: a league of fixed bots. Measured on this game (shared/DESIGN.md),
  TrueSkill's default dynamics (25/300 per match) keep every sigma near 0.68 for ever,
  so a field of unchanging bots never settles; with tau = 0 it settles after 60-75
  matches per bot. A ladder whose bots change (``arena serve``) uses a small tau.
* ``draw_probability``: the chance that two equal players tie. Each game measures its
  own tie rate and says what its ladders should use (``Game.rating_defaults``, e.g.
  ``arena/games/abluxxen/game.py``); ``DEFAULT_DRAW_PROBABILITY`` is only the default
  of a bare ``RatingModel``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import trueskill

MU: Final = 25.0
SIGMA: Final = MU / 3
BETA: Final = MU / 6
LEAGUE_TAU: Final = 0.0
LADDER_TAU: Final = MU / 3000
DEFAULT_DRAW_PROBABILITY: Final = 0.01
MAX_TAU: Final = SIGMA
"""The largest dynamics factor a ladder may use: more than a new player's whole
uncertainty each match is no rating (and TrueSkill's arithmetic breaks down)."""
MAX_DRAW_PROBABILITY: Final = 0.9
"""The largest draw probability a ladder may use (nearer 1, TrueSkill fails)."""


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating: mean and uncertainty."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the leaderboard's sort key."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatingModel:
    """The TrueSkill environment of one ladder."""

    tau: float = LEAGUE_TAU
    draw_probability: float = DEFAULT_DRAW_PROBABILITY

    def _env(self) -> trueskill.TrueSkill:
        return trueskill.TrueSkill(
            mu=MU,
            sigma=SIGMA,
            beta=BETA,
            tau=self.tau,
            draw_probability=self.draw_probability,
        )


def rate(model: RatingModel, skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """The ratings after one free-for-all match; ``ranks[i]`` is seat i's rank (lower is
    better, equal ranks are a tie). The output has the shape of the input."""
    if len(skills) != len(ranks) or len(skills) < 2:
        raise ValueError("a match needs at least two seats, each with a rank")
    env = model._env()
    groups = [(env.create_rating(s.mu, s.sigma),) for s in skills]
    rated = env.rate(groups, ranks=list(ranks))
    return [Skill(group[0].mu, group[0].sigma) for group in rated]


def quality(model: RatingModel, skills: Sequence[Skill]) -> float:
    """TrueSkill's match quality (draw probability of the table; higher = closer)."""
    env = model._env()
    return float(env.quality([(env.create_rating(s.mu, s.sigma),) for s in skills]))
