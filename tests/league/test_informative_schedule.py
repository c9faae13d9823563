"""The default schedule: tables for what they teach, every bot playing equally often and
in every seat equally often, every pair kept connected; and a bot's rating does not
depend on the seats it drew."""

from __future__ import annotations

import itertools
import random
import statistics
from collections import Counter

import pytest

from arena.league import schedule
from arena.league.commit import Standings
from arena.league.joint import JointFit
from arena.league.rating import RatingModel, Skill
from arena.league.schedule import Scheduler
from arena.store.rows import SeatRow

BOTS = [f"b{i}" for i in range(8)]
# The joint model's beliefs (log-strength, sd): b0/b1 and b4/b5 are close; everyone
# else is far from their neighbours.
BELIEFS = {
    "b0": (2.0, 0.1), "b1": (1.97, 0.1), "b2": (1.2, 0.1), "b3": (0.6, 0.1),
    "b4": (0.0, 0.1), "b5": (-0.02, 0.1), "b6": (-0.7, 0.1), "b7": (-1.4, 0.1),
}  # fmt: skip


def tables(count: int, beliefs: dict[str, tuple[float, float]] = BELIEFS) -> list[tuple[str, ...]]:
    scheduler = Scheduler(BOTS, 4, seed=3)  # the default kind
    joint = JointFit.of(beliefs)
    return [scheduler.next_table({}, joint).seats for _ in range(count)]


def test_every_bot_plays_equally_often_and_sits_in_every_seat_equally() -> None:
    seated = tables(400)  # 200 matches per bot
    for end in range(2, 401, 2):  # after every round
        played = Counter(bot for t in seated[:end] for bot in t)
        assert set(played.values()) == {end // 2}
    seats = Counter((bot, s) for t in seated for s, bot in enumerate(t))
    for bot in BOTS:
        assert {seats[(bot, s)] for s in range(4)} <= {49, 50, 51}


def test_uncertain_pairs_meet_most_and_every_pair_meets() -> None:
    seated = tables(200)
    met = Counter(frozenset(p) for t in seated for p in itertools.combinations(t, 2))
    assert len(met) == 28  # every pair, even the surest ones, keeps meeting
    typical = sorted(met.values())[len(met) // 2]
    assert met[frozenset(("b0", "b1"))] > 1.5 * typical
    assert met[frozenset(("b4", "b5"))] > 1.5 * typical


WIDE = [f"w{i:02d}" for i in range(16)]
"""Sixteen bots a steady 0.3 logit apart: four tables a round, chosen one bot at a time."""
FLOOR_AT_800 = 800 * 6 / 120 / 2
"""Half of what balanced tables give each pair in 800 matches (6 of the 120 pairs each)."""


def least_met(count: int) -> int:
    scheduler = Scheduler(WIDE, 4, seed=3)
    joint = JointFit.of({b: (-0.3 * i, 0.1) for i, b in enumerate(WIDE)})
    seated = [scheduler.next_table({}, joint).seats for _ in range(count)]
    met = Counter(frozenset(p) for t in seated for p in itertools.combinations(t, 2))
    return min(met.get(frozenset(p), 0) for p in itertools.combinations(WIDE, 2))


def test_every_pair_meets_at_least_at_the_floor() -> None:
    assert least_met(800) >= FLOOR_AT_800 - 1  # less the round in progress


def test_without_the_floor_distant_pairs_starve(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the floor is for: by uncertainty alone the surest pairs fall behind."""
    monkeypatch.setattr(schedule, "FLOOR_SHARE", 0.0)
    assert least_met(800) < FLOOR_AT_800 - 4


def test_without_ratings_it_mixes_everyone() -> None:
    seated = tables(28, {})
    met = Counter(frozenset(p) for t in seated for p in itertools.combinations(t, 2))
    assert len(met) == 28
    assert max(met.values()) - min(met.values()) <= 3


def seat_biased_ranks(rng: random.Random, seats: int) -> list[int]:
    """Ranks of a table of equal bots in a game where seat 0 wins 3 times in 4."""
    order = list(range(seats))
    rng.shuffle(order)
    if rng.random() < 2 / 3:
        order.remove(0)
        order.insert(0, 0)
    ranks = [0] * seats
    for place, seat in enumerate(order, start=1):
        ranks[seat] = place
    return ranks


def final_ratings(seating: str) -> dict[str, Skill]:
    """Eight equal bots, 100 matches each, in a game with a strong start-seat edge."""
    rng = random.Random(11)
    scheduler = Scheduler(BOTS, 4, seed=11)
    standings = Standings(RatingModel(), "sim", dict.fromkeys(BOTS, Skill()), {})
    for _ in range(200):
        seats = list(scheduler.next_table(standings.skills).seats)
        if seating == "b0 always starts" and "b0" in seats:
            seats.remove("b0")
            seats.insert(0, "b0")
        ranks = seat_biased_ranks(rng, 4)
        rows = [
            SeatRow(s, bot, 0, ranks[s], ranks[s], False, 0, 0.0, 0, 0, 0)
            for s, bot in enumerate(seats)
        ]
        standings.apply(standings.rated(rows))
    return standings.skills


def test_a_bot_s_rating_does_not_depend_on_the_seats_it_drew() -> None:
    """Eight equal bots in a game whose start seat wins 3 times in 4: seated by the
    schedule, b0 is one of the crowd; always given the start seat, it tops the ladder."""
    fair = final_ratings("the schedule's")
    others = [s.mu for b, s in fair.items() if b != "b0"]
    assert abs(fair["b0"].mu - statistics.fmean(others)) < 2 * statistics.stdev(others)
    skewed = final_ratings("b0 always starts")
    others = [s.mu for b, s in skewed.items() if b != "b0"]
    assert skewed["b0"].mu > max(others)
    assert skewed["b0"].mu - statistics.fmean(others) > 2.5 * statistics.stdev(others)
