"""What earlier releases wrote still opens, resumes and replays (tests/data/v0/README.md:
a match record and an interrupted league's database, made before games became plug-ins).
The record's replays call the command's ``main`` in the test's process
(``in_process.run_arena``); the database's commands run as real processes."""

from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from in_process import run_arena

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "v0"
ARENA = [sys.executable, "-m", "arena.cli"]
LEAGUE_COMMAND = [
    "league",
    "--bot",
    "r1=random",
    "--bot",
    "g1=greedy",
    "--bot",
    "s1=cmd:.venv/bin/python sample_bots/random_bot.py",
    "--bot",
    "s2=cmd:.venv/bin/python sample_bots/greedy_bot.py",
    "--table-size",
    "3",
    "--matches",
    "300",
    "--concurrency",
    "2",
    "--seed",
    "5",
    "--name",
    "old-league",
    "--quiet",
]


def arena(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``arena ARGS`` from the repository root (the league's bots are relative)."""
    return subprocess.run(
        [*ARENA, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )


@pytest.fixture
def old_db(tmp_path: Path) -> Path:
    """The interrupted league's database, restored from its dump."""
    path = tmp_path / "old.db"
    with gzip.open(DATA / "league-interrupted.sql.gz", "rt") as dump:
        script = dump.read()
    connection = sqlite3.connect(path)
    try:
        connection.executescript(script)
    finally:
        connection.close()
    return path


@pytest.mark.parametrize(
    ("option", "expected"),
    [("--all", "match.replay-all.txt"), ("--seat=1", "match.replay-seat1.txt")],
)
def test_an_old_record_replays_word_for_word(option: str, expected: str) -> None:
    shown = run_arena("replay", str(DATA / "match.jsonl.gz"), option)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == (DATA / expected).read_text()


@pytest.mark.slow
def test_an_old_database_shows_its_ratings_matches_and_replays(old_db: Path) -> None:
    ratings = arena("ratings", "--db", str(old_db), "--format", "json")
    assert ratings.returncode == 0, ratings.stderr
    rows = json.loads(ratings.stdout)
    new = ("rank_low", "rank_high", "p_above_next")  # computed on the first read
    assert [{k: v for k, v in row.items() if k not in new} for row in rows] == json.loads(
        (DATA / "league-interrupted.ratings.json").read_text()
    )
    for row in rows:
        assert 1 <= row["rank_low"] <= row["rank"] <= row["rank_high"] <= len(rows)
    assert [row["p_above_next"] is None for row in rows] == [False] * (len(rows) - 1) + [True]
    matches = arena("matches", "--db", str(old_db), "--limit", "50")
    assert matches.returncode == 0, matches.stderr
    assert "old-league/000003" in matches.stdout
    replay = arena("replay", "old-league/000003", "--db", str(old_db), "--seat", "0")
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout == (DATA / "league-000003.replay-seat0.txt").read_text()


@pytest.mark.slow
def test_an_old_interrupted_league_resumes_with_its_own_command(old_db: Path) -> None:
    before = sqlite3.connect(old_db).execute("SELECT count(*) FROM matches").fetchone()[0]
    assert 0 < before < 300
    resumed = arena(*LEAGUE_COMMAND, "--db", str(old_db), timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert "old-league: 300 matches" in resumed.stdout
    connection = sqlite3.connect(old_db)
    try:
        played = connection.execute("SELECT count(*) FROM matches").fetchone()[0]
        ladders = {row[0] for row in connection.execute("SELECT DISTINCT ladder FROM ratings")}
    finally:
        connection.close()
    assert played == 300
    assert ladders == {"old-league/abluxxen/amigo/3p"}
