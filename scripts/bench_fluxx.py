#!/usr/bin/env python3
"""Fluxx engine speed: uniformly random legal play, one process, pure Python.

Plays 4-player ``pegasus-2011`` games (by default) with every decision chosen uniformly
among the canonical legal actions by the checked ``apply``, history and events on, as in
normal use. Run with ARENA_PURE_PYTHON=1. The last line is JSON:
{"games_per_s": ..., "decisions_per_s": ..., "decisions_per_cpu_s": ...,
"mean_decisions_per_game": ...} (per CPU second: the figure to trust on a busy machine).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from arena.games import fluxx as fx


def run(games: int, players: int, preset: str, seed: int) -> dict[str, float]:
    """Play ``games`` random games and time them."""
    config = fx.make_config(players, preset)
    rng = random.Random(seed)
    decisions = 0
    apply = fx.apply
    choice = rng.choice
    started = time.perf_counter()
    cpu_started = time.process_time()
    for _ in range(games):
        state = fx.new_game(config, rng)
        while state.result is None:
            apply(state, choice(state.legal))
            decisions += 1
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return {
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed, 1),
        "decisions_per_cpu_s": round(decisions / cpu, 1),
        "mean_decisions_per_game": round(decisions / games, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default=fx.DEFAULT_PRESET)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="report the best of N runs")
    args = parser.parse_args()
    print(f"{args.games} games, {args.players} players, preset {args.preset}, one process")
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        figures = run(args.games, args.players, args.preset, args.seed)
        if not best or figures["decisions_per_s"] > best["decisions_per_s"]:
            best = figures
    print(json.dumps(best))


if __name__ == "__main__":
    main()
