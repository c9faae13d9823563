#!/usr/bin/env python3
"""Engine speed: uniformly random legal play, one process (goal: >= 1,000 games/s).

Plays 4-player ``amigo`` games (by default) with every decision chosen uniformly among
the canonical legal actions, history and events on, as in normal use. The last line is
JSON: {"games_per_s": ..., "decisions_per_s": ..., "mean_decisions_per_game": ...}.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from arena import native
from arena.games import abluxxen as ab


def run(games: int, players: int, preset: str, seed: int) -> dict[str, float]:
    """Play ``games`` random games and time them."""
    config = ab.make_config(players, preset)
    rng = random.Random(seed)
    decisions = 0
    legal_actions = ab.legal_actions
    apply = ab.apply
    choice = rng.choice
    started = time.perf_counter()
    for _ in range(games):
        state = ab.new_game(config, rng)
        while state.kind is not None:
            apply(state, choice(legal_actions(state)))
            decisions += 1
    elapsed = time.perf_counter() - started
    return {
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed, 1),
        "mean_decisions_per_game": round(decisions / games, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="amigo")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.games} games, {args.players} players, preset {args.preset}, one process")
    figures: dict[str, object] = dict(run(args.games, args.players, args.preset, args.seed))
    figures["compiled"] = native.compiled()  # arena/native.py; ARENA_PURE_PYTHON=1 for pure
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
