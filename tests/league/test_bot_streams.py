"""`--bot-streams N` caps how many matches a remote or managed bot plays at once."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from .conftest import ROOT, arena

SPY = f"{sys.executable} {ROOT / 'tests' / 'bots' / 'spy.py'}"


def _most_at_once(log: Path) -> int:
    """The most matches the spy was in at once, from its start/over lines (written in
    the order its hooks ran)."""
    now = most = 0
    for line in log.read_text().splitlines():
        now += 1 if json.loads(line)["event"] == "start" else -1
        most = max(most, now)
    return most


def _league(tmp_path: Path, name: str, *extra: str) -> int:
    log = tmp_path / f"{name}.jsonl"
    run = arena("league", "--bot", f"spy=cmd:{SPY} --log {log}", "--bot", "a=random",
                "--bot", "b=random", "--bot", "c=greedy", "--table-size", "2",
                "--matches", "12", "--concurrency", "4", "--seed", "2",
                "--db", str(tmp_path / f"{name}.db"), "--quiet", *extra)  # fmt: skip
    assert run.returncode == 0, run.stderr
    return _most_at_once(log)


@pytest.mark.slow
def test_a_capped_bot_plays_one_match_at_a_time(tmp_path: Path) -> None:
    assert _league(tmp_path, "capped", "--bot-streams", "1") == 1
    # Without the cap the same league seats it at several tables at once.
    assert _league(tmp_path, "free") > 1


@pytest.mark.slow
def test_a_negative_cap_is_refused(tmp_path: Path) -> None:
    db = str(tmp_path / "x.db")
    run = arena("league", "--bot", "a=random", "--bot", "b=random", "--table-size", "2",
                "--matches", "1", "--bot-streams", "-1", "--db", db)  # fmt: skip
    assert run.returncode == 2
    assert "bot_streams must not be negative" in run.stderr


@pytest.mark.slow
def test_a_bot_that_does_not_play_the_league_tables_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "spy.jsonl"
    db = tmp_path / "x.db"
    run = arena("league", "--bot", f"spy=cmd:{SPY} --log {log} --players 4", "--bot", "a=random",
                "--table-size", "2", "--matches", "1", "--db", str(db))  # fmt: skip
    assert run.returncode == 2
    assert "bot 'spy' cannot play this league's tables: it plays tables of [4]" in run.stderr
    assert not db.exists()
