"""Where the test suite's time goes: a pytest plugin that notes each test's wall time and
CPU time (its worker's own, and that of the processes it started and waited for), and a
report of them by test file. CPU time is the figure to compare on a shared machine: the
wall time of a test swings with the machine's load, what it computes does not.

    rm -rf /tmp/suite-cpu
    SUITE_CPU=/tmp/suite-cpu PYTHONPATH=scripts/bench \
        .venv/bin/python -m pytest -n 2 -q -m "not slow" -p suite_cpu
    .venv/bin/python scripts/bench/suite_cpu.py /tmp/suite-cpu

A process a test starts and leaves to a fixture is counted where the fixture reaps it (a
module's server: in the module's last test); the PostgreSQL server's processes, which
are not the worker's children, are not counted.
"""

from __future__ import annotations

import collections
import json
import os
import resource
import sys
import time
from collections.abc import Generator
from pathlib import Path

import pytest


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _note(row: list[object]) -> None:
    folder = os.environ.get("SUITE_CPU")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(Path(folder) / f"{worker}.jsonl", "a", encoding="utf-8") as out:
            out.write(json.dumps([worker, *row]) + "\n")


def pytest_collection_finish(session: pytest.Session) -> None:
    own, children = _cpu()
    _note(["(collection)", 0.0, time.time(), own, children])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    start, (own, children) = time.time(), _cpu()
    yield
    end, (own_after, children_after) = time.time(), _cpu()
    _note([item.nodeid, start, end, own_after - own, children_after - children])


def report(folder: Path, top: int = 30) -> str:
    """Per worker: when collection ended and what it cost; then the test files by CPU."""
    rows = [json.loads(line) for path in sorted(folder.glob("*.jsonl")) for line in path.open()]
    tests = [r for r in rows if r[1] != "(collection)"]
    lines = []
    for worker, _, _, _, own, children in (r for r in rows if r[1] == "(collection)"):
        mine = [r for r in tests if r[0] == worker]
        lines.append(
            f"{worker}: collection {own + children:.1f} s CPU; {len(mine)} tests, "
            f"{sum(r[3] - r[2] for r in mine):.1f} s wall, "
            f"{sum(r[4] for r in mine):.1f} s CPU own, {sum(r[5] for r in mine):.1f} s children"
        )
    files: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for _, nodeid, start, end, own, children in tests:
        entry = files[nodeid.split("::")[0]]
        entry[0] += end - start
        entry[1] += own
        entry[2] += children
        entry[3] += 1
    lines.append(f"{'wall s':>7} {'own s':>6} {'child s':>7} {'tests':>5}  file")
    for name, (wall, own, children, count) in sorted(
        files.items(), key=lambda kv: -(kv[1][1] + kv[1][2])
    )[:top]:
        lines.append(f"{wall:7.1f} {own:6.1f} {children:7.1f} {int(count):5d}  {name}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 30))
