"""What the ladder's look at its own headroom costs (``arena/server/headroom.py``), beside
counting the process's descriptors in ``/proc/self/fd``, with 100 to 16,000 descriptors
open (``/dev/null`` opened that often; the soft limit raised to the hard limit).

Each figure is the best of 5 rounds of 200 calls, in microseconds per call. Last line
JSON.

    .venv/bin/python scripts/bench/bench_headroom.py [--open 100,1000,4000,16000]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import timeit
from collections.abc import Callable

from arena.server.headroom import probe

CALLS = 200
ROUNDS = 5


def _best_us(call: Callable[[], object]) -> float:
    return min(timeit.repeat(call, number=CALLS, repeat=ROUNDS)) / CALLS * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--open", default="100,1000,4000,16000")
    args = parser.parse_args()
    levels = [int(n) for n in args.open.split(",")]
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    held: list[int] = []
    results = []
    for level in levels:
        if hard != resource.RLIM_INFINITY and level + 64 > hard:
            print(f"{level} descriptors: over the hard limit ({hard}), skipped")
            continue
        for _ in range(level - (len(os.listdir("/proc/self/fd")) - 1)):
            held.append(os.open(os.devnull, os.O_RDONLY))
        row = {
            "open": level,
            "probe_us": round(_best_us(probe), 1),
            "count_us": round(_best_us(lambda: os.listdir("/proc/self/fd")), 1),
        }
        results.append(row)
        print(f"{level:>6} open: probe {row['probe_us']:8.1f} us, count {row['count_us']:9.1f} us")
    for fd in held:
        os.close(fd)
    print(json.dumps({"calls": CALLS, "rounds": ROUNDS, "results": results}))


if __name__ == "__main__":
    main()
