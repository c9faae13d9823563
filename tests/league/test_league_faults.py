"""Bots that die during a league: the league goes on, and says what happened."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from .conftest import ROOT, arena


@contextmanager
def remote_crash_bot(after: int) -> Iterator[str]:
    """tests/bots/crash_bot.py as a remote bot (it dies after ``after`` decisions);
    yields its endpoint and ends it by its pid."""
    bot = subprocess.Popen(
        [sys.executable, "tests/bots/crash_bot.py", "--after", str(after), "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert bot.stdout is not None
        yield bot.stdout.readline().strip().rsplit(" ", 1)[-1]
    finally:
        bot.kill()
        bot.wait(timeout=10)
        if bot.stdout is not None:
            bot.stdout.close()


@pytest.mark.slow
def test_a_managed_bot_that_dies_is_restarted_and_its_faults_reported(tmp_path: Path) -> None:
    db = tmp_path / "faults.db"
    crash = f"python {ROOT / 'tests' / 'bots' / 'crash_bot.py'} --after 25"
    run = arena(
        "league",
        "--bot", "r1=random", "--bot", "r2=random", "--bot", f"crashy=cmd:{crash}",
        "--table-size", "3", "--matches", "10", "--concurrency", "1",
        "--max-strikes", "2", "--deadline-ms", "500", "--db", str(db), "--quiet",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "10 matches" in run.stdout
    assert "managed bot crashy died and was restarted" in run.stdout
    assert "its stderr before: crash_bot: exiting after 25 decisions" in run.stdout
    assert "crashy:" in run.stdout  # its faults are reported
    rows = {r["name"]: r for r in json.loads(arena("ratings", "--db", str(db), "--format",
                                                    "json").stdout)}  # fmt: skip
    assert rows["crashy"]["errors"] > 0
    assert rows["crashy"]["matches"] == 10
    assert rows["r1"]["errors"] == rows["r2"]["errors"] == 0


@pytest.mark.slow
def test_a_remote_bot_that_dies_forfeits_its_matches_and_the_league_goes_on(
    tmp_path: Path,
) -> None:
    with remote_crash_bot(after=15) as endpoint:
        db = tmp_path / "remote.db"
        started = time.monotonic()
        run = arena(
            "league",
            "--bot", "r1=random", "--bot", "r2=random", "--bot", f"remote={endpoint}",
            "--table-size", "3", "--matches", "8", "--concurrency", "2",
            "--max-strikes", "2", "--db", str(db), "--quiet",
        )  # fmt: skip
        elapsed = time.monotonic() - started
    assert run.returncode == 0, run.stderr
    assert "8 matches" in run.stdout
    assert "remote:" in run.stdout  # its faults are reported
    assert elapsed < 30  # a dead bot costs its later matches a quick probe, not a wait
    rows = {r["name"]: r for r in json.loads(arena("ratings", "--db", str(db), "--format",
                                                    "json").stdout)}  # fmt: skip
    assert rows["remote"]["errors"] > 0
    assert rows["remote"]["rank"] == 3


@pytest.mark.slow
def test_a_dead_remote_bot_is_not_probed_before_every_match(tmp_path: Path) -> None:
    # Each probe of a dead bot may wait PROBE_TIMEOUT_S (1 s); probing before each of
    # its 30 matches would take 25 s or more. After a failed probe its matches fault at
    # once for a while (2 s, doubling), so a few probes cover the whole league.
    with remote_crash_bot(after=5) as endpoint:
        started = time.monotonic()
        run = arena(
            "league",
            "--bot", "r1=random", "--bot", "r2=random", "--bot", f"dead={endpoint}",
            "--table-size", "3", "--matches", "30", "--concurrency", "1",
            "--max-strikes", "1", "--db", str(tmp_path / "dead.db"), "--quiet",
        )  # fmt: skip
        elapsed = time.monotonic() - started
    assert run.returncode == 0, run.stderr
    assert "30 matches" in run.stdout
    assert elapsed < 15, f"{elapsed:.1f} s: a dead bot slowed every one of its matches"
