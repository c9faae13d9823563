"""`arena league --until separated[:P]`: a league that stops once its order is known,
says which pairs are still open when it hits its cap, and refuses bad input plainly. The
leagues are real processes; the refusals call the command's ``main`` in the test's
process (``in_process.run_arena``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from in_process import run_arena

from .conftest import arena


def test_a_league_stops_once_every_neighbour_pair_is_separated(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    run = arena(
        "league", "--bot", "g=greedy", "--bot", "r=random", "--table-size", "2",
        "--until", "separated", "--matches", "400", "--seed", "1", "--db", str(db), "--quiet",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("separated after ")
    played = int(last.split()[2])
    assert 1 < played < 400  # greedy beats random: the order is known long before the cap
    # The verdict is the board the rule decided on, which the line names.
    rated = int(last.split("the board after ")[1].split()[0])
    assert rated <= played
    probability = float(last.split("with probability ")[1].split()[0])
    assert probability >= 0.95
    assert last.endswith(": g > r") or ": g > r (" in last
    rows = json.loads(run_arena("ratings", "--db", str(db), "--format", "json").stdout)
    assert [r["name"] for r in rows] == ["g", "r"]
    assert rows[0]["p_above_next"] >= 0.95


def test_the_cap_names_the_pairs_still_unresolved(tmp_path: Path) -> None:
    run = arena(
        "league", "--bot", "g=greedy", "--bot", "r1=random", "--bot", "r2=random",
        "--table-size", "3", "--until", "separated:0.99", "--matches", "4", "--seed", "2",
        "--db", str(tmp_path / "l.db"), "--quiet",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("not separated after 4 matches (the cap)")
    assert "r1 > r2" in last or "r2 > r1" in last  # two equal bots cannot be separated


@pytest.mark.parametrize(
    ("until", "matches", "schedule", "says"),
    [
        ("separated:1", "10", "informative", "between 0.5 and 1"),
        ("separated:0.5", "10", "informative", "between 0.5 and 1"),
        ("separated:high", "10", "informative", "is not a probability"),
        ("sigma", "10", "informative", "unknown stopping rule"),
        ("separated", "1", "informative", "less than one round"),
        ("separated", "10", "fastest", "unknown schedule 'fastest'"),
    ],
)
def test_bad_stop_rules_and_schedules_are_refused_plainly(
    tmp_path: Path, until: str, matches: str, schedule: str, says: str
) -> None:
    db = tmp_path / "l.db"
    run = run_arena(
        "league", "--bot", "a=random", "--bot", "b=random", "--bot", "c=random",
        "--bot", "d=random", "--bot", "e=random", "--table-size", "4", "--until", until,
        "--matches", matches, "--schedule", schedule, "--db", str(db), "--quiet",
    )  # fmt: skip
    assert run.returncode == 2
    assert says in run.stderr
    assert "Error" not in run.stderr
    assert "Traceback" not in run.stderr
    assert not db.exists()
