"""No bot can learn a league's deals: not from the seed, not from a match id, not from a
record published while the same deal is still in play at another table."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from arena.league.schedule import Scheduler

from .conftest import ARENA, ROOT, arena

SPY = f"{sys.executable} {ROOT / 'tests' / 'bots' / 'spy.py'}"
SLEEPY = f"{sys.executable} {ROOT / 'tests' / 'bots' / 'sleepy_bot.py'}"


def _seeds(db: Path) -> list[int]:
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT seed FROM matches ORDER BY idx")]


def _spied(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_match_finished_before_a_kill_is_rated_as_played_not_dealt_again(
    tmp_path: Path,
) -> None:
    # Match 0 seats two slow bots, match 1 two spies; they run at once, so match 1
    # finishes first and waits (held) for match 0 to be rated. The league is killed then.
    # The schedule depends on the seed and the bots' order, not their names, so it can
    # be read off a Scheduler with placeholder names.
    seed = 4
    scheduler = Scheduler(["p0", "p1", "p2", "p3"], 2, seed)
    first, second = scheduler.next_table(), scheduler.next_table()
    roles: dict[str, str] = {}
    for slow, position in enumerate(first.seats):
        roles[position] = f"slow-{slow}=cmd:{SLEEPY} --sleep-ms 25"
    logs = {}
    for spy, position in enumerate(second.seats):
        logs[spy] = tmp_path / f"spy-{spy}.jsonl"
        roles[position] = f"spy-{spy}=cmd:{SPY} --log {logs[spy]}"
    db = tmp_path / "held.db"
    bots = [arg for p in ("p0", "p1", "p2", "p3") for arg in ("--bot", roles[p])]
    args = [*ARENA, "league", *bots, "--table-size", "2", "--matches", "2",
            "--concurrency", "2", "--seed", str(seed), "--db", str(db), "--quiet"]  # fmt: skip
    process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        held = 0
        deadline = time.monotonic() + 60
        while held == 0 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.02)
            if not db.exists():
                continue  # connect() would create it
            with contextlib.suppress(sqlite3.OperationalError), sqlite3.connect(db) as conn:
                held = conn.execute("SELECT count(*) FROM held_matches").fetchone()[0]
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.kill()
        _, stderr = process.communicate(timeout=10)
    assert held == 1, f"match 1 should have been held (stderr: {stderr!r})"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 0

    resumed = arena(*args[len(ARENA) :])
    assert resumed.returncode == 0, resumed.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 2
        assert conn.execute("SELECT count(*) FROM held_matches").fetchone()[0] == 0
    # Each spy was dealt match 1's deal once: it was not played again after the kill.
    for log in logs.values():
        starts = [e["match_id"] for e in _spied(log) if e["event"] == "start"]
        assert len(starts) == 1
        assert str(starts[0]).endswith("/000001")


@pytest.mark.slow
def test_a_named_league_from_before_random_seeds_resumes_with_its_command(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.db"
    args = ["league", "--name", "old", "--bot", "a=random", "--bot", "b=random",
            "--table-size", "2", "--db", str(db), "--quiet"]  # fmt: skip
    assert arena(*args, "--matches", "2", "--seed", "1").returncode == 0
    # As the arena stored it before: seed 1 (the old default) in the identity and the
    # settings, and no drawn seed of its own.
    with sqlite3.connect(db) as conn:
        (config_json,) = conn.execute("SELECT config_json FROM leagues").fetchone()
        legacy = json.loads(config_json)
        del legacy["seed"]
        conn.execute("UPDATE leagues SET config_json = ?", (json.dumps(legacy),))
    run = arena(*args, "--matches", "2")
    assert run.returncode == 0, run.stderr
    assert "resumed after 2" in run.stdout  # the same league, already played out
    assert len(_seeds(db)) == 2
