"""Matchmaking and the sigma stopping rule depend on ratings; an interrupted league of
that kind still resumes to exactly the uninterrupted result, on SQLite and on
PostgreSQL; and the same seeded league gives the same results on both."""

from __future__ import annotations

import os
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest

from arena.league.config import Entrant, LeagueConfig
from arena.store import Store, open_store
from arena.store.pg_cluster import TempCluster

from .conftest import run_league_in_process


def _config(db: str) -> LeagueConfig:
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
        db=db,
    )


def _run(db: str, stop_after: int | None = None) -> None:
    run_league_in_process(_config(db), stop_after)


def _plain(store: Store, sql: str) -> list[tuple[object, ...]]:
    return [tuple(int(v) if isinstance(v, Decimal) else v for v in r) for r in store.read(sql)]


def _dump(db: str) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    store = open_store(db, create=False)
    try:
        seats = _plain(
            store,
            "SELECT m.idx, s.seat, s.bot, s.rank FROM matches m JOIN seats s "
            "ON s.match_id = m.id ORDER BY m.idx, s.seat",
        )
        ratings = _plain(store, "SELECT bot, mu, sigma, matches FROM ratings ORDER BY bot")
    finally:
        store.close()
    return seats, ratings


def _faults(db: str) -> list[tuple[object, ...]]:
    store = open_store(db, create=False)
    try:
        return _plain(
            store,
            "SELECT m.idx, s.seat, s.score, s.game_rank, s.forfeited, s.timeouts, s.errors, "
            "s.invalid FROM matches m JOIN seats s ON s.match_id = m.id ORDER BY m.idx, s.seat",
        ) + _plain(store, "SELECT match_id, seat, n, kind, detail FROM faults ORDER BY 1, 2, 3")
    finally:
        store.close()


@pytest.mark.slow
def test_an_interrupted_matchmaking_league_resumes_to_the_same_result(
    new_db: Callable[[], str],
) -> None:
    straight = new_db()
    _run(straight)
    seats, ratings = _dump(straight)
    played = len({row[0] for row in seats})
    assert 5 < played < 60  # the sigma rule stopped it before the cap
    assert all(float(str(row[2])) < 2.5 for row in ratings)

    interrupted = new_db()
    _run(interrupted, stop_after=4)
    assert len({row[0] for row in _dump(interrupted)[0]}) < played
    _run(interrupted)  # the same league again: resumes
    assert _dump(interrupted) == (seats, ratings)


def test_a_seeded_league_gives_the_same_results_on_sqlite_and_postgresql(
    tmp_path: Path, pg_cluster: TempCluster
) -> None:
    on_sqlite = str(tmp_path / "league.db")
    on_postgres = pg_cluster.create_database(f"same_{os.getpid()}")
    _run(on_sqlite)
    _run(on_postgres)
    # Every match's ranks (and bots), scores and faults, and the final ratings, exactly.
    assert _dump(on_postgres) == _dump(on_sqlite)
    assert _faults(on_postgres) == _faults(on_sqlite)
    assert len(_dump(on_sqlite)[0]) > 15
