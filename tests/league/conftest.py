"""Helpers for league tests: run the real ``arena`` command in a subprocess."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

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
