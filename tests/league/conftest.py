"""Helpers for league tests: run the real ``arena`` command in a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from arena.league.config import LeagueConfig
from arena.league.runner import run_league
from arena.store import open_store

ROOT = Path(__file__).resolve().parents[2]
ARENA = [sys.executable, "-m", "arena.cli"]
RANDOM_BOT = f"python {ROOT / 'sample_bots' / 'random_bot.py'}"
GREEDY_BOT = f"python {ROOT / 'sample_bots' / 'greedy_bot.py'}"


def arena(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``arena ARGS`` and capture its output."""
    return subprocess.run(
        [*ARENA, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )


def digest(path: Path) -> str:
    """A hash of a file and its WAL, to prove a database was not touched."""
    h = hashlib.sha256()
    for p in (path, path.with_name(path.name + "-wal")):
        if p.exists():
            h.update(p.read_bytes())
    return h.hexdigest()


def run_league_in_process(config: LeagueConfig, stop_after: int | None = None) -> None:
    """Run the league of ``config`` on its database, in this process; interrupted (its
    task cancelled) once ``stop_after`` matches are committed, if given."""

    async def main() -> None:
        store = open_store(config.db)
        league = asyncio.current_task()
        assert league is not None

        def on_commit(committed: int) -> None:
            if stop_after is not None and committed >= stop_after:
                league.cancel()

        try:
            with contextlib.suppress(asyncio.CancelledError):
                await run_league(config, store, on_commit=on_commit)
        finally:
            store.close()

    asyncio.run(main())


def kill_league_mid_run(args: list[str], db: Path, committed: int) -> int:
    """Start ``arena ARGS`` (a league on the SQLite file ``db``), SIGKILL it once at
    least ``committed`` matches are committed (no cleanup, as a crash or the OOM killer
    would), and return how many were committed when it died. No deadline of its own:
    on a loaded machine the league commits slowly, not wrongly. It waits for the
    commits or for the league to end by itself (then the count tells the caller what
    went wrong), and pytest's timeout guards against a hang."""
    process = subprocess.Popen(
        [*ARENA, *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    seen = 0
    try:
        while seen < committed and process.poll() is None:
            time.sleep(0.05)
            seen = _committed(db, seen)
        process.send_signal(signal.SIGKILL)  # nothing, if it ended by itself
    finally:
        process.kill()
        process.wait(timeout=10)
    return _committed(db, seen)


def _committed(db: Path, otherwise: int) -> int:
    """The matches committed in ``db`` (``otherwise`` while it cannot be read)."""
    if not db.exists():  # else connect() would create it
        return otherwise
    try:
        with sqlite3.connect(db, timeout=1) as conn:
            count: int = conn.execute("SELECT count(*) FROM matches").fetchone()[0]
            return count
    except sqlite3.OperationalError:
        return otherwise
