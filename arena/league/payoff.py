"""The non-transitivity report: who finishes ahead of whom, a game-theoretic ranking
next to TrueSkill's, and the significant cycles.

* The head-to-head matrix: for each ordered pair of bots, the share of the matches they
  played together in which the first finished ahead of the second (a tie counts half),
  and on how many matches.
* alpha-Rank (Omidshafiei et al., 2019), single population: a bot's mass is the share of
  time an evolving population spends playing it when any bot may invade any other with
  a probability that grows steeply (``ALPHA``) with how often it finishes ahead. Unlike
  a rating, it credits a bot that beats the bots that beat the others, and splits its
  mass over a cycle instead of ordering it.
* Cycles: triangles A > B > C > A where every edge is significant: one-sided binomial
  test, p below 0.05 divided by the number of pairs (Bonferroni), ties left out.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

ALPHA: Final = 20.0
"""alpha-Rank's selection intensity on shares in [0, 1]: high enough that a bot ahead
60% of the time invades clearly, low enough for the power iteration to converge."""
POPULATION: Final = 50
"""alpha-Rank's population size."""
SIGNIFICANCE: Final = 0.05


class NoMatchesError(ValueError):
    """A ladder without finished matches: nothing to compare."""


@dataclass(frozen=True, slots=True)
class Payoff:
    """Head to head on one ladder."""

    bots: list[str]
    won: dict[tuple[str, str], int]
    """(a, b) -> matches in which a finished strictly ahead of b."""
    met: dict[tuple[str, str], int]
    """(a, b) -> matches a and b played together (both orders)."""

    def share(self, a: str, b: str) -> float | None:
        """Share of their matches in which ``a`` finished ahead of ``b`` (a tie counts
        half); None if they never met."""
        n = self.met.get((a, b), 0)
        if not n:
            return None
        ties = n - self.won.get((a, b), 0) - self.won.get((b, a), 0)
        return (self.won.get((a, b), 0) + ties / 2) / n


def payoff(seats: Iterable[tuple[str, int, str, int, int]]) -> Payoff:
    """The head-to-head counts from (match id, seat, bot, score, rank) rows in match
    order (``Store.ladder_seats``)."""
    won: dict[tuple[str, str], int] = {}
    met: dict[tuple[str, str], int] = {}
    bots: set[str] = set()
    for _, table in itertools.groupby(seats, key=lambda row: row[0]):
        placed = [(bot, rank) for _, _, bot, _, rank in table]
        for (a, ra), (b, rb) in itertools.permutations(placed, 2):
            met[(a, b)] = met.get((a, b), 0) + 1
            if ra < rb:
                won[(a, b)] = won.get((a, b), 0) + 1
        bots.update(bot for bot, _ in placed)
    if not bots:
        raise NoMatchesError("no finished matches on this ladder")
    return Payoff(sorted(bots), won, met)


def alpha_rank(table: Payoff, order: Sequence[str]) -> dict[str, float]:
    """Each bot's alpha-Rank mass (they sum to 1); pairs that never met count as even."""
    n = len(order)
    if n == 1:
        return {order[0]: 1.0}

    def fixation(invader: str, resident: str) -> float:
        share = table.share(invader, resident)
        edge = 0.0 if share is None else 2 * share - 1  # in [-1, 1]
        if abs(edge) < 1e-12:
            return 1 / POPULATION
        x = -ALPHA * edge  # (1 - e^x) / (1 - e^(m x)), arranged so nothing overflows
        if x < 0:
            return math.expm1(x) / math.expm1(POPULATION * x)
        return math.exp(-(POPULATION - 1) * x) * math.expm1(-x) / math.expm1(-POPULATION * x)

    step = [[0.0] * n for _ in range(n)]
    for i, resident in enumerate(order):
        for j, invader in enumerate(order):
            if i != j:
                step[i][j] = fixation(invader, resident) / (n - 1)
        step[i][i] = 1 - sum(step[i])
    mass = [1 / n] * n
    for _ in range(10_000):
        new = [sum(mass[i] * step[i][j] for i in range(n)) for j in range(n)]
        done = max(abs(a - b) for a, b in zip(new, mass, strict=True)) < 1e-13
        mass = new
        if done:
            break
    total = sum(mass)
    return {bot: m / total for bot, m in zip(order, mass, strict=True)}


def significant_cycles(table: Payoff) -> list[tuple[str, str, str]]:
    """Triangles (a, b, c): a ahead of b, b of c, c of a, each significantly."""
    pairs = max(1, len(table.bots) * (len(table.bots) - 1) // 2)
    level = SIGNIFICANCE / pairs

    def beats(a: str, b: str) -> bool:
        won, lost = table.won.get((a, b), 0), table.won.get((b, a), 0)
        return won > lost and _binomial_tail(won, won + lost) < level

    found = []
    for a, b, c in itertools.combinations(table.bots, 3):
        for x, y, z in ((a, b, c), (a, c, b)):
            if beats(x, y) and beats(y, z) and beats(z, x):
                found.append((x, y, z))
    return found


def _binomial_tail(k: int, n: int) -> float:
    """P(X >= k) for X ~ Binomial(n, 1/2)."""
    if n == 0:
        return 1.0
    if n > 1000:  # normal approximation with continuity correction
        z = (k - 0.5 - n / 2) / math.sqrt(n / 4)
        return 0.5 * math.erfc(z / math.sqrt(2))
    return float(sum(math.comb(n, i) for i in range(k, n + 1)) / 2**n)
