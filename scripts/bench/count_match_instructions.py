#!/usr/bin/env python3
"""Play N matches of a game through the referee against instant seats
(``bench_referee._InstantSeat``, or with ``--at-once`` seats that say their open and
close never wait and read no MatchStart or MatchOver, as the in-process seats of
built-in bots), for counting the referee's instructions under valgrind: the difference
between two N, divided by the difference of N, is the instructions per match, stable
where CPU time on a shared machine is not. ``--alone``: the same matches through the
Game interface alone (observe, encode the request, apply: ``bench_openspiel``'s game
figure); the referee's own instructions are the difference.

Run: valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
       .venv/bin/python scripts/bench/count_match_instructions.py --game openspiel:kuhn_poker -n 300
"""

from __future__ import annotations

import argparse
import asyncio
import random

from bench_referee import _InstantSeat

from arena.games import get
from arena.referee import MatchSpec, Seat, run_match


class _AtOnceSeat(_InstantSeat):
    at_once = True
    reads_messages = False


async def _play(
    name: str, players: int, preset: str | None, matches: int, seat: type[_InstantSeat]
) -> int:
    game = get(name)
    config = game.make_config(players, preset)
    decisions = 0
    for index in range(matches):
        spec = MatchSpec(match_id=f"c{index}", config=config, seed=index, game=game)
        seats: list[Seat] = [seat(f"s{s}") for s in range(players)]
        decisions += (await run_match(spec, seats)).decisions
    return decisions


def _alone(name: str, players: int, preset: str | None, matches: int) -> int:
    game = get(name)
    config = game.make_config(players, preset)
    decisions = 0
    for index in range(matches):
        state = game.new_match(config, random.Random(index))
        while (seat := game.deciding(state)) is not None:
            obs = game.observe(state, seat)
            game.wire.decide_request(1, 1000, 0, obs, ())
            game.apply_legal(state, obs.legal[0])
            decisions += 1
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="openspiel:kuhn_poker")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--preset", default=None)
    parser.add_argument("-n", type=int, default=100, help="matches")
    parser.add_argument("--at-once", action="store_true")
    parser.add_argument("--alone", action="store_true", help="the game's own work alone")
    args = parser.parse_args()
    if args.alone:
        decisions = _alone(args.game, args.players, args.preset, args.n)
    else:
        seat = _AtOnceSeat if args.at_once else _InstantSeat
        decisions = asyncio.run(_play(args.game, args.players, args.preset, args.n, seat))
    print(decisions, "decisions")


if __name__ == "__main__":
    main()
