"""No bot can learn a league's deals: not from the seed, not from a match id, not from a
record published while the same deal is still in play at another table."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

from .conftest import ROOT, arena

SPY = f"{sys.executable} {ROOT / 'tests' / 'bots' / 'spy.py'}"


def _seeds(db: Path) -> list[int]:
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT seed FROM matches ORDER BY idx")]


def _spied(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_an_unseeded_league_draws_a_secret_seed_and_keeps_it(tmp_path: Path) -> None:
    args = ["league", "--bot", "a=random", "--bot", "b=random", "--bot", "c=greedy",
            "--table-size", "2", "--matches", "3", "--quiet"]  # fmt: skip
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    assert arena(*args, "--db", str(first)).returncode == 0
    assert arena(*args, "--db", str(second)).returncode == 0
    # The same command in two databases: the same league id, but other deals.
    assert _seeds(first) != _seeds(second)
    with sqlite3.connect(first) as conn:
        (config_json,) = conn.execute("SELECT config_json FROM leagues").fetchone()
    stored = json.loads(config_json)
    assert stored["settings"]["seed"] is None
    assert isinstance(stored["seed"], int)
    assert stored["seed"].bit_length() > 32  # not a small number a bot could search
    # Resuming a finished league finds the stored seed and plays nothing new.
    again = arena(*args, "--db", str(first))
    assert again.returncode == 0, again.stderr
    assert len(_seeds(first)) == 3


def test_a_given_seed_reproduces_the_deals(tmp_path: Path) -> None:
    args = ["league", "--bot", "a=random", "--bot", "b=random", "--table-size", "2",
            "--matches", "2", "--seed", "42", "--quiet"]  # fmt: skip
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    assert arena(*args, "--db", str(first)).returncode == 0
    assert arena(*args, "--db", str(second)).returncode == 0
    assert _seeds(first) == _seeds(second)


def _duplicate_league(db: Path, spy_logs: list[Path], *extra: str) -> list[str]:
    spies = [arg for i, log in enumerate(spy_logs)
             for arg in ("--bot", f"spy-{i}=cmd:{SPY} --log {log}")]  # fmt: skip
    return ["league", *spies, "--bot", "a=random", "--bot", "b=greedy", "--table-size", "2",
            "--duplicate", "--seed", "3", "--db", str(db), "--quiet", *extra]  # fmt: skip


def test_a_duplicate_league_never_publishes_a_record_to_its_bots(tmp_path: Path) -> None:
    logs = [tmp_path / "spy-0.jsonl", tmp_path / "spy-1.jsonl"]
    run = arena(*_duplicate_league(tmp_path / "dup.db", logs, "--matches", "6"))
    assert run.returncode == 0, run.stderr
    overs = [e for log in logs for e in _spied(log) if e["event"] == "over"]
    assert len(overs) == 6  # 6 matches of 2 seats among 4 bots: each spy plays 3
    assert all(e["record_bytes"] == 0 for e in overs)
    # Without --duplicate the same bots get each finished match's record.
    plain = [tmp_path / "plain-0.jsonl", tmp_path / "plain-1.jsonl"]
    args = [a for a in _duplicate_league(tmp_path / "plain.db", plain, "--matches", "2")
            if a != "--duplicate"]  # fmt: skip
    assert arena(*args).returncode == 0
    assert all(e["record_bytes"] > 0 for log in plain for e in _spied(log) if e["event"] == "over")


def test_replay_waits_until_the_whole_deal_group_is_in(tmp_path: Path) -> None:
    db = tmp_path / "dup.db"
    # 4 bots at tables of 2: each deal is played at 2 tables; 1 match leaves its group
    # half played.
    logs = [tmp_path / "s0.jsonl", tmp_path / "s1.jsonl"]
    run = arena(*_duplicate_league(db, logs, "--matches", "1"))
    assert run.returncode == 0, run.stderr
    with sqlite3.connect(db) as conn:
        (match_id,) = conn.execute("SELECT id FROM matches").fetchone()
        # As if the league were still running (or killed before its next table).
        conn.execute("UPDATE leagues SET status = 'running'")
    refused = arena("replay", match_id, "--db", str(db))
    assert refused.returncode == 2
    assert "still to be played at other tables (1 of 2 played)" in refused.stderr
    assert "Traceback" not in refused.stderr
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE leagues SET status = 'finished'")
    # A finished league will never play the rest of that group: the replay is safe.
    shown = arena("replay", match_id, "--db", str(db))
    assert shown.returncode == 0, shown.stderr
