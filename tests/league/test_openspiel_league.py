"""A league of an OpenSpiel game (``openspiel:leduc_poker``) interrupted after a few
committed matches (its task cancelled in process, or the ``arena league`` process killed
with SIGKILL) resumes to exactly the result of the same league run straight through: the
same seats, ranks and ratings, nothing lost, nothing doubled (the referee's chance draws
come from each match's seed, so a replayed match is the same match)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena.league.config import Entrant, LeagueConfig
from arena.store import open_store

from .conftest import RANDOM_BOT, arena, kill_league_mid_run, run_league_in_process

GAME = "openspiel:leduc_poker"


def _config(db: str) -> LeagueConfig:
    return LeagueConfig(
        bots=tuple(Entrant(f"r{i}", builtin="random") for i in range(4)),
        name="os",
        game=GAME,
        table_size=2,
        schedule="rating",
        until_sigma=3.0,
        max_matches=40,
        concurrency=2,
        seed=5,
        db=db,
    )


def _run(db: str, stop_after: int | None = None) -> None:
    run_league_in_process(_config(db), stop_after)


def _dump(db: str) -> tuple[list[Any], list[Any]]:
    store = open_store(db, create=False)
    try:
        seats = list(
            store.read(
                "SELECT m.idx, s.seat, s.bot, s.rank, s.score FROM matches m JOIN seats s "
                "ON s.match_id = m.id ORDER BY m.idx, s.seat"
            )
        )
        ratings = list(store.read("SELECT bot, mu, sigma, matches FROM ratings ORDER BY bot"))
    finally:
        store.close()
    return seats, ratings


@pytest.mark.slow
def test_an_interrupted_openspiel_league_resumes_to_the_same_ratings(tmp_path: Path) -> None:
    straight = str(tmp_path / "straight.db")
    _run(straight)
    seats, ratings = _dump(straight)
    played = len({row[0] for row in seats})
    assert played > 4
    assert len(ratings) == 4

    interrupted = str(tmp_path / "interrupted.db")
    _run(interrupted, stop_after=3)
    assert len({row[0] for row in _dump(interrupted)[0]}) < played
    _run(interrupted)  # the same league again: resumes
    assert _dump(interrupted) == (seats, ratings)


def _league_args(db: Path, matches: int) -> list[str]:
    """The league as a command: real bot processes (the sample random bot)."""
    bots = [arg for i in range(4) for arg in ("--bot", f"r{i}=cmd:{RANDOM_BOT}")]
    return [
        "league", *bots, "--game", GAME, "--table-size", "2", "--matches", str(matches),
        "--concurrency", "2", "--seed", "5", "--db", str(db), "--quiet",
    ]  # fmt: skip


@pytest.mark.slow
def test_an_openspiel_league_killed_with_sigkill_resumes_to_the_same_ratings(
    tmp_path: Path,
) -> None:
    matches = 60
    straight = tmp_path / "straight.db"
    run = arena(*_league_args(straight, matches))
    assert run.returncode == 0, run.stderr
    expected = _dump(str(straight))
    assert len({row[0] for row in expected[0]}) == matches
    assert sum(row[3] for row in expected[1]) == matches * 2

    killed = tmp_path / "killed.db"
    committed = kill_league_mid_run(_league_args(killed, matches), killed, 6)
    assert 6 <= committed < matches, "the league should be killed mid-run"
    assert _dump(str(killed))[0], "committed matches survive SIGKILL"

    resumed = arena(*_league_args(killed, matches))  # the same command
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed after" in resumed.stdout
    assert _dump(str(killed)) == expected
