"""Fluxx wherever a game appears: ``arena match|league|selfplay|replay|serve --game
fluxx``, a league file's ``game = "fluxx"``, ladders per game, preset and table size,
ratings with the draw probability of Fluxx's ranks, and clear refusals of presets,
options and tables Fluxx does not have (exit status 2, naming what is allowed). The
refusals call the command's ``main`` in the test's process (``in_process.run_arena``);
what plays runs as real processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from in_process import run_arena

from arena.games.fluxx.game import CAP_RATE
from arena.league.config import LeagueConfig
from arena.league.runner import rating_model

ROOT = Path(__file__).resolve().parents[2]


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_league_rates_with_the_draw_probability_of_its_table(players: int) -> None:
    """The losers tie: n-2 of n-1 neighbours, and all of them in a capped game (at least
    0.01 at two seats)."""
    model = rating_model(LeagueConfig(game="fluxx", table_size=players))
    tied = (players - 2 + CAP_RATE["pegasus-2011"]) / (players - 1)
    assert model.draw_probability == pytest.approx(max(0.01, tied))
    abluxxen = rating_model(LeagueConfig(game="abluxxen", table_size=players if players < 6 else 5))
    assert abluxxen.draw_probability == pytest.approx(0.01)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            ["--preset", "pegasus-2012"],
            "unknown preset 'pegasus-2012'; choose one of pegasus-2011,",
        ),
        (["--deals", "2"], "a Fluxx match is one game"),
        ([arg for s in "cdefg" for arg in ("--bot", f"{s}=random")], "played by 2 to 6 players"),
    ],
    ids=["preset", "deals", "table"],
)
def test_a_setting_fluxx_does_not_have_is_refused_in_words(extra: list[str], message: str) -> None:
    result = run_arena("match", "--game", "fluxx", "--bot", "a=random", "--bot", "b=greedy", *extra)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr


@pytest.mark.slow
def test_match_record_and_replay(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl.gz"
    played = arena(
        "match", "--game", "fluxx", "--bot", "r=random", "--bot", "g=greedy", "--bot", "s=random",
        "--seed", "3", "--record", str(record),
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "ended because a Goal is met" in played.stdout  # the record keeps "goal"
    mine = arena("replay", str(record), "--seat", "0")
    everything = arena("replay", str(record), "--all")
    assert mine.returncode == everything.returncode == 0, mine.stderr + everything.stderr
    assert "g is dealt three hidden" in mine.stdout  # another seat's deal stays hidden
    assert "g is dealt three hidden" not in everything.stdout
    assert " wins" in everything.stdout


@pytest.mark.slow
def test_selfplay_plays_fluxx() -> None:
    result = arena("selfplay", "--game", "fluxx", "--games", "2", "--players", "6")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("game ") == 2


@pytest.mark.slow
def test_a_league_file_names_fluxx_and_its_ladder(tmp_path: Path) -> None:
    league = tmp_path / "league.toml"
    league.write_text(
        'game = "fluxx"\npreset = "pegasus-2011-escalation"\ntable_size = 3\nmatches = 6\n'
        '[[bot]]\nname = "a"\nbuiltin = "random"\n[[bot]]\nname = "b"\nbuiltin = "random"\n'
        '[[bot]]\nname = "c"\nbuiltin = "greedy"\n'
    )
    db = tmp_path / "l.db"
    result = arena("league", str(league), "--db", str(db), "--quiet", "--name", "g", "--seed", "1")
    assert result.returncode == 0, result.stderr
    ratings = arena("ratings", "--db", str(db), "--format", "json")
    assert ratings.returncode == 0, ratings.stderr
    rows = json.loads(ratings.stdout)
    assert {row["ladder"] for row in rows} == {"g/fluxx/pegasus-2011-escalation/3p"}
    assert sum(row["matches"] for row in rows) == 18


def test_serve_refuses_a_preset_fluxx_does_not_have(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    result = run_arena("serve", "--game", "fluxx", "--preset", "amigo", "--db", str(db))
    assert result.returncode == 2, result.stderr
    assert "unknown preset 'amigo'" in result.stderr
    assert not db.exists()
