"""The joint model under every leaderboard: a Plackett-Luce model of every rated match
of a ladder, fitted to the whole history at once.

Why: TrueSkill filters one match at a time and keeps one independent belief per bot, so
it forgets what two bots' shared matches say about their difference; how wrong its
intervals are then depends on who met whom (docs/RATINGS.md measures it). This model
keeps the joint posterior of all skills, so the uncertainty of a difference is its own.

The model. Each bot has a log-strength ``theta``; a match's ranking is built best first,
each place going to bot i of those still unplaced (the *choice set* R) with probability
exp(theta_i) / sum over R of exp(theta_j). Seats that tie (equal ranks: a tie, or
forfeits, all ranked last) are placed together by Breslow's rule (each of the d tied
bots chosen from the same set R), as survival models treat tied times. A normal prior
N(0, s^2) on each theta makes the fit proper from the first match, with the field's
spread s estimated from the ladder itself (empirical Bayes: MacKay's fixed point for
the evidence, beside Newton's method); the fit is the posterior's mode and its
covariance the inverse of the log-posterior's curvature there (the Laplace
approximation).

Sufficient statistics. The log-likelihood is sum_i chosen_i theta_i - sum_R n_R log
sum_{j in R} exp(theta_j): it needs only how often each bot was chosen and how often
each choice set occurred, never the matches themselves. ``Outcomes`` keeps them as
counts of (choice set, chosen bots) pairs: adding a match is a few dictionary updates,
and a refit after a match rereads no history (the store keeps the same counts,
committed with each match's ratings).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from arena.store.outcomes import Outcome, outcomes_of

if TYPE_CHECKING:
    import numpy as np
# numpy is imported where the model computes, not here: every `arena` command imports
# the leaderboard, and most never fit (numpy's import is about 130 ms).

PRIOR_SD: Final = 1.0
"""Where the field's spread starts before the first match (a bot 1 logit above another
finishes ahead of it 73% of the time). The spread is then estimated from the ladder's
own matches (empirical Bayes, ``fit``): a fixed prior too wide for a close field makes
its differences look surer than they are, and too narrow for a clear one, less sure."""
MIN_SPREAD: Final = 0.01
"""The least spread: a field of equal bots (every skill alike, every order a coin toss)."""
MAX_SPREAD: Final = 5.0
"""The most: a field where the best finishes ahead of the worst e^10 times to one."""
LEVEL: Final = 0.95
"""The rank intervals' probability."""
SAMPLES: Final = 4000
"""Posterior draws for rank intervals and the order's probability: the quantiles'
error is about 0.35 percentage points."""
MAX_DRAWS: Final = 400_000
"""Draws (bots x samples) per leaderboard at most: a larger ladder gets fewer samples
(never fewer than ``MIN_SAMPLES``). The draws are numpy's: 400,000 of 200 bots cost
about 90 ms with their ranking (scripts/bench/bench_joint.py)."""
MIN_SAMPLES: Final = 500
MAX_STEPS: Final = 500
TOLERANCE: Final = 1e-7
SPREAD_TOLERANCE: Final = 1e-4
"""The spread is a property of the field, not of a bot: a ten-thousandth of a logit moves
no figure a leaderboard shows."""


@dataclass(slots=True)
class Outcomes:
    """A ladder's sufficient statistics: how often each (choice set, chosen) pair
    occurred."""

    counts: dict[Outcome, int] = field(default_factory=dict)

    def add(self, ranks: Mapping[str, int], times: int = 1) -> None:
        """Count one rated match (``times`` = -1 takes it back out)."""
        for outcome in outcomes_of(ranks):
            total = self.counts.get(outcome, 0) + times
            if total:
                self.counts[outcome] = total
            else:
                del self.counts[outcome]

    def add_counts(self, rows: Iterable[tuple[Outcome, int]]) -> None:
        """Add stored counts (``Store.outcome_counts``)."""
        for outcome, count in rows:
            self.counts[outcome] = self.counts.get(outcome, 0) + count

    def bots(self) -> set[str]:
        return {bot for (members, _), _ in self.counts.items() for bot in members}


