"""Schedules: balance, seats, matchmaking, and duplicate deals that never leak."""

from __future__ import annotations

import itertools
from collections import Counter

from arena.league.rating import Skill
from arena.league.schedule import Scheduler

BOTS = [f"b{i}" for i in range(7)]


def _tables(scheduler: Scheduler, count: int) -> list[tuple[str, ...]]:
    return [scheduler.next_table().seats for _ in range(count)]


def test_balanced_round_robin_is_balanced() -> None:
    tables = _tables(Scheduler(BOTS, 4, seed=3), 70)  # 70 * 4 / 7 = 40 matches each
    played = Counter(bot for table in tables for bot in table)
    assert set(played.values()) == {40}
    seats = Counter((bot, seat) for table in tables for seat, bot in enumerate(table))
    for bot in BOTS:
        counts = [seats[(bot, s)] for s in range(4)]
        assert max(counts) - min(counts) <= 2, (bot, counts)
    meetings = Counter(
        pair for table in tables for pair in itertools.combinations(sorted(table), 2)
    )
    assert max(meetings.values()) - min(meetings.values()) <= 3


def test_schedules_are_deterministic_per_seed() -> None:
    for kind in ("balanced", "random", "rating"):
        a = _tables(Scheduler(BOTS, 3, seed=9, kind=kind), 20)
        b = _tables(Scheduler(BOTS, 3, seed=9, kind=kind), 20)
        c = _tables(Scheduler(BOTS, 3, seed=10, kind=kind), 20)
        assert a == b
        assert a != c


def test_match_seeds_come_from_the_league_seed_and_index() -> None:
    first = [Scheduler(BOTS, 4, seed=1).next_table() for _ in range(2)]
    assert first[0].seed == first[1].seed
    s = Scheduler(BOTS, 4, seed=1)
    assert s.next_table().seed != s.next_table().seed


def test_matchmaking_starts_from_the_most_uncertain_bot() -> None:
    ratings = {bot: Skill(25, 1.0) for bot in BOTS}
    ratings["b5"] = Skill(25, 6.0)
    table = Scheduler(BOTS, 3, seed=1, kind="rating").next_table(ratings)
    assert "b5" in table.seats


def test_matchmaking_builds_close_tables() -> None:
    ratings = {bot: Skill(10 + 5 * i, 1.0) for i, bot in enumerate(BOTS)}
    ratings["b3"] = Skill(25, 3.0)  # the anchor, in the middle of the field
    table = Scheduler(BOTS, 3, seed=1, kind="rating").next_table(ratings)
    mus = sorted(ratings[bot].mu for bot in table.seats)
    assert "b3" in table.seats
    assert mus[-1] - mus[0] == 10  # three neighbours in skill, never a far one


def test_duplicate_deals_are_never_replayed_to_a_bot() -> None:
    bots = [f"b{i}" for i in range(9)]
    scheduler = Scheduler(bots, 4, seed=2, duplicate=True)
    seen: dict[int, set[str]] = {}
    groups: Counter[int] = Counter()
    for _ in range(40):
        table = scheduler.next_table()
        assert table.deal_group is not None
        groups[table.deal_group] += 1
        players = seen.setdefault(table.deal_group, set())
        assert not players & set(table.seats), "a bot would see a deal twice"
        players.update(table.seats)
    assert set(groups.values()) == {2}  # 9 bots: two disjoint tables of 4 per deal
    group_seeds: dict[int | None, set[int]] = {}
    for _ in range(4):
        table = scheduler.next_table()
        group_seeds.setdefault(table.deal_group, set()).add(table.seed)
    assert all(len(seeds) == 1 for seeds in group_seeds.values())
