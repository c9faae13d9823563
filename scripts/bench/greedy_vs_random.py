#!/usr/bin/env python3
"""A game's built-in ``greedy`` policy against ``random``, in-process (docs/BENCHMARKS.md).

Plays ``--matches`` matches of ``--game`` through the Game interface: one seat greedy,
the others random, the greedy seat rotating with the match index (match m: seat
m mod players), every match shuffled by its own seed. The figure is the greedy seat's
win share: a match it ranks 1st alone counts 1, a first place shared by k seats 1/k
(a capped Fluxx game: 1/players), with its standard error (sample sd / sqrt(N)); a
random seat's share would be 1/players. The last line printed is JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time

from arena.games import get


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="fluxx")
    parser.add_argument("--preset", default="")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = get(args.game)
    preset = args.preset or game.default_preset
    config = game.make_config(args.players, preset)
    greedy, random_policy = game.policies["greedy"], game.policies["random"]
    shares: list[float] = []
    started = time.perf_counter()
    for m in range(args.matches):
        seed = args.seed * 1_000_003 + m
        me = m % args.players
        seats = [
            greedy(seed) if s == me else random_policy(seed * 8 + s) for s in range(args.players)
        ]
        state = game.new_match(config, random.Random(seed))
        while (seat := game.deciding(state)) is not None:
            game.apply_legal(state, seats[seat].choose(game.observe(state, seat)))
        result = game.result(state)
        assert result is not None
        firsts = sum(1 for r in result.ranks if r == 1)
        shares.append(1 / firsts if result.ranks[me] == 1 else 0.0)
    n = len(shares)
    mean = sum(shares) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in shares) / (n - 1)) if n > 1 else math.nan
    figures = {
        "game": game.name,
        "preset": preset,
        "players": args.players,
        "matches": n,
        "greedy_win_share": round(mean, 4),
        "se": round(sd / math.sqrt(n), 4),
        "random_share": round(1 / args.players, 4),
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
