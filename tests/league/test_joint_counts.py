"""The joint model's counts are committed with the ratings: a league's stored counts are
exactly what it rated (its matches' ranks, or with ``--rate-groups`` each deal group's
summed ranking), and a leaderboard read from them needs no history."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from arena.league.config import Entrant, LeagueConfig
from arena.league.groups import group_seats
from arena.league.joint import Outcomes
from arena.league.leaderboard import leaderboard
from arena.league.runner import run_league
from arena.store import open_store


def _league(db: Path, *, rate_groups: bool) -> LeagueConfig:
    return LeagueConfig(
        bots=tuple(Entrant(f"r{i}", builtin="random") for i in range(3))
        + tuple(Entrant(f"g{i}", builtin="greedy") for i in range(3)),
        name="counts",
        table_size=3,
        matches=24,
        concurrency=4,
        seed=5,
        db=str(db),
        duplicate=rate_groups,
        rate_groups=rate_groups,
    )


@pytest.mark.slow
@pytest.mark.parametrize("rate_groups", [False, True], ids=["by-match", "by-deal-group"])
def test_a_league_commits_the_counts_of_exactly_what_it_rated(
    tmp_path: Path, rate_groups: bool
) -> None:
    db = tmp_path / "l.db"
    config = _league(db, rate_groups=rate_groups)
    store = open_store(db)

    async def main() -> None:
        try:
            await run_league(config, store)
        finally:
            store.close()

    asyncio.run(main())
    store = open_store(db)
    try:
        matches = sorted(store.matches(league_id=config.league_id, limit=100), key=lambda m: m.idx)
        assert len(matches) == 24
        expected = Outcomes()
        if rate_groups:
            for first in range(0, 24, 2):  # 6 bots at tables of 3: two tables a deal
                rated = group_seats([matches[first].seats, matches[first + 1].seats])
                expected.add({s.bot: s.rank for s in rated})
        else:
            for match in matches:
                expected.add({s.bot: s.rank for s in match.seats})
        assert dict(store.outcome_counts(config.ladder)) == expected.counts
        board = leaderboard(store, config.ladder)
        assert {row.name for row in board} == {b.name for b in config.bots}
        assert all(1 <= row.rank_low <= row.rank_high <= 6 for row in board)
    finally:
        store.close()
