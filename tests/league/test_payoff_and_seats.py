"""`arena ratings --payoff` and `--seats`: the head-to-head matrix, alpha-Rank next to
TrueSkill, significant cycles, and seat advantage with standard errors. The league is a
real ``arena league`` process; the reports call the command's ``main`` in the test's
process (``in_process.run_arena``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from in_process import run_arena

from arena.league.payoff import alpha_rank, payoff, significant_cycles
from arena.league.seats import seat_lines
from arena.store import open_store

from .conftest import arena

Row = tuple[str, int, str, int, int]


def duels(winner: str, loser: str, won: int, lost: int, start: int) -> list[Row]:
    """Two-player matches: ``winner`` ahead ``won`` times and behind ``lost`` times."""
    rows: list[Row] = []
    for i in range(won + lost):
        first, second = (winner, loser) if i < won else (loser, winner)
        rows += [(f"m{start + i}", 0, first, 10, 1), (f"m{start + i}", 1, second, 0, 2)]
    return rows


def test_rock_paper_scissors_is_a_significant_cycle_that_alpha_rank_splits() -> None:
    rows = duels("rock", "scissors", 45, 15, 0)
    rows += duels("scissors", "paper", 45, 15, 100)
    rows += duels("paper", "rock", 45, 15, 200)
    table = payoff(rows)
    assert table.share("rock", "scissors") == 0.75
    assert table.met[("rock", "scissors")] == 60
    assert significant_cycles(table) == [("paper", "rock", "scissors")]
    mass = alpha_rank(table, ["rock", "paper", "scissors"])
    assert all(m == pytest.approx(1 / 3, abs=1e-6) for m in mass.values())


def test_a_narrow_cycle_is_not_significant_and_a_dominant_bot_takes_the_mass() -> None:
    rows = duels("a", "b", 33, 27, 0) + duels("b", "c", 33, 27, 100)
    rows += duels("c", "a", 33, 27, 200)
    assert significant_cycles(payoff(rows)) == []  # 55% on 60 matches is not enough
    rows += duels("top", "a", 50, 10, 300) + duels("top", "b", 50, 10, 400)
    rows += duels("top", "c", 50, 10, 500)
    mass = alpha_rank(payoff(rows), ["top", "a", "b", "c"])
    assert mass["top"] > 0.99


def test_seat_lines_give_means_and_standard_errors() -> None:
    rows = [(f"m{i}", s, f"b{s}", 10 - 4 * s + (i % 2), s + 1) for i in range(10) for s in (0, 1)]
    first, second = seat_lines(rows)
    assert (first.matches, first.mean_points, first.mean_rank) == (10, 10.5, 1.0)
    assert second.mean_points == 6.5
    assert first.points_se == pytest.approx(0.5 / (10**0.5) * (10 / 9) ** 0.5)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("reports") / "l.db"
    run = arena(
        "league", "--bot", "g=greedy", "--bot", "r1=random", "--bot", "r2=random",
        "--table-size", "3", "--matches", "30", "--seed", "4", "--db", str(path), "--quiet",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return path


def test_seats_report_on_a_league(db: Path) -> None:
    run = run_arena("ratings", "--db", str(db), "--seats", "--format", "json")
    assert run.returncode == 0, run.stderr
    (report,) = json.loads(run.stdout)
    assert [s["seat"] for s in report["seats"]] == [0, 1, 2]
    assert {s["matches"] for s in report["seats"]} == {30}
    assert sum(s["mean_rank"] for s in report["seats"]) == pytest.approx(6, abs=0.2)
    text = run_arena("ratings", "--db", str(db), "--seats").stdout
    assert "by seat (mean ± standard error)" in text


@pytest.mark.slow
def test_payoff_report_on_a_league(db: Path) -> None:
    (report,) = json.loads(
        run_arena("ratings", "--db", str(db), "--payoff", "--format", "json").stdout
    )
    ahead = {(h["bot"], h["opponent"]): h for h in report["head_to_head"]}
    assert ahead[("g", "r1")]["matches"] == 30
    assert ahead[("g", "r1")]["ahead_share"] + ahead[("r1", "g")]["ahead_share"] == 1
    assert report["ranking"][0]["bot"] == "g"
    assert report["ranking"][0]["alpha_rank"] == 1
    text = run_arena("ratings", "--db", str(db), "--payoff").stdout
    assert "alpha-Rank" in text
    assert "significant cycles: none" in text


@pytest.mark.slow
def test_reports_on_a_ladder_without_matches_say_so(db: Path, tmp_path: Path) -> None:
    run = run_arena("ratings", "--db", str(db), "--payoff", "--ladder", "serve/abluxxen/amigo/4p")
    assert run.returncode == 2
    assert "no finished matches on ladder 'serve/abluxxen/amigo/4p'" in run.stderr
    empty = tmp_path / "empty.db"
    open_store(empty).close()
    run = run_arena("ratings", "--db", str(empty), "--payoff")
    assert run.returncode == 1
    assert "no rated matches in this database yet: the --payoff report" in run.stderr
    run = run_arena("ratings", "--db", str(db), "--seats", "--format", "csv")
    assert run.returncode == 2
    assert "--seats is shown as table or json" in run.stderr
