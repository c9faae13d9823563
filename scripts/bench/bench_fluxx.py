#!/usr/bin/env python3
"""Fluxx engine speed beside Abluxxen's: uniformly random legal play, one process.

Plays 4-player games (by default) of both games, Fluxx ``pegasus-2011`` and Abluxxen
``amigo``, every decision chosen uniformly among the canonical legal actions and applied
by the checked ``apply``, history and events on, as in normal use. The two games take
turns in rounds (``--rounds``), so a machine whose speed drifts slows both alike; each
game's figure is its best round. The build in use is the one the process imports: the
compiled one if current, pure Python with ARENA_PURE_PYTHON=1 (arena/native.py). The
last line is JSON: per game {"decisions_per_s", "decisions_per_cpu_s", "games_per_s",
"mean_decisions_per_game"}, and "compiled" (per CPU second: the figure to trust on a
busy machine).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from arena import native
from arena.games import abluxxen as ab
from arena.games import fluxx as fx


def _fluxx(config: Any, rng: random.Random) -> int:
    state = fx.new_game(config, rng)
    apply, choice = fx.apply, rng.choice
    decisions = 0
    while state.result is None:
        apply(state, choice(state.legal))
        decisions += 1
    return decisions


def _abluxxen(config: Any, rng: random.Random) -> int:
    state = ab.new_game(config, rng)
    apply, choice, legal_actions = ab.apply, rng.choice, ab.legal_actions
    decisions = 0
    while state.kind is not None:
        apply(state, choice(legal_actions(state)))
        decisions += 1
    return decisions


def run(
    play: Callable[[Any, random.Random], int], config: Any, games: int, seed: int
) -> dict[str, float]:
    """Play ``games`` random games and time them."""
    rng = random.Random(seed)
    decisions = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    for _ in range(games):
        decisions += play(config, rng)
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return {
        "decisions_per_s": round(decisions / elapsed, 1),
        "decisions_per_cpu_s": round(decisions / cpu, 1),
        "games_per_s": round(games / elapsed, 1),
        "mean_decisions_per_game": round(decisions / games, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="Fluxx games per round")
    parser.add_argument("--abluxxen-games", type=int, default=2000, help="per round")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default=fx.DEFAULT_PRESET, help="Fluxx's")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="report each game's best round")
    args = parser.parse_args()
    print(
        f"{args.rounds} rounds of {args.games} Fluxx ({args.preset}) and "
        f"{args.abluxxen_games} Abluxxen (amigo) games, {args.players} players, one process"
    )
    tables = {
        "fluxx": (_fluxx, fx.make_config(args.players, args.preset), args.games),
        "abluxxen": (_abluxxen, ab.make_config(args.players, "amigo"), args.abluxxen_games),
    }
    best: dict[str, dict[str, float]] = {}
    for _ in range(args.rounds):
        for name, (play, config, games) in tables.items():
            figures = run(play, config, games, args.seed)
            print(name, json.dumps(figures))
            if (
                name not in best
                or figures["decisions_per_cpu_s"] > best[name]["decisions_per_cpu_s"]
            ):
                best[name] = figures
    out: dict[str, object] = dict(best)
    out["compiled"] = native.compiled()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
