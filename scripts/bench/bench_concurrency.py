#!/usr/bin/env python3
"""League throughput as concurrency rises: matches/s must not fall with matches in flight.

Two setups, each a league per level of ``--concurrency`` (1, 4, 16, 64, 256, 1000 by
default) on a fresh database, 2-player tables, the league's default (informative)
schedule unless ``--schedule`` says otherwise:

- ``builtin``: four ``random`` built-ins (in-process seats);
- ``remote``: one remote SDK bot (``sample_bots/random_bot.py``, started here as a
  process once for all levels, killed by its pid at the end) and three ``random``
  built-ins.

Each level plays ``max(--matches, level)`` matches, so the highest levels have every
match in flight at once. Printed per level: matches/s, decisions/s, seconds to the first
commit and in all, and the CPU time per match of the arena's process and of the remote
bot's (work counted, steadier than seconds on a busy machine). The last line is JSON
with each setup's figures by level and the ratio of each level's matches/s to the
setup's best (goal: at least 0.8 at 1000).

    .venv/bin/python scripts/bench/bench_concurrency.py [--levels 1,4,16,64,256,1000]
        [--matches 200] [--setups builtin,remote] [--schedule informative]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from arena.gctune import tune_for_latency  # noqa: E402
from arena.league.config import Entrant, LeagueConfig  # noqa: E402
from arena.league.runner import run_league  # noqa: E402
from arena.sdk.runner import LISTENING  # noqa: E402
from arena.store import open_store  # noqa: E402

SETUPS = ("builtin", "remote")


def start_bot() -> tuple[subprocess.Popen[str], str]:
    """``sample_bots/random_bot.py`` on a free port: the process and its endpoint."""
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "sample_bots" / "random_bot.py"), "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    prefix = LISTENING.format(address="")
    if not line.startswith(prefix):
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        raise SystemExit(f"the random bot did not start: {line!r}")
    return process, line[len(prefix) :]


def cpu_s(pid: int | None = None) -> float:
    """CPU seconds (user + system) used so far by this process, or by process ``pid``."""
    if pid is None:
        return time.process_time()
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def entrants(setup: str, endpoint: str) -> tuple[Entrant, ...]:
    """The league's four bots."""
    builtins = tuple(Entrant(f"random-{i}", builtin="random") for i in range(4))
    if setup == "builtin":
        return builtins
    return (Entrant("remote", endpoint=endpoint), *builtins[:3])


async def league(
    setup: str, level: int, matches: int, schedule: str, endpoint: str, db: Path, bot: int | None
) -> dict[str, Any]:
    """One league at concurrency ``level``: its figures."""
    config = LeagueConfig(
        bots=entrants(setup, endpoint),
        name=f"{setup}-{level}",
        table_size=2,
        matches=matches,
        concurrency=level,
        schedule=schedule,
        seed=1,
        db=str(db),
    )
    store = open_store(config.db)
    arena_cpu = cpu_s()
    bot_cpu = cpu_s(bot) if bot is not None else 0.0
    started = time.perf_counter()
    first: list[float] = []

    def on_commit(count: int) -> None:
        if not first:
            first.append(time.perf_counter() - started)

    try:
        summary = await run_league(config, store, on_commit=on_commit)
    finally:
        store.close()
    wall = time.perf_counter() - started
    arena_cpu = cpu_s() - arena_cpu
    bot_cpu = cpu_s(bot) - bot_cpu if bot is not None else 0.0
    faults = sum(summary.faulted.values())
    return {
        "matches": summary.played,
        "wall_s": round(wall, 2),
        "first_commit_s": round(first[0], 2) if first else None,
        "matches_per_s": round(summary.played / wall, 2),
        "decisions_per_s": round(summary.decisions / wall, 1),
        "faults": faults,
        "arena_cpu_ms_per_match": round(1000 * arena_cpu / max(summary.played, 1), 2),
        "bot_cpu_ms_per_match": round(1000 * bot_cpu / max(summary.played, 1), 2),
    }


async def run_setup(
    setup: str, levels: list[int], matches: int, schedule: str, tmp: Path
) -> dict[str, Any]:
    """Every level of one setup: figures by level and ratios to the best level."""
    bot = None
    endpoint = ""
    if setup == "remote":
        bot, endpoint = start_bot()
    by_level: dict[int, dict[str, Any]] = {}
    try:
        for level in levels:
            figures = await league(
                setup,
                level,
                max(matches, level),
                schedule,
                endpoint,
                tmp / f"{setup}-{level}.db",
                bot.pid if bot is not None else None,
            )
            by_level[level] = figures
            print(
                f"{setup:7} concurrency {level:5}: {figures['matches_per_s']:7.2f} matches/s, "
                f"{figures['decisions_per_s']:8.1f} decisions/s, first commit "
                f"{figures['first_commit_s']} s, {figures['matches']} matches in "
                f"{figures['wall_s']} s, {figures['faults']} faults; CPU ms per match: arena "
                f"{figures['arena_cpu_ms_per_match']}, bot {figures['bot_cpu_ms_per_match']}",
                flush=True,
            )
    finally:
        if bot is not None:
            os.kill(bot.pid, signal.SIGKILL)
            bot.wait()
    best = max(f["matches_per_s"] for f in by_level.values())
    return {
        "matches_per_s": {str(k): f["matches_per_s"] for k, f in by_level.items()},
        "first_commit_s": {str(k): f["first_commit_s"] for k, f in by_level.items()},
        "arena_cpu_ms_per_match": {
            str(k): f["arena_cpu_ms_per_match"] for k, f in by_level.items()
        },
        "bot_cpu_ms_per_match": {str(k): f["bot_cpu_ms_per_match"] for k, f in by_level.items()},
        "ratio_to_best": {str(k): round(f["matches_per_s"] / best, 3) for k, f in by_level.items()},
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="1,4,16,64,256,1000")
    parser.add_argument(
        "--matches", type=int, default=200, help="matches per level, at least the level"
    )
    parser.add_argument("--setups", default=",".join(SETUPS))
    parser.add_argument("--schedule", default="informative")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    setups = [s for s in args.setups.split(",") if s]
    unknown = set(setups) - set(SETUPS)
    if unknown:
        raise SystemExit(f"unknown setup(s) {sorted(unknown)}; choose from {SETUPS}")
    tune_for_latency()  # as `arena league` does
    result: dict[str, Any] = {"levels": levels, "schedule": args.schedule}
    with tempfile.TemporaryDirectory() as tmp:
        for setup in setups:
            result[setup] = await run_setup(setup, levels, args.matches, args.schedule, Path(tmp))
    print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main())