@dataclass(frozen=True, slots=True)
class JointFit:
    """The posterior of a ladder's skills: the mode and its covariance, by bot."""

    bots: tuple[str, ...]
    theta: np.ndarray
    """Posterior mode of each bot's log-strength (mean 0 over the prior)."""
    cov: np.ndarray
    """Posterior covariance (Laplace)."""
    where: Mapping[str, int] = field(default_factory=dict)
    """Each bot's position in ``bots``."""
    _mean: list[float] = field(default_factory=list)
    _cov: list[list[float]] = field(default_factory=list)
    """``theta`` and ``cov`` as Python floats: the schedule asks ``p_better`` of many
    pairs per table, and indexing numpy arrays one number at a time is slow."""
    spread: float = PRIOR_SD
    """The field's spread of log-strengths, estimated with the skills: the prior of a
    bot without matches."""

    @staticmethod
    def empty() -> JointFit:
        """The prior alone: every bot's skill unknown and alike."""
        import numpy as np

        return JointFit((), np.zeros(0), np.zeros((0, 0)))

    @staticmethod
    def of(beliefs: Mapping[str, tuple[float, float]]) -> JointFit:
        """A fit with independent beliefs (mean, standard deviation) by bot: for
        tests and tools that set skills by hand."""
        import numpy as np

        names = tuple(sorted(beliefs))
        theta = np.array([beliefs[b][0] for b in names])
        cov = np.diag([beliefs[b][1] ** 2 for b in names])
        where = {b: i for i, b in enumerate(names)}
        return JointFit(names, theta, cov, where, theta.tolist(), cov.tolist())

    def index(self, bot: str) -> int | None:
        return self.where.get(bot)

    def strength(self, bot: str) -> float:
        """A bot's log-strength (0, the prior's, for a bot without rated matches)."""
        i = self.where.get(bot)
        return 0.0 if i is None else self._mean[i]

    def variance(self, bot: str) -> float:
        """The posterior variance of a bot's log-strength."""
        i = self.where.get(bot)
        return self.spread**2 if i is None else self._cov[i][i]

    def p_better(self, upper: str, lower: str) -> float:
        """Posterior probability that ``upper`` is the stronger bot."""
        i, j = self.where.get(upper), self.where.get(lower)
        mean = self.strength(upper) - self.strength(lower)
        var = self.variance(upper) + self.variance(lower)
        if i is not None and j is not None:
            var -= 2 * self._cov[i][j]
        if var <= 0:
            return 0.5 if mean == 0 else float(mean > 0)
        return 0.5 * math.erfc(-mean / math.sqrt(2 * var))

    def order(self, bots: Iterable[str]) -> list[str]:
        """``bots`` strongest first (ties by name)."""
        return sorted(bots, key=lambda b: (-self.strength(b), b))


def fit(
    outcomes: Outcomes,
    bots: Iterable[str] = (),
    *,
    start: JointFit | None = None,
    sandwich: bool = False,
) -> JointFit:
    """The posterior of every bot in ``outcomes`` (and ``bots``, which may have none);
    ``start``: an earlier fit of the same ladder, where the iteration starts (a refit
    after a match then takes a few steps). The result depends on the counts alone, not
    on their history or on ``start`` (beyond ``TOLERANCE``): the counts are read in a
    fixed order, so a resumed league is shown the same fits as an uninterrupted one.

    ``sandwich``: the covariance by the robust (sandwich) rule instead of the model's
    own, for scripts/bench/rating_truth.py's comparison (docs/RATINGS.md: sharper, and too
    sure after a few matches, so leaderboards keep the model's)."""
    import numpy as np

    names = tuple(sorted(set(bots) | outcomes.bots()))
    n = len(names)
    if n == 0:
        return JointFit.empty()
    where = {name: i for i, name in enumerate(names)}
    chosen = np.zeros(n)
    by_size: dict[int, tuple[list[list[int]], list[list[float]], list[float]]] = {}
    for (members, picked), count in outcomes.counts.items():
        for bot in picked:
            chosen[where[bot]] += count  # whole numbers: exact in any order
        listed, marks, counted = by_size.setdefault(len(members), ([], [], []))
        listed.append([where[b] for b in members])
        marks.append([float(b in picked) for b in members])
        counted.append(count)
    blocks = [_Block.of(*rows, n) for _, rows in sorted(by_size.items())]
    theta = np.zeros(n)
    spread = PRIOR_SD
    if start is not None:
        theta = np.array([start.strength(b) for b in names])
        spread = start.spread
    for _ in range(MAX_STEPS):
        gradient, hessian = _curvature(theta, chosen, blocks, 1 / spread**2)
        step = np.linalg.solve(hessian, gradient)
        theta += step
        # The field's spread, by MacKay's fixed point for the evidence: the prior's
        # variance is the skills' sum of squares over the number of skills the matches
        # determine (each counts 1 - its posterior variance / the prior's). It reaches
        # the same spread as expectation-maximization, in a few steps where EM crawls
        # (a field of equal bots, whose spread goes to nothing, took it hundreds).
        determined = n - float(np.trace(np.linalg.inv(hessian))) / spread**2
        squares = float(theta @ theta)
        wanted = math.sqrt(squares / determined) if determined > 1e-9 else MIN_SPREAD
        wanted = min(max(wanted, MIN_SPREAD), MAX_SPREAD)
        moved, spread = wanted - spread, wanted
        if float(np.max(np.abs(step))) < TOLERANCE and abs(moved) < SPREAD_TOLERANCE:
            break
    _, hessian = _curvature(theta, chosen, blocks, 1 / spread**2)
    cov = np.linalg.inv(hessian)
    if sandwich:
        # The curvature's inverse around the scores' own spread: what the matches show
        # rather than what the model expects of them.
        meat = _meat(theta, blocks) + np.eye(n) / spread**2
        cov = cov @ meat @ cov
    return JointFit(names, theta, cov, where, theta.tolist(), cov.tolist(), spread)


