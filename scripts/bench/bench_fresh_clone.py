#!/usr/bin/env python3
"""How long a newcomer waits: the demo and the test suite, each from a fresh clone.

Clones the repository (a commit of it) into a temporary folder, runs ``./scripts/demo``
there and times it, then (unless ``--demo-only``) does the same for ``./scripts/test``
in a second fresh clone, so the test's time includes every install the demo did not
make. ``--cold-pip-cache`` gives each clone an empty pip cache of its own, so every
package is downloaded as on a new machine; without it pip's cache on this machine is
used. What apt installs (PostgreSQL, chromium) is installed once per machine and is not
undone, so a machine that has them shows the test's time without them.

    .venv/bin/python scripts/bench/bench_fresh_clone.py --cold-pip-cache

Last line JSON: demo_s, test_s (null with --demo-only), commit, cold_pip_cache.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def timed(command: list[str], cwd: Path, env: dict[str, str], log: Path) -> float:
    """Run ``command`` in ``cwd``, its output to ``log``; its wall time in seconds."""
    started = time.monotonic()
    with log.open("wb") as out:
        done = subprocess.run(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    elapsed = time.monotonic() - started
    if done.returncode:
        tail = log.read_text(errors="replace").splitlines()[-20:]
        sys.exit(f"{' '.join(command)} failed (exit {done.returncode}):\n" + "\n".join(tail))
    return elapsed


def fresh_clone(commit: str, into: Path) -> None:
    subprocess.run(["git", "clone", "-q", str(ROOT), str(into)], check=True)
    subprocess.run(["git", "-C", str(into), "checkout", "-q", commit], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default="HEAD", help="what to clone (default HEAD)")
    parser.add_argument("--demo-only", action="store_true", help="time the demo alone")
    parser.add_argument(
        "--cold-pip-cache", action="store_true", help="an empty pip cache for each clone"
    )
    parser.add_argument("--keep", action="store_true", help="keep the clones and their logs")
    args = parser.parse_args()
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", args.commit],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    work = Path(tempfile.mkdtemp(prefix="fresh-clone-"))
    figures: dict[str, float | None] = {"demo_s": None, "test_s": None}
    try:
        for job in ("demo",) if args.demo_only else ("demo", "test"):
            clone = work / job
            fresh_clone(commit, clone)
            env = {k: v for k, v in os.environ.items() if not k.startswith("VIRTUAL_ENV")}
            if args.cold_pip_cache:
                env["PIP_CACHE_DIR"] = str(work / f"pip-cache-{job}")
            seconds = timed([f"./scripts/{job}"], clone, env, work / f"{job}.log")
            figures[f"{job}_s"] = round(seconds, 1)
            print(f"./scripts/{job} from a fresh clone of {commit}: {seconds:.1f} s", flush=True)
    finally:
        if args.keep:
            print(f"clones and logs kept in {work}")
        else:
            subprocess.run(["rm", "-rf", str(work)], check=False)
    print(
        json.dumps(
            {
                **figures,
                "commit": commit,
                "cold_pip_cache": args.cold_pip_cache,
                "load": os.getloadavg()[0],
            }
        )
    )


if __name__ == "__main__":
    main()
