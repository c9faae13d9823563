#!/usr/bin/env python3
"""Reads at scale on both backends: ``arena ratings`` and ``arena matches``
on a database of ``--matches`` recorded matches (default 1,000,000), on SQLite and on
PostgreSQL.

1. Builds the history on each backend with ``arena.store.synthetic`` (bulk SQL in one
   transaction, the rows as the arena writes them, among ``--bots`` bots); PostgreSQL
   on a throwaway server (``arena.store.pg_cluster``: initdb into a temporary folder,
   stopped at the end) unless ``--pg-url`` names one. ``--keep DIR`` keeps the SQLite
   file (and reuses it when it is there).
2. Runs each command as a user does, a new process each time, ``--runs`` times:
   ``arena ratings``, ``arena matches`` (the last 50 of every league), ``arena matches
   --league L --bot B`` (one bot's last 50). Each run reports the command's answer (from
   its start, after the interpreter and the imports: opening the database, the queries,
   the output) and the process's wall time; the medians are kept. The floor, a process
   that only imports the command (the interpreter and the imports), is measured too.

Prints the figures and a last line of JSON: per backend, each command's median answer
(``NAME_s``) and wall time (``NAME_wall_s``), the floor and the builds' seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from arena.store import open_store  # noqa: E402
from arena.store.pg_cluster import TempCluster  # noqa: E402
from arena.store.registry import BotStatus  # noqa: E402
from arena.store.synthetic import add_bots, add_matches  # noqa: E402

LEAGUE = "history"
LADDER = "history/game/preset/4p"


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def build(db: str, matches: int, bots: int) -> float:
    """The history; seconds taken."""
    started = time.perf_counter()
    store = open_store(db)
    try:
        names = [f"hist-{i:04d}" for i in range(bots)]
        add_bots(store, names, owner="history", status=BotStatus.SUSPENDED)
        record = b"\x1f\x8b" + b"r" * 1200  # about a real record's size
        add_matches(store, league_id=LEAGUE, ladder=LADDER, bots=names, count=matches,
                    start=time.time() - 0.5 * matches, record=record)  # fmt: skip
    finally:
        store.close()
    return time.perf_counter() - started


_TIMED = """
import sys, time
started = time.perf_counter()
from arena.cli import main
imported = time.perf_counter()
status = main(sys.argv[1:])
print(f"{imported - started} {time.perf_counter() - imported}", file=sys.stderr)
sys.exit(status)
"""


def timed(args: list[str], runs: int) -> tuple[float, float]:
    """Median seconds of ``arena ARGS``, each run a new process (which must succeed):
    the command's own answer (after the imports) and the whole process's wall time."""
    answers, walls = [], []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _TIMED, *args], cwd=ROOT, capture_output=True, text=True
        )
        walls.append(time.perf_counter() - started)
        if done.returncode:
            raise SystemExit(f"arena {' '.join(args)} failed: {done.stderr.strip()}")
        answers.append(float(done.stderr.strip().splitlines()[-1].split()[1]))
    return statistics.median(answers), statistics.median(walls)


def import_floor(runs: int, modules: str = "arena.cli") -> float:
    """Median wall seconds of a process that only imports ``modules``."""
    walls = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {modules}"], cwd=ROOT, check=True)
        walls.append(time.perf_counter() - started)
    return statistics.median(walls)


def measure(db: str, runs: int) -> dict[str, float]:
    commands = {
        "ratings": ["ratings", "--db", db],
        "matches": ["matches", "--db", db],
        "matches_bot": ["matches", "--db", db, "--league", LEAGUE, "--bot", "hist-0007"],
    }
    figures = {}
    for name, argv in commands.items():
        answer, wall = timed(argv, runs)
        figures[f"{name}_s"] = round(answer, 3)
        figures[f"{name}_wall_s"] = round(wall, 3)
        log(f"  {name:<12} {answer:.3f} s answering, {wall:.3f} s in all (medians of {runs})")
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1_000_000, help="history (1000000)")
    parser.add_argument("--bots", type=int, default=200, help="bots of the history (200)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (5)")
    parser.add_argument("--pg-url", help="an empty PostgreSQL database to use instead")
    parser.add_argument("--keep", metavar="DIR", help="keep (and reuse) the SQLite file here")
    parser.add_argument(
        "--backends", default="sqlite,postgresql", help="which to measure (both by default)"
    )
    args = parser.parse_args()

    result: dict[str, object] = {"matches": args.matches, "bots": args.bots}
    floor = import_floor(args.runs)
    log(f"floor (the interpreter and the arena's imports): {floor:.3f} s")
    result["floor_s"] = round(floor, 3)
    driver = import_floor(args.runs, "arena.cli, psycopg") - floor
    log(f"importing psycopg on top (part of every answer on PostgreSQL): {driver:.3f} s")
    result["psycopg_import_s"] = round(driver, 3)
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-db-"))
    folder.mkdir(parents=True, exist_ok=True)
    backends = args.backends.split(",")
    sqlite_db = str(folder / f"history-{args.matches}.db")
    if "sqlite" in backends:
        if not Path(sqlite_db).exists():
            log(f"building {args.matches} matches on SQLite ...")
            result["sqlite_build_s"] = round(build(sqlite_db, args.matches, args.bots), 1)
        log(f"SQLite ({os.path.getsize(sqlite_db) / 1e9:.2f} GB):")
        result["sqlite"] = measure(sqlite_db, args.runs)

    cluster = None
    try:
        if "postgresql" in backends:
            if args.pg_url:
                pg_db = args.pg_url
            else:
                cluster = TempCluster()
                cluster.start()
                pg_db = cluster.create_database("history")
            log(f"building {args.matches} matches on PostgreSQL ...")
            result["postgresql_build_s"] = round(build(pg_db, args.matches, args.bots), 1)
            log("PostgreSQL:")
            result["postgresql"] = measure(pg_db, args.runs)
    finally:
        if cluster is not None:
            cluster.stop()
        if not args.keep:
            for path in folder.iterdir():
                path.unlink()
            folder.rmdir()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
