"""Who plays whom, in which seats: tables chosen for what they teach (the default),
balanced round robin, random tables, and rating-driven matchmaking; and duplicate deal
groups that never replay a deal to a bot.

``informative`` (the default, and the live ladder's rule): every bot plays equally
often, and among the bots due to play, a table brings together the pairs whose order is
least certain (the probability that one is better than the other nearest 1/2: in
practice neighbours on the leaderboard), plus a small pull towards pairs that have met
least, so every pair stays connected (a schedule that lets pairs drift apart rates them
on nothing but third parties, and its intervals stop being honest: shared/DESIGN.md).
Measured in docs/RATINGS.md.

A scheduler is generated in match-index order and is deterministic given the league
seed (and, for matchmaking, the ratings it is shown), so a resumed league regenerates
exactly the tables of an uninterrupted one. The informative choice
(``informative_table``) and seating (``seat_order``) are also the live ladder's
(``arena serve``), so both pick and seat tables by one rule.

Seating matters in this game: the start player has an edge, and fixed seating orders
rank worse than varied neighbours (shared/DESIGN.md). So every scheduler seats a table by
choosing, among all permutations, the one that gives each bot its least-used seats and
its least-seen left neighbours.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .joint import JointFit
from .rating import RatingModel, Skill, quality

RATED_SCHEDULES = ("informative", "rating")
"""Schedules that choose tables by the ratings (shown to them ``concurrency`` back)."""
MAX_SPLITS = 500
"""Splits of a round's due bots weighed at most; more bots are seated one by one."""
CONNECT_WEIGHT = 0.25
"""How much a pair that never met counts, against a pair of fully uncertain order (1):
enough that every pair keeps meeting, little enough that the uncertain pairs lead."""
FLOOR_SHARE = 0.5
"""Every pair meets at least this share of what a balanced schedule would give it (the
matches so far times C(k, 2) / C(n, 2)): a pair below the floor outweighs any other.
Without a floor the informative schedule let distant pairs starve (1-27 meetings in 800
matches against balanced's 171), and the order of a pair that never meets is learned
from third parties only."""
FLOOR_WEIGHT = 10.0
"""A starved pair's value: above any pair's uncertainty plus connection (at most 1.25)."""


def pair_floor(matches: int, bots: int, table_size: int) -> float:
    """The meetings every pair should have had after ``matches`` matches."""
    if bots < 2:
        return 0.0
    return FLOOR_SHARE * matches * math.comb(table_size, 2) / math.comb(bots, 2)


@dataclass(frozen=True, slots=True)
class Table:
    """One scheduled match."""

    index: int
    """The match's index in the league."""
    seats: tuple[str, ...]
    """Bot names by seat."""
    seed: int
    """Seed of the match's shuffles."""
    deal_group: int | None
    """Duplicate: matches of one group play the same shuffles (seeded by the group)."""

    def __str__(self) -> str:
        """How logs name it: never with its seed (which would let a bot rebuild the deal)."""
        return f"match {self.index}"


