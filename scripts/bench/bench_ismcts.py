#!/usr/bin/env python3
"""How strong is the ISMCTS policy? One ismcts seat against the others played by one
built-in (by default three greedy seats).

Tables of ``--players`` (4) seats of ``--game`` (its default preset; ``--preset`` names
another), the other seats played by ``--opponent`` (``greedy``; ``random`` for games
without one, e.g. ``--game openspiel:leduc_poker --players 2 --opponent random``), engine
only (no referee, no gRPC), through the Game interface: match i is dealt from seed
``--seed + i`` and the ismcts seat is ``i % players``, so every budget plays the same
deals from every seat equally often; every policy's seed is drawn per match. The
opponent itself in that seat is the control
(budget 0): at 4 seats it should win a quarter and rank 2.5 on average. Matches run in
``--processes`` worker processes (run it under ``nice -n 10`` on a shared machine).

Per budget it prints the win share (a first place shared by k seats counts 1/k), the
average rank, the mean return (the game's exact return where its result has one, as
OpenSpiel's does, else the score), each with its standard error over matches, and the
search time per decision, wall and CPU (decisions with one legal action are not
searched and not counted), the win share's 95% interval (Wilson) and the mean return's
(normal). ``--max-minutes`` stops a run early and reports the matches that finished;
the budgets are interleaved, so each has played about as many.
Last line JSON: {"game", "preset", "players", "opponent", "budgets": [{"iterations",
"matches", "win_share", "win_share_se", "win_share_ci95", "avg_rank", "avg_rank_se",
"mean_return", "mean_return_se", "mean_return_ci95", "ms_per_decision",
"max_ms_per_decision", "cpu_ms_per_decision"}, ...], "stopped_early", ...}.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from arena import native  # noqa: E402
from arena.games import AnyGame  # noqa: E402
from arena.games import get as get_game  # noqa: E402
from arena.policies import Policy  # noqa: E402
from arena.policies.ismcts import IsmctsPolicy  # noqa: E402

CONTROL = 0
"""The budget that stands for the opponent itself in the measured seat."""


@dataclass(frozen=True)
class Outcome:
    """One match, from the measured seat's side."""

    win: float
    rank: int
    ret: float
    searched: int
    search_s: float
    max_search_s: float
    cpu_s: float


@dataclass(frozen=True)
class Table:
    """What every match of a run shares."""

    game: str
    preset: str
    players: int
    opponent: str
    settings: dict[str, Any]
    """IsmctsPolicy keyword arguments."""


Task = tuple[int, int, int, Table]
"""(iterations, match index, first seed, table)."""


