"""`arena league` end to end with real bot processes, the views, and bad input."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from .conftest import GREEDY_BOT, RANDOM_BOT, ROOT, arena, digest, kill_league_mid_run


def league_args(db: Path, matches: int = 12, *extra: str) -> list[str]:
    return [
        "league",
        "--bot", f"greedy-a=cmd:{GREEDY_BOT}",
        "--bot", f"greedy-b=cmd:{GREEDY_BOT}",
        "--bot", f"random-a=cmd:{RANDOM_BOT}",
        "--bot", f"random-b=cmd:{RANDOM_BOT}",
        "--table-size", "3",
        "--matches", str(matches),
        "--concurrency", "4",
        "--seed", "5",
        "--db", str(db),
        "--quiet",
        *extra,
    ]  # fmt: skip


@pytest.mark.slow
def test_a_league_with_real_bot_processes_and_its_views(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    run = arena(*league_args(db))
    assert run.returncode == 0, run.stderr
    assert "12 matches" in run.stdout
    assert "greedy-a" in run.stdout

    rows = json.loads(arena("ratings", "--db", str(db), "--format", "json").stdout)
    assert {r["name"] for r in rows} == {"greedy-a", "greedy-b", "random-a", "random-b"}
    assert sum(r["matches"] for r in rows) == 12 * 3
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    conservative = [r["conservative"] for r in rows]
    assert conservative == sorted(conservative, reverse=True)
    for r in rows:
        assert r["conservative"] == pytest.approx(r["mu"] - 3 * r["sigma"], abs=0.01)

    table = list(
        csv.DictReader(io.StringIO(arena("ratings", "--db", str(db), "--format", "csv").stdout))
    )
    assert {r["name"] for r in table} == {r["name"] for r in rows}
    markdown = arena("ratings", "--db", str(db), "--format", "markdown").stdout
    assert "| # | bot |" in markdown
    report = tmp_path / "report.html"
    assert arena("ratings", "--db", str(db), "--format", "html", "-o", str(report)).returncode == 0
    assert '<div class="chart"' in report.read_text()

    listing = arena("matches", "--db", str(db)).stdout.splitlines()
    match_lines = [line for line in listing if "/abluxxen/" in line or "/0000" in line]
    assert len(match_lines) == 12
    match_id = match_lines[0].split()[0]
    replay = arena("replay", match_id, "--db", str(db), "--seat", "1")
    assert replay.returncode == 0, replay.stderr
    assert "final ranks" in replay.stdout

    again = arena(*league_args(db))  # the same command: already complete, nothing doubled
    assert again.returncode == 0
    assert "0 played now" in again.stdout
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 12


def _results(db: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    with sqlite3.connect(db) as conn:
        matches = conn.execute(
            "SELECT m.idx, s.seat, s.bot, s.score, s.rank, m.seed, m.end_reason "
            "FROM matches m JOIN seats s ON s.match_id = m.id ORDER BY m.idx, s.seat"
        ).fetchall()
        ratings = conn.execute(
            "SELECT bot, mu, sigma, matches FROM ratings ORDER BY bot"
        ).fetchall()
    return matches, ratings


@pytest.mark.slow
def test_a_league_killed_with_sigkill_resumes_to_the_uninterrupted_result(
    tmp_path: Path,
) -> None:
    matches = 40
    straight = tmp_path / "straight.db"
    assert arena(*league_args(straight, matches)).returncode == 0

    killed = tmp_path / "killed.db"
    committed = kill_league_mid_run(league_args(killed, matches), killed, 8)
    assert 8 <= committed < matches, "the league should be killed mid-run"
    partial, _ = _results(killed)
    assert partial, "committed matches survive SIGKILL"

    resumed = arena(*league_args(killed, matches, "--resume"))
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed after" in resumed.stdout
    assert _results(killed) == _results(straight)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--preset", "fluxx"], "unknown preset 'fluxx'"),
        (["--table-size", "5"], "needs at least 5 bots"),
        (["--bot", "r1=random"], "duplicate bot name"),
        (["--bot", "gone=127.0.0.1:9"], "no bot answers at 127.0.0.1:9"),
        (["--matches", "0"], "give --matches"),
        (["--schedule", "swiss"], "unknown schedule 'swiss'"),
        (["--name", "bad name/x"], "bad league name 'bad name/x'"),
    ],
)
@pytest.mark.slow
def test_bad_configurations_fail_clearly_and_leave_the_database_alone(
    tmp_path: Path, args: list[str], message: str
) -> None:
    db = tmp_path / "keep.db"
    base = ["league", "--bot", "r1=random", "--bot", "r2=random", "--bot", "g1=greedy",
            "--table-size", "3", "--matches", "3", "--db", str(db), "--quiet"]  # fmt: skip
    assert arena(*base).returncode == 0
    before = digest(db)
    run = arena(*base, *args)  # later flags override earlier ones; --bot adds a bot
    assert run.returncode == 2, run.stdout + run.stderr
    assert message in run.stderr
    assert digest(db) == before


@pytest.mark.slow
def test_a_refused_league_leaves_no_new_database_file_behind(tmp_path: Path) -> None:
    db = tmp_path / "fresh.db"
    run = arena("league", "--bot", "a=random", "--bot", "gone=127.0.0.1:9", "--table-size", "2",
                "--matches", "1", "--db", str(db), "--quiet")  # fmt: skip
    assert run.returncode == 2
    assert "no bot answers at 127.0.0.1:9" in run.stderr
    assert list(tmp_path.iterdir()) == []
    run = arena("league", "--bot", "a=random", "--bot", "b=random", "--table-size", "2",
                "--matches", "1", "--db", str(db), "--resume")  # fmt: skip
    assert run.returncode == 2
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_unreadable_league_files_fail_clearly(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("preset = [unclosed\n")
    run = arena("league", str(bad))
    assert run.returncode == 2
    assert "not valid TOML" in run.stderr
    run = arena("league", str(tmp_path / "missing.toml"))
    assert run.returncode == 2
    assert "does not exist" in run.stderr
    unknown = tmp_path / "unknown.toml"
    unknown.write_text('colour = "red"\n')
    run = arena("league", str(unknown))
    assert run.returncode == 2
    assert "unknown setting(s) colour" in run.stderr


def test_a_database_of_something_else_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE precious (x)")
    before = digest(other)
    run = arena("league", "--bot", "a=random", "--bot", "b=random", "--table-size", "2",
                "--matches", "1", "--db", str(other))  # fmt: skip
    assert run.returncode == 2
    assert "not touching it" in run.stderr
    assert digest(other) == before


@pytest.mark.slow
def test_resume_of_a_league_that_does_not_exist_says_so(tmp_path: Path) -> None:
    run = arena("league", "--bot", "a=random", "--bot", "b=random", "--table-size", "2",
                "--matches", "1", "--db", str(tmp_path / "x.db"), "--resume")  # fmt: skip
    assert run.returncode == 2
    assert "to resume" in run.stderr


def test_the_example_league_file_is_valid(tmp_path: Path) -> None:
    """examples/league.toml parses (its bots are real commands; only validate here)."""
    from arena.league.config import build_config, load_toml

    config = build_config(load_toml(ROOT / "examples" / "league.toml"), {"bots": []})
    assert config.table_size == 4
    assert {b.kind for b in config.bots} == {"managed", "builtin"}


@pytest.mark.slow
def test_a_managed_bot_that_dies_at_start_shows_its_last_words(tmp_path: Path) -> None:
    crash = "python -c \"import sys; sys.stderr.write('boom: no model file\\n'); sys.exit(3)\""
    run = arena("league", "--bot", f"a=cmd:{crash}", "--bot", "b=random", "--table-size", "2",
                "--matches", "1", "--db", str(tmp_path / "x.db"), "--quiet")  # fmt: skip
    assert run.returncode == 2
    assert "exited with status 3 before listening" in run.stderr
    assert "boom: no model file" in run.stderr


@pytest.mark.slow
def test_a_changed_league_says_which_settings_differ(tmp_path: Path) -> None:
    args = ["league", "--name", "x", "--bot", "a=random", "--bot", "b=random",
            "--table-size", "2", "--db", str(tmp_path / "x.db"), "--quiet"]  # fmt: skip
    assert arena(*args, "--matches", "1").returncode == 0
    run = arena(*args, "--matches", "2")
    assert run.returncode == 2
    assert "(matches 1 -> 2)" in run.stderr
