"""`arena league --db postgresql://...`: a league SIGKILLed mid-run resumes with the same
command to exactly the result of an uninterrupted run (here: the same league run
straight through on SQLite), and the views read it like a file."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest

from arena.store import open_store
from arena.store.pg_cluster import TempCluster

from .conftest import ARENA, ROOT, arena

MATCHES = 150


def _league(db: str, *extra: str) -> list[str]:
    return [
        "league", "--bot", "g1=greedy", "--bot", "g2=greedy", "--bot", "r1=random",
        "--bot", "r2=random", "--table-size", "3", "--matches", str(MATCHES),
        "--concurrency", "4", "--seed", "9", "--db", db, "--quiet", *extra,
    ]  # fmt: skip


def _results(db: str) -> tuple[list[tuple[object, ...]], ...]:
    store = open_store(db, create=False)
    try:
        queries = (
            "SELECT m.idx, s.seat, s.bot, s.score, s.rank, s.forfeited, s.timeouts, s.errors, "
            "s.invalid, m.seed, m.end_reason FROM matches m JOIN seats s "
            "ON s.match_id = m.id ORDER BY m.idx, s.seat",
            "SELECT bot, mu, sigma, matches FROM ratings ORDER BY bot",
            "SELECT * FROM bot_stats ORDER BY 1, 2",
        )
        return tuple(
            [tuple(int(v) if isinstance(v, Decimal) else v for v in r) for r in store.read(q)]
            for q in queries
        )
    finally:
        store.close()


@pytest.mark.slow
def test_a_league_killed_on_postgresql_resumes_to_the_uninterrupted_result(
    tmp_path: Path, pg_cluster: TempCluster
) -> None:
    straight = str(tmp_path / "straight.db")
    done = arena(*_league(straight))
    assert done.returncode == 0, done.stderr

    killed = pg_cluster.create_database("league_killed")
    process = subprocess.Popen(
        [*ARENA, *_league(killed)], cwd=ROOT, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    committed = 0
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and committed < 10:
            time.sleep(0.02)
            try:
                with psycopg.connect(killed, connect_timeout=5) as conn:
                    row = conn.execute("SELECT count(*) FROM matches").fetchone()
                    committed = int(row[0]) if row else 0
            except psycopg.Error:  # the schema is not there yet
                continue
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.kill()
        process.wait(timeout=10)
    assert 10 <= committed < MATCHES, "the league should be killed mid-run"
    assert _results(killed)[0], "committed matches survive SIGKILL"

    resumed = arena(*_league(killed))  # the same command
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed after" in resumed.stdout
    assert "***" in resumed.stdout  # the database named without its password
    assert _results(killed) == _results(straight)

    listing = arena("matches", "--db", killed, "--limit", "3")
    assert listing.returncode == 0, listing.stderr
    match_id = listing.stdout.split()[0]
    replay = arena("replay", match_id, "--db", killed, "--seat", "0")
    assert replay.returncode == 0, replay.stderr
    assert "final ranks" in replay.stdout
