#!/usr/bin/env python3
"""What the joint model under every leaderboard costs (arena/league/joint.py): the
stored counts' rows, the fit, and the rank intervals' draws, on ladders of growing size.

Each ladder is ``--matches`` matches of random tables of 4 among ``--bots`` bots, ranked
by a Plackett-Luce draw from skills spread over 3 logits: the worst case for the counts
(random tables make nearly every table a choice set of its own; a schedule that brings
neighbours together makes far fewer). CPU seconds, one process.

    .venv/bin/python scripts/bench/bench_joint.py                   # 8/800, 50/20k, 200/100k
    .venv/bin/python scripts/bench/bench_joint.py --sizes 200:1000000
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from arena.league.joint import Outcomes, fit, ranked  # noqa: E402


def ladder(bots: int, matches: int, seed: int = 1) -> Outcomes:
    rng = random.Random(seed)
    names = [f"bot-{i:03d}" for i in range(bots)]
    strength = {b: 3 * i / bots for i, b in enumerate(names)}
    outcomes = Outcomes()
    for _ in range(matches):
        left = rng.sample(names, 4)
        ranks: dict[str, int] = {}
        while left:
            pick = rng.choices(left, [math.exp(strength[b]) for b in left])[0]
            ranks[pick] = len(ranks) + 1
            left.remove(pick)
        outcomes.add(ranks)
    return outcomes


def measure(bots: int, matches: int) -> dict[str, float]:
    tracemalloc.start()
    outcomes = ladder(bots, matches)
    counts_mb = tracemalloc.get_traced_memory()[0] / 1e6
    tracemalloc.stop()
    started = time.process_time()
    joint = fit(outcomes)
    fit_s = time.process_time() - started
    started = time.process_time()
    fit(outcomes, start=joint)
    refit_s = time.process_time() - started
    order = joint.order(joint.bots)
    started = time.process_time()
    ranked(joint, order)
    draws_s = time.process_time() - started
    figures = {
        "bots": bots,
        "matches": matches,
        "count_rows": len(outcomes.counts),
        "counts_mb": round(counts_mb, 1),
        "fit_ms": round(fit_s * 1000, 1),
        "refit_ms": round(refit_s * 1000, 1),
        "intervals_ms": round(draws_s * 1000, 1),
    }
    print(
        f"{bots} bots, {matches} matches: {len(outcomes.counts)} count rows "
        f"({counts_mb:.1f} MB in memory), fit {fit_s * 1000:.1f} ms, warm refit "
        f"{refit_s * 1000:.1f} ms, intervals {draws_s * 1000:.1f} ms"
    )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes",
        default="8:800,50:20000,200:100000",
        help="comma-separated BOTS:MATCHES ladders",
    )
    args = parser.parse_args()
    # The model imports numpy on its first fit; imported here, that is not counted as
    # the first ladder's fit.
    import numpy  # noqa: F401

    results = []
    for size in args.sizes.split(","):
        bots, matches = (int(x) for x in size.split(":"))
        results.append(measure(bots, matches))
    print(json.dumps({"ladders": results}))


if __name__ == "__main__":
    main()