def play(task: Task) -> Outcome:
    """Match ``index`` with the measured seat playing ismcts at ``iterations`` (or the
    opponent)."""
    iterations, index, seed, table = task
    game: AnyGame = get_game(table.game)
    opponent = game.policies[table.opponent]
    players = table.players
    seat = index % players
    # Seeded per match: a policy that ignores the state (random) would otherwise play
    # the same moves in every match (at leduc, the same folds: the same returns).
    base = (seed + index) * 10
    policies: list[Policy] = [opponent(base + s) for s in range(players)]
    if iterations != CONTROL:
        policies[seat] = IsmctsPolicy(game, base + seat, iterations=iterations, **table.settings)
    state = game.new_match(game.make_config(players, table.preset), random.Random(seed + index))
    searched = 0
    search_s = max_s = cpu_s = 0.0
    while (deciding := game.deciding(state)) is not None:
        obs = game.observe(state, deciding)
        if deciding == seat and len(obs.legal) > 1:
            started = time.perf_counter()
            cpu_started = time.process_time()
            action = policies[deciding].choose(obs)
            took = time.perf_counter() - started
            cpu_s += time.process_time() - cpu_started
            searched += 1
            search_s += took
            max_s = max(max_s, took)
        else:
            action = policies[deciding].choose(obs)
        game.apply_legal(state, action)
    result = game.result(state)
    assert result is not None
    ranks = result.ranks
    win = 1.0 / ranks.count(1) if ranks[seat] == 1 else 0.0
    ret = float(getattr(result, "returns", result.scores)[seat])
    return Outcome(win, ranks[seat], ret, searched, search_s, max_s, cpu_s)


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its standard error."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (shared wins count fractionally)."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def summary(iterations: int, outcomes: list[Outcome], opponent: str) -> dict[str, Any]:
    """The figures of one budget."""
    win, win_se = mean_se([o.win for o in outcomes])
    low, high = wilson(sum(o.win for o in outcomes), len(outcomes))
    rank, rank_se = mean_se([float(o.rank) for o in outcomes])
    ret, ret_se = mean_se([o.ret for o in outcomes])
    searched = sum(o.searched for o in outcomes)
    return {
        "iterations": iterations,
        "policy": opponent if iterations == CONTROL else "ismcts",
        "matches": len(outcomes),
        "win_share": round(win, 4),
        "win_share_se": round(win_se, 4),
        "win_share_ci95": [round(low, 4), round(high, 4)],
        "avg_rank": round(rank, 3),
        "avg_rank_se": round(rank_se, 3),
        "mean_return": round(ret, 4),
        "mean_return_se": round(ret_se, 4),
        "mean_return_ci95": [round(ret - 1.96 * ret_se, 4), round(ret + 1.96 * ret_se, 4)],
        "searched_decisions": searched,
        "ms_per_decision": round(1000 * sum(o.search_s for o in outcomes) / max(1, searched), 2),
        "max_ms_per_decision": round(1000 * max(o.max_search_s for o in outcomes), 1),
        "cpu_ms_per_decision": round(1000 * sum(o.cpu_s for o in outcomes) / max(1, searched), 2),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="abluxxen", help="the game (abluxxen)")
    parser.add_argument("--preset", default="", help="its preset (default: the game's)")
    parser.add_argument("--players", type=int, default=4, help="seats at the table (4)")
    parser.add_argument(
        "--opponent", default="greedy", help="the built-in of the other seats (greedy)"
    )
    parser.add_argument(
        "--budgets",
        default="0,50,100,200",
        help="iterations per decision, comma-separated; 0 = greedy itself (default 0,50,100,200)",
    )
    parser.add_argument("--matches", type=int, default=500, help="matches per budget (500)")
    parser.add_argument("--seed", type=int, default=1, help="first deal seed (1)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (2)")
    parser.add_argument(
        "--max-minutes",
        type=float,
        default=0.0,
        help="stop after this long and report the matches finished (default 0: no limit)",
    )
    parser.add_argument(
        "--rollout-turns", type=int, help="playout length in turns (default: the game's ismcts)"
    )
    parser.add_argument("--exploration", type=float, help="UCB1 constant (the game's ismcts)")
    parser.add_argument("--widening", type=float, help="progressive widening (the game's ismcts)")
    parser.add_argument(
        "--tree-opponents",
        action="store_true",
        help="give the other seats tree nodes instead of modelling them by greedy",
    )
    args = parser.parse_args(argv)
    game = get_game(args.game)
    preset = args.preset or game.default_preset
    # The game's own ismcts settings (its built-in's), then what the command line says.
    settings: dict[str, Any] = dict(getattr(game.policies["ismcts"], "settings", ()))
    settings.pop("iterations", None)
    for key in ("rollout_turns", "exploration", "widening"):
        if getattr(args, key) is not None:
            settings[key] = getattr(args, key)
    if args.tree_opponents:
        settings["model_opponents"] = False
    budgets = [int(b) for b in args.budgets.split(",")]
    # Interleaved (match 0 at every budget, then match 1, ...): whenever the run stops,
    # every budget has played about as many matches, on the same deals.
    table = Table(game.name, preset, args.players, args.opponent, settings)
    tasks = [(b, i, args.seed, table) for i in range(args.matches) for b in budgets]
    outcomes: dict[int, list[Outcome]] = {b: [] for b in budgets}
    started = time.perf_counter()
    stopped_early = False
    pool = multiprocessing.Pool(args.processes)
    try:
        for task, outcome in zip(tasks, pool.imap(play, tasks, chunksize=1), strict=False):
            outcomes[task[0]].append(outcome)
            done = sum(len(o) for o in outcomes.values())
            if done % 20 == 0:  # progress, for long runs
                print(f"{done}/{len(tasks)} matches", file=sys.stderr, flush=True)
            if args.max_minutes and time.perf_counter() - started > 60 * args.max_minutes:
                stopped_early = True
                break
    finally:
        pool.terminate()
        pool.join()
    seconds = time.perf_counter() - started
    results = []
    for iterations in budgets:
        if not outcomes[iterations]:
            continue
        result = summary(iterations, outcomes[iterations], args.opponent)
        results.append(result)
        print(
            f"{result['policy']:>6} {iterations:>5} it: {result['matches']} matches, "
            f"win share {result['win_share']:.3f} ± {result['win_share_se']:.3f} "
            f"(95% {result['win_share_ci95'][0]:.3f}-{result['win_share_ci95'][1]:.3f}), "
            f"avg rank {result['avg_rank']:.2f} ± {result['avg_rank_se']:.2f}, "
            f"mean return {result['mean_return']:+.3f} "
            f"(95% {result['mean_return_ci95'][0]:+.3f} to {result['mean_return_ci95'][1]:+.3f}), "
            f"{result['ms_per_decision']} ms/decision (max {result['max_ms_per_decision']})",
            flush=True,
        )
    print(
        json.dumps(
            {
                "game": game.name,
                "budgets": results,
                "players": args.players,
                "opponent": args.opponent,
                "preset": preset,
                "settings": settings,
                "processes": args.processes,
                "wall_s": round(seconds, 1),
                "stopped_early": stopped_early,
                "compiled": native.compiled(),
            }
        )
    )


if __name__ == "__main__":
    main()
