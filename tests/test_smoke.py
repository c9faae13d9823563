"""The console script runs and rejects bad options with a clear message."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from arena.cli import main
from arena.store import StoreError, open_store


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


def test_another_application_s_database_is_left_alone(tmp_path: Path) -> None:
    """Read and checked through SQLite (never by opening the file beside it, which would
    drop the process's locks on a database it has open), for reading and writing."""
    theirs = tmp_path / "theirs.db"
    with sqlite3.connect(theirs) as db:
        db.execute("PRAGMA application_id = 1234")
        db.execute("CREATE TABLE notes (text)")
    before = theirs.read_bytes()
    for read_only in (True, False):
        with pytest.raises(StoreError, match="belongs to another application"):
            open_store(theirs, read_only=read_only)
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    with pytest.raises(StoreError, match="is not an SQLite database"):
        open_store(notes)
    assert notes.read_text() == "my notes\n"
    assert theirs.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "theirs.db"]
