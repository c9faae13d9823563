#!/usr/bin/env python3
"""The referee's own CPU per decision on OpenSpiel games against Abluxxen, side by side
in one run, and the bytes of a request.

For each game: (a) ``total``: matches run by the referee (``run_match``) against
in-process seats that answer legal_index 0 at once (``bench_referee._InstantSeat``: no
gRPC), microseconds per decision; (b) ``game``: the same matches played through the Game
interface alone (every call the referee makes into it: ``game_work.play_alone``); the
referee's own work is ``total - game``, and ``ratio`` is that figure over Abluxxen's.
Games alternate in rounds (--rounds), medians reported. Last line JSON. ``--seats
in-process``: the seats say their open and close never wait (``at_once``, as the
in-process seats of built-in bots do), so the referee calls them inline, not as tasks,
and that they read no MatchStart or MatchOver (``reads_messages = False``).

Run: .venv/bin/python scripts/bench/bench_openspiel.py [--matches N] [--rounds R]
     [--seats remote|in-process]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

from bench_referee import _InstantSeat
from game_work import AtOnceSeat, play_alone

from arena.games import get
from arena.gctune import tune_for_latency
from arena.referee import MatchSpec, Seat, run_match

TABLES: tuple[tuple[str, int, str | None], ...] = (
    ("abluxxen", 4, "amigo"),
    ("openspiel:kuhn_poker", 2, None),
    ("openspiel:leduc_poker", 2, None),
    ("openspiel:liars_dice", 2, None),
    ("openspiel:chess", 2, None),
    ("openspiel:go(board_size=9)", 2, None),
    ("openspiel:bridge(use_double_dummy_result=false)", 4, None),
)


def _config(name: str, players: int, preset: str | None) -> Any:
    return get(name).make_config(players, preset)


async def _referee(
    name: str, players: int, preset: str | None, matches: int, seat: type[_InstantSeat]
) -> float:
    game, config = get(name), _config(name, players, preset)
    decisions, started = 0, time.process_time()
    for index in range(matches):
        spec = MatchSpec(match_id=f"b{index}", config=config, seed=index, game=game)
        seats: list[Seat] = [seat(f"s{s}") for s in range(players)]
        decisions += (await run_match(spec, seats)).decisions
    return (time.process_time() - started) / decisions * 1e6


def _game_alone(name: str, players: int, preset: str | None, matches: int) -> tuple[float, float]:
    """µs per decision and mean request bytes, through the Game interface alone."""
    game, config = get(name), _config(name, players, preset)
    started = time.process_time()
    decisions, size = play_alone(game, config, matches)
    return (time.process_time() - started) / decisions * 1e6, size / decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=40, help="matches per game and round")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds")
    parser.add_argument("--seats", choices=("remote", "in-process"), default="remote")
    args = parser.parse_args()
    for name, _, _ in TABLES:
        get(name)  # every game's modules loaded before the collector is tuned (it freezes them)
    tune_for_latency()
    samples: dict[str, list[tuple[float, float, float]]] = {t[0]: [] for t in TABLES}
    for _ in range(args.rounds):
        for name, players, preset in TABLES:
            seat = AtOnceSeat if args.seats == "in-process" else _InstantSeat
            total = asyncio.run(_referee(name, players, preset, args.matches, seat))
            alone, size = _game_alone(name, players, preset, args.matches)
            samples[name].append((total, alone, size))
    out: dict[str, dict[str, float]] = {}
    for name, rows in samples.items():
        total = statistics.median(r[0] for r in rows)
        alone = statistics.median(r[1] for r in rows)
        out[name] = {
            "total_us": round(total, 1),
            "game_us": round(alone, 1),
            "referee_us": round(total - alone, 1),
            "request_bytes": round(statistics.median(r[2] for r in rows)),
        }
    base = out["abluxxen"]["referee_us"]
    for name, row in out.items():
        row["ratio"] = round(row["referee_us"] / base, 2)
        print(f"{name:50} {row}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
