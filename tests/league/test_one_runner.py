"""Two processes never run the same league at once: the second is refused with a clear
message and the first goes on untouched (the claim in ``Store.claim``)."""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import ARENA, ROOT, arena

SLEEPY = f"{sys.executable} {ROOT / 'tests' / 'bots' / 'sleepy_bot.py'} --sleep-ms 20"


@pytest.mark.slow
def test_the_same_league_twice_at_once_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    args = ["league", "--bot", f"slow=cmd:{SLEEPY}", "--bot", "a=random", "--table-size", "2",
            "--matches", "3", "--seed", "1", "--db", str(db), "--quiet"]  # fmt: skip
    first = subprocess.Popen(
        [*ARENA, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 30
        started = False
        while not started and time.monotonic() < deadline and first.poll() is None:
            time.sleep(0.05)
            if db.exists():  # (its tables may not be made yet)
                with contextlib.suppress(sqlite3.OperationalError), sqlite3.connect(db) as conn:
                    started = bool(conn.execute("SELECT count(*) FROM leagues").fetchone()[0])
        assert started, "the first league should be running"
        second = arena(*args)
        assert second.returncode == 2
        assert "is already running on" in second.stderr
        assert "Traceback" not in second.stderr
        _, err = first.communicate(timeout=120)
    finally:
        first.kill()
        first.wait(timeout=10)
    assert first.returncode == 0, err
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 3
    # Once it is over, the same command may run again (it resumes: nothing to play).
    assert arena(*args).returncode == 0
