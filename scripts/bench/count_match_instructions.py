#!/usr/bin/env python3
"""Play N matches of a game through the referee against instant seats
(``bench_referee._InstantSeat``, or with ``--at-once`` seats that say their open and
close never wait and read no MatchStart or MatchOver, as the in-process seats of
built-in bots), for counting the referee's instructions under valgrind: the difference
between two N, divided by the difference of N, is the instructions per match, stable
where CPU time on a shared machine is not. ``--alone``: the same matches through the
Game interface alone (every call the referee makes into it: ``game_work.play_alone``);
the referee's own instructions are the difference.

Run (a fixed hash seed: dictionaries' and sets' layouts, and so their costs, depend on it):
  PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
       .venv/bin/python scripts/bench/count_match_instructions.py --game openspiel:kuhn_poker -n 300
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from bench_referee import _InstantSeat
from game_work import AtOnceSeat, play_alone

from arena.games import AnyGame, get
from arena.gctune import tune_for_latency
from arena.referee import MatchSpec, Seat, run_match


async def _play(game: AnyGame, config: Any, matches: int, seat: type[_InstantSeat]) -> int:
    decisions = 0
    for index in range(matches):
        spec = MatchSpec(match_id=f"c{index}", config=config, seed=index, game=game)
        seats: list[Seat] = [seat(f"s{s}") for s in range(game.players_of(config))]
        decisions += (await run_match(spec, seats)).decisions
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
    game = get(args.game)
    config = game.make_config(args.players, args.preset)
    # The collector as the arena's processes set it (arena/gctune.py), after the game's
    # modules are loaded: else a full collection walks them now and then, and the count
    # depends on where the matches' allocations happen to cross its threshold.
    tune_for_latency()
    if args.alone:
        decisions, _ = play_alone(game, config, args.n)
    else:
        seat = AtOnceSeat if args.at_once else _InstantSeat
        decisions = asyncio.run(_play(game, config, args.n, seat))
    print(decisions, "decisions")


if __name__ == "__main__":
    main()