def derived_seed(*parts: object) -> int:
    """A 63-bit seed derived from the parts (stable across runs and platforms)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def tables_per_group(bots: int, table_size: int, duplicate: bool) -> int:
    """Tables that play one deal: in a duplicate league as many disjoint tables as the
    bots fill (each bot sees a deal at most once), else 1."""
    return bots // table_size if duplicate else 1


class Scheduler:
    """Generates tables in index order."""

    def __init__(
        self,
        bots: Sequence[str],
        table_size: int,
        seed: int,
        *,
        kind: str = "informative",
        duplicate: bool = False,
        model: RatingModel | None = None,
    ) -> None:
        if table_size > len(bots):
            raise ValueError("more seats than bots")
        self.bots = list(bots)
        self.k = table_size
        self.seed = seed
        self.kind = kind
        self.duplicate = duplicate
        self.model = model or RatingModel()
        self._rng = random.Random(derived_seed(seed, "schedule"))
        self.played: dict[str, int] = dict.fromkeys(bots, 0)
        self.meetings: dict[tuple[str, str], int] = defaultdict(int)
        self.seat_use: dict[tuple[str, int], int] = defaultdict(int)
        self.left_of: dict[tuple[str, str], int] = defaultdict(int)
        self._pending: list[Table] = []
        self._next_index = 0
        self._group = 0

    @property
    def tables_per_group(self) -> int:
        """Duplicate: disjoint tables that replay one deal (each bot at most once)."""
        return tables_per_group(len(self.bots), self.k, self.duplicate)

    def next_table(
        self, ratings: Mapping[str, Skill] | None = None, joint: JointFit | None = None
    ) -> Table:
        """The next match's table (``ratings``: the TrueSkill snapshot, for ``rating``;
        ``joint``: the joint model's, for ``informative``)."""
        if not self._pending:
            self._fill(ratings or {}, joint)
        return self._pending.pop(0)

    def _fill(self, ratings: Mapping[str, Skill], joint: JointFit | None) -> None:
        used: set[str] = set()
        group = self._group if self.duplicate else None
        for _ in range(self.tables_per_group):
            chosen = self._choose([b for b in self.bots if b not in used], ratings, joint)
            used.update(chosen)
            seats = self._seat(chosen)
            index = self._next_index
            self._next_index += 1
            seed = (
                derived_seed(self.seed, "deal", group)
                if group is not None
                else derived_seed(self.seed, "match", index)
            )
            self._pending.append(Table(index, seats, seed, group))
            self._count(seats)
        self._group += 1

    def _choose(
        self, pool: list[str], ratings: Mapping[str, Skill], joint: JointFit | None
    ) -> list[str]:
        rng = self._rng
        tiebreak = {b: rng.random() for b in pool}
        if self.kind == "random":
            return rng.sample(pool, self.k)
        floor = pair_floor(self._next_index, len(self.bots), self.k)
        if self.kind == "rating":
            return closest_table(
                self.model,
                pool,
                self.k,
                ratings,
                self.played,
                tiebreak,
                floor=floor,
                meetings=self.meetings,
            )
        if self.kind == "informative":
            better = (joint or JointFit.empty()).p_better
            return informative_table(
                pool, self.k, better, self.played, self.meetings, tiebreak, floor=floor
            )
        chosen = [min(pool, key=lambda b: (self.played[b], tiebreak[b]))]
        while len(chosen) < self.k:
            chosen.append(
                min(
                    (b for b in pool if b not in chosen),
                    key=lambda b: (
                        self.played[b],
                        sum(self.meetings[_pair(b, c)] for c in chosen),
                        tiebreak[b],
                    ),
                )
            )
        return chosen

    def _seat(self, chosen: list[str]) -> tuple[str, ...]:
        return seat_order(chosen, self.seat_use, self.left_of, self._rng)

    def _count(self, seats: tuple[str, ...]) -> None:
        count_seating(seats, self.seat_use, self.left_of)
        for bot in seats:
            self.played[bot] += 1
        count_meetings(seats, self.meetings)


def informative_table(
    pool: Sequence[str],
    size: int,
    better: Callable[[str, str], float],
    played: Mapping[str, int],
    meetings: Mapping[tuple[str, str], int],
    tiebreak: Mapping[str, float],
    placement_left: Mapping[str, int] | None = None,
    *,
    floor: float = 0.0,
) -> list[str]:
    """``size`` bots of ``pool``, unseated, chosen for what their match will teach.

    Only bots that played least are eligible while there are enough of them (so every
    bot plays equally often; the live ladder's bots in placement come first). A pair's
    value is how uncertain its order is (1 - |2p - 1|, p = ``better(a, b)``: the joint
    model's probability that one is better) plus ``CONNECT_WEIGHT / (1 + meetings)``,
    and ``FLOOR_WEIGHT`` while the pair has met fewer than ``floor`` times. When the due
    bots fill at most two tables (a small league's round), the table is the split of
    them whose two tables' pairs are worth most; otherwise the table grows one bot at a
    time by the most valuable addition. Bots missing from ``played`` have no match
    yet."""
    placing = placement_left or {}

    def due(bot: str) -> tuple[bool, int]:
        return (placing.get(bot, 0) <= 0, played.get(bot, 0))

    ranked = sorted(pool, key=lambda b: (due(b), tiebreak[b]))
    eligible = [b for b in ranked if due(b) <= due(ranked[size - 1])]

    values: dict[tuple[str, str], float] = {}

    def value(a: str, b: str) -> float:
        pair = _pair(a, b)
        found = values.get(pair)
        if found is None:  # each pair once: a round's splits weigh the same pairs often
            met = meetings.get(pair, 0)
            # Rounded: a fit's last bits must never decide a table (a resumed league
            # regenerates the same tables).
            uncertain = round(1 - abs(2 * better(a, b) - 1), 6)
            found = uncertain + CONNECT_WEIGHT / (1 + met) + (FLOOR_WEIGHT if met < floor else 0.0)
            values[pair] = found
        return found

    must = [b for b in eligible if due(b) < due(ranked[size - 1])]
    if not must and len(eligible) <= 2 * size and math.comb(len(eligible), size) <= MAX_SPLITS:
        # A round's tables: split the due bots so that both this table and the rest
        # (the next table) bring uncertain pairs together.
        def split_value(table: Sequence[str]) -> tuple[float, float]:
            rest = [b for b in eligible if b not in table]
            pairs = [*itertools.combinations(table, 2), *itertools.combinations(rest, 2)]
            return (sum(value(a, b) for a, b in pairs), sum(tiebreak[b] for b in table))

        best: Sequence[str] = max(itertools.combinations(eligible, size), key=split_value)
        return list(best)
    chosen = list(must)
    if not chosen:
        first, second = max(
            itertools.combinations(eligible, 2),
            key=lambda ab: (value(*ab), tiebreak[ab[0]] + tiebreak[ab[1]]),
        )
        chosen = [first, second]
    while len(chosen) < size:
        chosen.append(
            max(
                (b for b in eligible if b not in chosen),
                key=lambda b: (sum(value(b, c) for c in chosen), tiebreak[b]),
            )
        )
    return chosen


