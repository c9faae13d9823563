"""Matchmaking and the sigma stopping rule depend on ratings; an interrupted league of
that kind still resumes to exactly the uninterrupted result."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

from arena.league.config import Entrant, LeagueConfig
from arena.league.runner import run_league
from arena.store import open_store


def _config(db: Path) -> LeagueConfig:
    return LeagueConfig(
        bots=tuple(Entrant(f"r{i}", builtin="random") for i in range(3))
        + tuple(Entrant(f"g{i}", builtin="greedy") for i in range(2)),
        name="mm",
        table_size=3,
        schedule="rating",
        until_sigma=2.5,
        max_matches=60,
        concurrency=3,
        seed=11,
        db=str(db),
    )


def _run(db: Path, stop_after: int | None = None) -> None:
    async def main() -> None:
        store = open_store(db)
        league = asyncio.current_task()
        assert league is not None

        def on_commit(committed: int) -> None:
            if stop_after is not None and committed >= stop_after:
                league.cancel()

        try:
            with contextlib.suppress(asyncio.CancelledError):
                await run_league(_config(db), store, on_commit=on_commit)
        finally:
            store.close()

    asyncio.run(main())


def _dump(db: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    with sqlite3.connect(db) as conn:
        seats = conn.execute(
            "SELECT m.idx, s.seat, s.bot, s.rank FROM matches m JOIN seats s "
            "ON s.match_id = m.id ORDER BY m.idx, s.seat"
        ).fetchall()
        ratings = conn.execute(
            "SELECT bot, mu, sigma, matches FROM ratings ORDER BY bot"
        ).fetchall()
    return seats, ratings


def test_an_interrupted_matchmaking_league_resumes_to_the_same_result(tmp_path: Path) -> None:
    straight = tmp_path / "straight.db"
    _run(straight)
    seats, ratings = _dump(straight)
    played = len({row[0] for row in seats})
    assert 5 < played < 60  # the sigma rule stopped it before the cap
    assert all(float(str(row[2])) < 2.5 for row in ratings)

    interrupted = tmp_path / "interrupted.db"
    _run(interrupted, stop_after=4)
    assert len({row[0] for row in _dump(interrupted)[0]}) < played
    _run(interrupted)  # the same league again: resumes
    assert _dump(interrupted) == (seats, ratings)
