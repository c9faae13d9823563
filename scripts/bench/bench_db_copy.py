#!/usr/bin/env python3
"""How long ``arena db copy`` takes on a long history: SQLite to PostgreSQL and back.

Builds ``--matches`` recorded matches in a SQLite file (``arena.store.synthetic``, as
``bench_db_reads.py`` does: seats, records of about a real record's size, rating
history, among ``--bots`` bots), starts a throwaway PostgreSQL server
(``arena.store.pg_cluster``: initdb into a temporary folder, stopped at the end), then
runs ``arena db copy`` as a user does, a process each way: the SQLite file into an empty
PostgreSQL database, then that database into a new SQLite file. Every temporary file and
the server go at the end. Prints the figures and a last line of JSON.

    .venv/bin/python scripts/bench/bench_db_copy.py [--matches 1000000] [--bots 200]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts" / "bench"))

from bench_db_reads import build  # noqa: E402

from arena.store.pg_cluster import TempCluster  # noqa: E402


def copy_s(source: str, destination: str) -> tuple[float, str]:
    """Seconds ``arena db copy SOURCE DESTINATION`` took, and what it said."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", "db", "copy", source, destination],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    elapsed = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"arena db copy failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed, done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--bots", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-db-copy-") as tmp:
        source = str(Path(tmp) / "history.db")
        built_s = build(source, args.matches, args.bots)
        size_mb = Path(source).stat().st_size / 1e6
        print(f"built {args.matches} matches in {built_s:.1f} s ({size_mb:.0f} MB)", flush=True)
        cluster = TempCluster()
        cluster.start()
        try:
            url = cluster.create_database("copied")
            to_pg_s, said = copy_s(source, url)
            print(f"SQLite to PostgreSQL: {to_pg_s:.1f} s; {said}", flush=True)
            back = str(Path(tmp) / "back.db")
            to_sqlite_s, said = copy_s(url, back)
            print(f"PostgreSQL to SQLite: {to_sqlite_s:.1f} s; {said}", flush=True)
        finally:
            cluster.stop()
    print(
        json.dumps(
            {
                "matches": args.matches,
                "sqlite_mb": round(size_mb),
                "sqlite_to_postgres_s": round(to_pg_s, 1),
                "postgres_to_sqlite_s": round(to_sqlite_s, 1),
                "matches_per_s_to_postgres": round(args.matches / to_pg_s),
                "matches_per_s_to_sqlite": round(args.matches / to_sqlite_s),
            }
        )
    )


if __name__ == "__main__":
    main()
