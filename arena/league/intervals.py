"""How sure a leaderboard is: each bot's 95% rank interval, and for each pair of
neighbours the probability that the upper one is the better bot.

Both come from the joint model of the ladder's whole history (joint.py): its posterior
is sampled, each draw ranked, and each bot's interval is the shortest run of ranks
that holds 95% of its draws; ``p_above_next`` is the posterior probability of the
neighbours' order, in closed form. The board's order is TrueSkill's (mu - 3 sigma, the
live rating); where the joint model orders two neighbours the other way, their
``p_above_next`` is below 0.5 and every view says so (``leaderboard.disagreements``).
Measured on simulated leagues of known order in docs/RATINGS.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.store import Store

from .joint import LEVEL, JointFit, Outcomes, fit, ranked


@dataclass(frozen=True, slots=True)
class RankInterval:
    """One bot's place on a leaderboard, with its uncertainty."""

    rank_low: int
    """The best rank inside the 95% interval (1 = first)."""
    rank_high: int
    """The worst rank inside the 95% interval."""
    p_above_next: float | None
    """Probability that this bot is better than the one below it (None: the last)."""


def ladder_joint(store: Store, ladder: str, start: JointFit | None = None) -> JointFit:
    """The joint model of a ladder, fitted to its stored counts (one row per distinct
    choice set, never per match); ``start``: an earlier fit of it (fewer steps)."""
    outcomes = Outcomes()
    outcomes.add_counts(store.outcome_counts(ladder))
    return fit(outcomes, start=start)


def rank_intervals(joint: JointFit, order: Sequence[str]) -> tuple[RankInterval, ...]:
    """The rank interval and ``p_above_next`` of each bot of ``order`` (the board, best
    first; every bot of it, since any may be better than the leader), in that order."""
    found = ranked(joint, order, LEVEL)
    return tuple(
        RankInterval(low, high, after)
        for low, high, after in zip(
            found.rank_low, found.rank_high, found.p_above_next, strict=True
        )
    )
