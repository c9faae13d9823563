#!/usr/bin/env python3
"""Play N matches of a game through the referee against instant seats
(``bench_referee._InstantSeat``, or with ``--at-once`` seats that say their open and
close never wait), for counting the referee's instructions under valgrind: the
difference between two N, divided by the difference of N, is the instructions per match,
stable where CPU time on a shared machine is not.

Run: valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
       .venv/bin/python scripts/bench/count_match_instructions.py --game openspiel:kuhn_poker -n 300
"""

from __future__ import annotations

import argparse
import asyncio

from bench_referee import _InstantSeat

from arena.games import get
from arena.referee import MatchSpec, Seat, run_match


class _AtOnceSeat(_InstantSeat):
    at_once = True


async def _play(name: str, players: int, matches: int, seat: type[_InstantSeat]) -> int:
    game = get(name)
    config = game.make_config(players)
    decisions = 0
    for index in range(matches):
        spec = MatchSpec(match_id=f"c{index}", config=config, seed=index, game=game)
        seats: list[Seat] = [seat(f"s{s}") for s in range(players)]
        decisions += (await run_match(spec, seats)).decisions
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="openspiel:kuhn_poker")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("-n", type=int, default=100, help="matches")
    parser.add_argument("--at-once", action="store_true")
    args = parser.parse_args()
    seat = _AtOnceSeat if args.at_once else _InstantSeat
    print(asyncio.run(_play(args.game, args.players, args.n, seat)), "decisions")


if __name__ == "__main__":
    main()
