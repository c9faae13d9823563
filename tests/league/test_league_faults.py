"""Bots that die during a league: the league goes on, and says what happened."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from arena.league import entrants as entrants_module
from arena.league.config import Entrant, LeagueConfig
from arena.league.runner import run_league
from arena.referee.hello import hello
from arena.store import open_store

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
        run = arena(
            "league",
            "--bot", "r1=random", "--bot", "r2=random", "--bot", f"remote={endpoint}",
            "--table-size", "3", "--matches", "8", "--concurrency", "2",
            "--max-strikes", "2", "--db", str(db), "--quiet",
        )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "8 matches" in run.stdout
    assert "remote:" in run.stdout  # its faults are reported
    rows = {r["name"]: r for r in json.loads(arena("ratings", "--db", str(db), "--format",
                                                    "json").stdout)}  # fmt: skip
    assert rows["remote"]["errors"] > 0
    assert rows["remote"]["rank"] == 3


@pytest.mark.slow
def test_a_dead_remote_bot_is_not_probed_before_every_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each probe of a dead bot may wait PROBE_TIMEOUT_S (1 s); probing before each of
    # its matches would cost every one of them that. After a failed probe its matches
    # fault at once for a while (2 s, doubling up to 30 s), so a few probes cover the
    # whole league however long it takes. Counted, not timed: the real Hello runs, and
    # this spy only counts its calls (a loaded machine once took 23 s for this league).
    probes: list[str] = []
    real_hello = hello

    async def counted_hello(*args: Any, **kwargs: Any) -> Any:
        probes.append(str(args[1]))
        return await real_hello(*args, **kwargs)

    monkeypatch.setattr(entrants_module, "hello", counted_hello)
    with remote_crash_bot(after=5) as endpoint:
        config = LeagueConfig(
            bots=(
                Entrant("r1", builtin="random"),
                Entrant("r2", builtin="random"),
                Entrant("dead", endpoint=endpoint),
            ),
            name="dead",
            table_size=3,
            matches=30,
            concurrency=1,
            max_strikes=1,
            db=str(tmp_path / "dead.db"),
        )
        store = open_store(config.db)
        try:
            summary = asyncio.run(run_league(config, store))
        finally:
            store.close()
    assert summary.played == 30
    # The Hello before the league, then a handful of probes (log2 of the league's
    # length in seconds), never one per match: it died in its first matches.
    assert 2 <= len(probes) <= 12, probes