@dataclass(frozen=True, slots=True)
class _Block:
    """The (choice set, chosen) rows of one set size, as arrays: each set's bots, which
    of them were chosen (1) or not (0), how often, the weight of the set in the
    likelihood (count x chosen), and the flat index of every ordered pair of its bots in
    an n x n matrix."""

    sets: np.ndarray
    picked: np.ndarray
    counts: np.ndarray
    weights: np.ndarray
    pairs: np.ndarray

    @staticmethod
    def of(
        listed: list[list[int]], marks: list[list[float]], counted: list[float], n: int
    ) -> _Block:
        """The block of these rows, in a fixed order (by their bots, what was chosen,
        then count), so that the fit's float sums do not depend on the order the counts
        were made in."""
        import numpy as np

        sets = np.asarray(listed, dtype=np.intp)
        picked = np.asarray(marks, dtype=float)
        counts = np.asarray(counted, dtype=float)
        order = np.lexsort((counts, *picked.T[::-1], *sets.T[::-1]))
        sets, picked, counts = sets[order], picked[order], counts[order]
        pairs = (sets[:, :, None] * n + sets[:, None, :]).ravel()
        return _Block(sets, picked, counts, counts * picked.sum(axis=1), pairs)


def _probabilities(theta: np.ndarray, block: _Block) -> np.ndarray:
    """Each set's choice probabilities at ``theta`` (rows of ``block.sets``). exp once
    per bot, then gathered: theta stays within a few times MAX_SPREAD of 0, far from
    exp's overflow, so no per-set shift is needed (numpy's max and sum along a short
    axis were most of a fit's time)."""
    import numpy as np

    strength = np.exp(theta)[block.sets]
    total = strength[:, 0].copy()
    for column in range(1, strength.shape[1]):
        total += strength[:, column]
    probabilities: np.ndarray = strength / total[:, None]
    return probabilities


def _meat(theta: np.ndarray, blocks: Sequence[_Block]) -> np.ndarray:
    """The sum over the rows of count x the outer product of each choice's score (the
    chosen bots' indicator less their share of the set's probabilities)."""
    import numpy as np

    n = len(theta)
    meat = np.zeros((n, n))
    for block in blocks:
        p = _probabilities(theta, block)
        score = block.picked - block.picked.sum(axis=1, keepdims=True) * p
        outer = (block.counts[:, None, None] * score[:, :, None] * score[:, None, :]).ravel()
        meat += np.bincount(block.pairs, outer, minlength=n * n).reshape(n, n)
    return meat


def _curvature(
    theta: np.ndarray, chosen: np.ndarray, blocks: Sequence[_Block], precision: float
) -> tuple[np.ndarray, np.ndarray]:
    """The log-posterior's gradient and negative Hessian at ``theta``."""
    import numpy as np

    n = len(theta)
    gradient = chosen - precision * theta
    hessian = np.eye(n) * precision
    for block in blocks:
        p = _probabilities(theta, block)
        wp = block.weights[:, None] * p
        gradient -= np.bincount(block.sets.ravel(), wp.ravel(), minlength=n)
        hessian += np.diag(np.bincount(block.sets.ravel(), wp.ravel(), minlength=n))
        outer = (wp[:, :, None] * p[:, None, :]).ravel()  # weight * p_a * p_b
        hessian -= np.bincount(block.pairs, outer, minlength=n * n).reshape(n, n)
    return gradient, hessian


@dataclass(frozen=True, slots=True)
class Ranked:
    """What the posterior says of a leaderboard's order (bots strongest first)."""

    rank_low: tuple[int, ...]
    rank_high: tuple[int, ...]
    p_above_next: tuple[float | None, ...]
    p_order: float
    """Probability that the whole order is right (every neighbour pair at once)."""
    held: tuple[float, ...] = ()
    """The posterior probability inside each bot's rank interval: at least ``level``,
    and more where whole ranks cannot stop at exactly it (a bot second with
    probability 0.97 and third with 0.03 has the interval 2..3, which holds 1.0). What
    the intervals' coverage should be measured against (scripts/bench/rating_truth.py)."""


