"""`arena league` on a disk that fills up: it stops, says what to do, and resumes.

Fails on a35e272: the league did stop and did resume to the right result, but it said
"a match failed unexpectedly: OperationalError('database or disk is full')", as for a
bug, with nothing about what to do; and a write that failed outside a match (the
league's end) escaped as a raw ``sqlite3.OperationalError`` (a traceback from the
command).

Passes now: it stops with a LeagueError (``arena league`` prints it and exits 2) that
names the cause, says to free space on the disk holding the database and to run the same
command again; run again once there is space, it ends with exactly the matches, seats
and ratings of a league that never stopped: a result that could not be written is
played again with the same deal (as after a kill), nothing committed is lost or counted
twice.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from arena.league.config import Entrant, LeagueConfig
from arena.league.runner import LeagueError, run_league
from arena.store import Store, open_store

from .disk_support import FULL, FillingDisk

MATCHES = 18


def _config(db: Path) -> LeagueConfig:
    return LeagueConfig(
        bots=tuple(Entrant(f"r{i}", builtin="random") for i in range(3))
        + tuple(Entrant(f"g{i}", builtin="greedy") for i in range(2)),
        name="full",
        table_size=3,
        matches=MATCHES,
        concurrency=3,
        seed=7,
        db=str(db),
    )


def _run(db: Path, store: Store) -> None:
    async def main() -> None:
        try:
            await run_league(_config(db), store, on_commit=lambda n: _fill(store, n))
        finally:
            store.close()

    asyncio.run(main())


FILL_AT: dict[Path, int] = {}
"""Per database: the commit after which its disk is full."""


def _fill(store: Store, committed: int) -> None:
    if isinstance(store, FillingDisk) and committed == FILL_AT.get(store.path):
        store.full = True


def _dump(db: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    with sqlite3.connect(db) as conn:
        seats = conn.execute(
            "SELECT m.idx, s.seat, s.bot, s.rank, s.score FROM matches m JOIN seats s "
            "ON s.match_id = m.id ORDER BY m.idx, s.seat"
        ).fetchall()
        ratings = conn.execute(
            "SELECT bot, mu, sigma, matches FROM ratings ORDER BY bot"
        ).fetchall()
    return seats, ratings


@pytest.mark.parametrize("fill_at", [5, MATCHES], ids=["mid-league", "at-its-end"])
def test_a_full_disk_stops_the_league_clearly_and_it_resumes_losing_nothing(
    tmp_path: Path, fill_at: int
) -> None:
    straight = tmp_path / "straight.db"
    _run(straight, open_store(straight))
    expected = _dump(straight)
    assert len({row[0] for row in expected[0]}) == MATCHES

    db = tmp_path / "full.db"
    disk = FillingDisk(db)
    FILL_AT[disk.path] = fill_at
    with pytest.raises(LeagueError) as stopped:
        _run(db, disk)
    message = str(stopped.value)
    assert message.startswith(f"stopped: cannot write the database ({FULL}); ")
    assert f"free space on the disk that holds {db}" in message
    assert "run the same command again to resume" in message
    assert f"the {fill_at} match(es) committed are kept" in message
    assert disk.failed >= 1
    assert len({row[0] for row in _dump(db)[0]}) == fill_at

    _run(db, open_store(db))  # space again: the same league, resumed
    assert _dump(db) == expected
