"""``--game NAME`` on every command that plays or checks matches: the default game when
absent, the named one when given, and a clear refusal (exit status 2, naming the games
the arena plays) of a game nobody registered, before anything is touched. The refusals
call each command's ``main`` in the test's process (``in_process.run_arena``); the games
played are real processes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from in_process import run_arena

from arena.games import DEFAULT_GAME, names

ROOT = Path(__file__).resolve().parents[1]


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


@pytest.mark.parametrize(
    "command",
    [
        ["match", "--bot", "random", "--bot", "greedy"],
        ["league", "--bot", "random", "--bot", "greedy", "--table-size", "2", "--matches", "1"],
        ["serve"],
        ["check-bot", "127.0.0.1:1"],
        ["selfplay", "--games", "1"],
    ],
    ids=lambda c: c[0],
)
def test_an_unknown_game_is_refused_by_name(command: list[str], tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    extra = ["--db", str(db)] if command[0] in ("league", "serve") else []
    result = run_arena(*command, *extra, "--game", "no-such-game")
    assert result.returncode == 2, result.stderr
    assert "unknown game 'no-such-game'" in result.stderr
    assert ", ".join(names()) in result.stderr
    assert not db.exists()


@pytest.mark.slow
def test_the_named_game_is_played(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl.gz"
    played = arena(
        "match", "--game", DEFAULT_GAME, "--bot", "random", "--bot", "greedy",
        "--seed", "3", "--record", str(record),
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    shown = arena("replay", str(record), "--all")
    assert shown.returncode == 0, shown.stderr
    selfplay = arena("selfplay", "--game", DEFAULT_GAME, "--games", "2", "--players", "2")
    assert selfplay.returncode == 0, selfplay.stderr
    assert selfplay.stdout.count("game ") == 2


@pytest.mark.slow
def test_a_league_file_names_its_game(tmp_path: Path) -> None:
    league = tmp_path / "league.toml"
    league.write_text(
        f'game = "{DEFAULT_GAME}"\ntable_size = 2\nmatches = 2\n'
        '[[bot]]\nname = "a"\nbuiltin = "random"\n[[bot]]\nname = "b"\nbuiltin = "random"\n'
    )
    db = tmp_path / "l.db"
    result = arena("league", str(league), "--db", str(db), "--quiet", "--name", "g")
    assert result.returncode == 0, result.stderr
    assert f"g/{DEFAULT_GAME}/" in result.stdout
    league.write_text(league.read_text().replace(f'game = "{DEFAULT_GAME}"', 'game = "nope"'))
    refused = arena("league", str(league), "--db", str(tmp_path / "m.db"), "--name", "h")
    assert refused.returncode == 2
    assert "unknown game 'nope'" in refused.stderr