def ranked(joint: JointFit, order: Sequence[str], level: float = LEVEL) -> Ranked:
    """Rank intervals, ``p_above_next`` and the whole order's probability for ``order``
    (best first; every bot of the ladder, since any of them may be better than the
    leader). The draws depend on the fit and the set of bots, not on their order on the
    board, so the same ladder shows the same figures however it is sorted or paged."""
    import numpy as np

    n = len(order)
    if n == 0:
        return Ranked((), (), (), 1.0)
    samples = max(MIN_SAMPLES, min(SAMPLES, MAX_DRAWS // n))
    draws = _draws(joint, order, samples)
    # rank of each bot in each draw (0 = strongest)
    ranks = np.argsort(np.argsort(-draws, axis=1), axis=1)
    low, high, held = shortest_rank_runs(ranks, level)
    in_order = np.all(np.diff(draws, axis=1) <= 0, axis=1)
    after: list[float | None] = [
        round(joint.p_better(order[i], order[i + 1]), 4) for i in range(n - 1)
    ]
    after.append(None)
    return Ranked(
        tuple(int(x) for x in low),
        tuple(int(x) for x in high),
        tuple(after),
        float(in_order.mean()),
        tuple(float(x) for x in held),
    )


def shortest_rank_runs(ranks: np.ndarray, level: float) -> tuple[np.ndarray, ...]:
    """Each bot's rank interval (1 = first): the shortest run of whole ranks holding at
    least ``level`` of its draws (of the shortest, the one holding most; then the
    best-placed), with the share it holds. Shortest rather than equal-tailed: a leader
    first in 96% of the draws is shown 1..1, where cutting 2.5% from each tail would
    show 1..2 and claim more than the level asks.

    Found on each bot's sorted draws: the shortest run is the shortest span of
    ``needed`` consecutive ones, and starts at a rank some draw holds (one starting at an
    empty rank would be a rank shorter). Its cost is a sort and a few searches, whatever
    the ladder's size."""
    import numpy as np

    samples, n = ranks.shape
    needed = max(1, math.ceil(level * samples - 1e-9))
    ordered = np.sort(ranks, axis=0)
    starts = ordered[: samples - needed + 1, :]
    spans = ordered[needed - 1 :, :] - starts
    span = spans.min(axis=0)
    # Each column shifted past the last, then laid end to end: one sorted array in which
    # every bot's draws can be counted between two ranks by a single search.
    shift = np.arange(n) * n
    flat = (ordered + shift).T.ravel()
    low = starts + shift
    counts = np.searchsorted(flat, low + span, side="right") - np.searchsorted(flat, low)
    counts[spans != span] = -1  # only the shortest compete
    best = np.argmax(counts, axis=0)  # the first of those holding most: the best-placed
    bots = np.arange(n)
    first = starts[best, bots]
    held = counts[best, bots] / samples
    return first + 1, first + span + 1, held


def _draws(joint: JointFit, order: Sequence[str], samples: int) -> np.ndarray:
    """``samples`` draws of the skills of ``order``'s bots (a column each, in its order):
    those of the fit jointly, from the posterior, in the fit's own (sorted) order and
    seeded by it; a bot without matches from the prior, seeded by its name."""
    import numpy as np

    fitted = sorted(i for b in order if (i := joint.index(b)) is not None)
    column: dict[str, np.ndarray] = {}
    if fitted:
        mean = joint.theta[fitted]
        cov = joint.cov[np.ix_(fitted, fitted)]
        # Seeded by the fit, rounded far below what is shown: a refit of the same counts
        # from another start differs in its last bits, and must show the same figures.
        seed = np.round(mean, 6).tobytes() + np.round(cov, 9).tobytes()
        names = [joint.bots[i] for i in fitted]
        rng = np.random.default_rng(_seed(seed + "\0".join(names).encode()))
        lower = np.linalg.cholesky(cov + np.eye(len(fitted)) * 1e-12)
        together = mean + rng.standard_normal((samples, len(fitted))) @ lower.T
        column = {name: together[:, k] for k, name in enumerate(names)}
    for bot in order:
        if bot not in column:
            rng = np.random.default_rng(_seed(f"{bot}\0{joint.spread!r}".encode()))
            column[bot] = rng.normal(0.0, joint.spread, samples)
    return np.column_stack([column[bot] for bot in order])


def _seed(data: bytes) -> int:
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big")


@dataclass(frozen=True, slots=True)
class Separated:
    """Where the stop rule ended a league: the board it decided on."""

    rated: int
    """The matches rated on the board it decided on (the league had started more)."""
    order: list[str]
    """The board's order, best first."""
    board: Ranked
