"""The console script runs and rejects bad options with a clear message."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import main


def test_selfplay_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--games", "2", "--players", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert out.count("game ") == 2
    assert "wins per seat" in out


def test_selfplay_rejects_six_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--players", "6"]) == 2
    assert "2 to 5 players" in capsys.readouterr().err


def test_selfplay_rejects_zero_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--games", "0"]) == 2
    assert "--games 0 must be at least 1" in capsys.readouterr().err


def test_a_missing_database_is_named_without_wrong_advice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.db"
    for command in (["token", "list"], ["ratings"], ["matches"]):
        assert main([*command, "--db", str(missing)]) == 2
        err = capsys.readouterr().err
        assert f"no database at {missing}" in err
        assert "run a league first" not in err
    assert not missing.exists()


def test_a_file_that_is_no_database_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    assert main(["ratings", "--db", str(notes)]) == 2
    assert "is not an SQLite database (not touching it)" in capsys.readouterr().err
    assert notes.read_text() == "my notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
