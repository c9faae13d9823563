"""Helpers for league tests: run the real ``arena`` command in a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import subprocess
import sys
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