def closest_table(
    model: RatingModel,
    pool: Sequence[str],
    size: int,
    skills: Mapping[str, Skill],
    played: Mapping[str, int],
    tiebreak: Mapping[str, float],
    placement_left: Mapping[str, int] | None = None,
    *,
    floor: float = 0.0,
    meetings: Mapping[tuple[str, str], int] | None = None,
) -> list[str]:
    """Rating-driven matchmaking: ``size`` bots of ``pool``, unseated. The anchor is the
    most uncertain bot (then the one that played least, then ``tiebreak``); each further
    bot is, first, one that has met fewer than ``floor`` times someone already chosen
    (the pair floor, as the informative schedule keeps it), then whoever makes the
    closest table by TrueSkill match quality (then the one that played least, then
    ``tiebreak``).

    ``placement_left``: the live ladder's bots still in their placement matches, which
    come before any other anchor (the one with the fewest matches played first). Bots
    missing from ``skills`` or ``played`` have the default skill and no match yet."""
    placing = placement_left or {}

    def skill(bot: str) -> Skill:
        return skills.get(bot, Skill())

    def in_placement(bot: str) -> bool:
        return placing.get(bot, 0) > 0

    anchor = max(
        pool,
        key=lambda b: (
            in_placement(b),
            -played.get(b, 0) if in_placement(b) else 0,
            skill(b).sigma,
            -played.get(b, 0),
            tiebreak[b],
        ),
    )
    met = meetings or {}
    chosen = [anchor]
    while len(chosen) < size:
        chosen.append(
            max(
                (b for b in pool if b not in chosen),
                key=lambda b: (
                    sum(met.get(_pair(b, c), 0) < floor for c in chosen),
                    round(quality(model, [skill(c) for c in [*chosen, b]]), 9),
                    -played.get(b, 0),
                    tiebreak[b],
                ),
            )
        )
    return chosen


def seat_order(
    chosen: Sequence[str],
    seat_use: Mapping[tuple[str, int], int],
    left_of: Mapping[tuple[str, str], int],
    rng: random.Random,
) -> tuple[str, ...]:
    """The seating of ``chosen`` that gives each bot its least-used seats, then its
    least-seen left neighbours (ties broken by ``rng``)."""
    k = len(chosen)
    best: tuple[str, ...] = tuple(chosen)
    best_cost: tuple[int, int, float] | None = None
    for order in itertools.permutations(chosen):
        seat_cost = sum(seat_use.get((bot, s), 0) for s, bot in enumerate(order))
        neighbour_cost = sum(left_of.get((order[s], order[(s + 1) % k]), 0) for s in range(k))
        cost = (seat_cost, neighbour_cost, rng.random())
        if best_cost is None or cost < best_cost:
            best, best_cost = order, cost
    return best


def count_seating(
    seats: Sequence[str],
    seat_use: dict[tuple[str, int], int],
    left_of: dict[tuple[str, str], int],
) -> None:
    """Count a table's seats and left neighbours (what ``seat_order`` balances)."""
    k = len(seats)
    for s, bot in enumerate(seats):
        seat_use[(bot, s)] = seat_use.get((bot, s), 0) + 1
        left_of[(bot, seats[(s + 1) % k])] = left_of.get((bot, seats[(s + 1) % k]), 0) + 1


def count_meetings(seats: Sequence[str], meetings: dict[tuple[str, str], int]) -> None:
    """Count the pairs that met at a table (what ``informative_table`` keeps connected)."""
    for a, b in itertools.combinations(seats, 2):
        meetings[_pair(a, b)] = meetings.get(_pair(a, b), 0) + 1


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)
