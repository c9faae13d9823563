#!/usr/bin/env python3
"""What ``openspiel_cfr`` plays: for each table it solves (``cfr.SOLVABLE``), the time
a solve takes (process CPU), the exploitability of the solved strategy (two-player
tables: what a best response wins from it, chips a hand; NashConv for more players),
that of the uniformly random strategy beside it, and the exact expected gain of the
solved strategy against ``random`` (every deal and every random move, the solved seat
in each seat in turn), all by OpenSpiel's own algorithms on the very policy the
built-in plays.

Last line JSON: {"iterations", "tables": [{"table", "players", "solve_cpu_s",
"exploitability", "random_exploitability", "gain_vs_random"}, ...]}.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from arena.games.openspiel import cfr  # noqa: E402
from arena.games.openspiel.config import table_string  # noqa: E402
from arena.games.openspiel.family import pyspiel_module  # noqa: E402


def measure(table: str) -> dict[str, object]:
    from open_spiel.python import policy as policies  # type: ignore[import-untyped]
    from open_spiel.python.algorithms import exploitability  # type: ignore[import-untyped]
    from open_spiel.python.algorithms.expected_game_score import (  # type: ignore[import-untyped]
        policy_value,
    )

    pyspiel = pyspiel_module()
    game = pyspiel.load_game(table)
    players = game.num_players()
    started = time.process_time()
    solved = cfr.solved(table)
    solve_s = time.process_time() - started
    played = policies.pyspiel_policy_to_python_policy(game, solved)
    uniform = policies.UniformRandomPolicy(game)
    distance = exploitability.exploitability if players == 2 else exploitability.nash_conv
    gains = []
    for seat in range(players):
        seats = [uniform] * players
        seats[seat] = played
        gains.append(policy_value(game.new_initial_state(), seats)[seat])
    return {
        "table": table,
        "players": players,
        "solve_cpu_s": round(solve_s, 3),
        "exploitability": round(distance(game, played), 5),
        "random_exploitability": round(distance(game, uniform), 5),
        "gain_vs_random": round(sum(gains) / players, 4),
    }


def main() -> None:
    pyspiel = pyspiel_module()
    tables = [
        table_string(pyspiel, name, players, takes_players=True)
        for name, sizes in cfr.SOLVABLE.items()
        for players in sizes
    ]
    rows = []
    for table in tables:
        row = measure(table)
        rows.append(row)
        print(
            f"{table:28} solve {row['solve_cpu_s']:7.3f} s CPU  exploitability "
            f"{row['exploitability']:.5f} (random {row['random_exploitability']:.4f})  "
            f"gain against random {row['gain_vs_random']:+.4f} chips a hand",
            flush=True,
        )
    print(json.dumps({"iterations": cfr.ITERATIONS, "tables": rows}))


if __name__ == "__main__":
    main()
