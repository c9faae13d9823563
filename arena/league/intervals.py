"""How sure a leaderboard is: each bot's 95% rank interval, and for each pair of
neighbours the probability that the upper one is the better bot.

Method: posterior sampling from the ratings. TrueSkill keeps, for each bot, a normal
belief N(mu, sigma^2) about its skill; ``rank_intervals`` draws every bot's skill from
its belief many times, ranks each draw, and takes the 2.5% and 97.5% quantiles of each
bot's rank. ``p_better`` is the same belief in closed form. Only the stored (mu, sigma)
are needed, so a ladder rated before these figures existed gets them on its first read,
and the one function serves the terminal, JSON, CSV, HTML, gRPC and the web.

TrueSkill's beliefs are too timid about differences, so both are sharpened by one
measured factor per schedule, ``CALIBRATION`` (see there). Why this method and not a
bootstrap over matches: it costs about a millisecond per bot and reads no history (a
bootstrap re-rates the whole history hundreds of times), and in simulated leagues of
bots of known order it is calibrated (docs/RATINGS.md), with the league's settings:
tau = 0 and a schedule that keeps every pair connected. The draws are seeded by each
bot's name and rating, so the same ladder always shows the same figures.
"""

from __future__ import annotations

import functools
import hashlib
import math
import random
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .rating import Skill

CALIBRATION: Final = {"informative": 1.25, "balanced": 1.45}
"""How much surer a skill difference is than TrueSkill's two sigmas say, by schedule.
TrueSkill keeps each bot's belief alone, dropping the correlation between bots rated in
the same matches (their errors are shared, so their difference is known better than
either); how much that matters depends on who met whom. Measured on simulated leagues
of bots of known order (scripts/rating_truth.py, docs/RATINGS.md), the order of two
bots is right as often as their standardized difference times this factor says
(maximum likelihood over the neighbour pairs of fitting runs; the factor grows with a
league's length, and ``informative``'s is the middle of its fits on short and long
leagues, checked on leagues it was not fitted on). With 1 on balanced tables the rank
intervals held the true rank 100% of the time: too timid to use. A schedule not
measured gets 1 (TrueSkill's own beliefs: on the timid side)."""


def calibration(schedule: str) -> float:
    """The factor that makes a ladder played on ``schedule`` calibrated."""
    return CALIBRATION.get(schedule, 1.0)


LEVEL: Final = 0.95
"""The rank intervals' probability."""
SAMPLES: Final = 2000
"""Posterior draws per bot: the quantiles' error is about 0.5 percentage points."""
MAX_DRAWS: Final = 100_000
"""Draws per leaderboard at most: a ladder of more than 50 bots gets fewer samples (down
to ``MIN_SAMPLES``; about 1 percentage point of error at 500) rather than a slow read.
Each draw costs about half a microsecond of the interpreter, holding the GIL the
referee's loop and the read threads need: at 400,000 a ladder of 208 bots took 210 ms
and GetLeaderboard's p99 on a million matches rose from 119 to 517 ms."""
MIN_SAMPLES: Final = 200


@dataclass(frozen=True, slots=True)
class RankInterval:
    """One bot's place on a leaderboard, with its uncertainty."""

    rank_low: int
    """The best rank inside the 95% interval (1 = first)."""
    rank_high: int
    """The worst rank inside the 95% interval."""
    p_above_next: float | None
    """Probability that this bot is better than the one below it (None: the last)."""


def p_better(upper: Skill, lower: Skill, sharpen: float = 1.0) -> float:
    """Probability that ``upper``'s skill is above ``lower``'s under their ratings
    (``sharpen``: the schedule's ``calibration``)."""
    spread = math.hypot(upper.sigma, lower.sigma) / sharpen
    if spread == 0:
        return 0.5 if upper.mu == lower.mu else float(upper.mu > lower.mu)
    return 0.5 * math.erfc(-(upper.mu - lower.mu) / (spread * math.sqrt(2)))


@functools.lru_cache(maxsize=8)
def rank_intervals(
    names: tuple[str, ...],
    skills: tuple[Skill, ...],
    *,
    sharpen: float = 1.0,
    level: float = LEVEL,
) -> tuple[RankInterval, ...]:
    """The rank interval and ``p_above_next`` of each bot, for bots (``names`` and their
    ``skills``) in leaderboard order, best first; the output has the same order.
    ``sharpen``: the schedule's ``calibration``.

    Each bot's draws come from a generator seeded by its name and rating, so the figures
    are the same on every read; the last few ladders are cached (a ladder's ratings
    change only when it rates a match)."""
    n = len(skills)
    if n == 0:
        return ()
    samples = max(MIN_SAMPLES, min(SAMPLES, MAX_DRAWS // n))
    draws = [_draws(name, s, sharpen, samples) for name, s in zip(names, skills, strict=True)]
    counts = [[0] * n for _ in range(n)]  # counts[bot][rank - 1]
    for k in range(samples):
        column = [d[k] for d in draws]
        for rank, bot in enumerate(sorted(range(n), key=column.__getitem__, reverse=True)):
            counts[bot][rank] += 1
    tail = (1 - level) / 2 * samples
    out = []
    for i, row in enumerate(counts):
        low, high = _quantile_rank(row, tail), n - _quantile_rank(row[::-1], tail) + 1
        after = p_better(skills[i], skills[i + 1], sharpen) if i + 1 < n else None
        out.append(RankInterval(low, high, None if after is None else round(after, 4)))
    return tuple(out)


def unresolved(skills: Sequence[Skill], threshold: float, sharpen: float = 1.0) -> list[int]:
    """Positions i (0-based, bots in leaderboard order) where bot i is not above bot i+1
    with probability at least ``threshold``: the neighbours not yet separated."""
    return [
        i for i in range(len(skills) - 1) if p_better(skills[i], skills[i + 1], sharpen) < threshold
    ]


def _quantile_rank(counts: Sequence[int], tail: float) -> int:
    """The first rank (1-based) where the cumulative count passes ``tail``."""
    total = 0
    for rank, count in enumerate(counts, start=1):
        total += count
        if total > tail:
            return rank
    return len(counts)


def _draws(name: str, skill: Skill, sharpen: float, samples: int) -> list[float]:
    """``samples`` draws of a bot's skill, seeded by its name and rating (the same every
    read)."""
    packed = struct.pack("<ddd", skill.mu, skill.sigma, sharpen)
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass") + b"\0" + packed).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    spread = skill.sigma / sharpen
    return [rng.gauss(skill.mu, spread) for _ in range(samples)]
