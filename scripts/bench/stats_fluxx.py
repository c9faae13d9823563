#!/usr/bin/env python3
"""Statistics of uniformly random Fluxx play, per preset and table size
(docs/BENCHMARKS.md; ``stats_engine.py`` does the same for Abluxxen).

Every decision picks uniformly among the canonical legal actions (``state.legal``) and
is applied with ``fx.apply``. For each (preset, players) cell the script reports, each
with its standard error:

- turns per game (turns started, extra turns included),
- decisions per game, in total and per decision kind (``state.kind`` before each apply),
- end-reason shares (goal, turn_cap, decision_cap),
- the share of won games per winning Goal (the Goal in play the winner meets when it
  wins; under Double Agenda a win that meets both Goals counts half to each),
- the tie rate (games in which several seats rank 1st: only capped games, §12) and the
  cap rate (games ended by a cap; the same games),
- seat 0's advantage: its win share minus 1/players.

Means have SE = sd / sqrt(N), shares SE = sqrt(p(1-p)/N). The cells run in parallel
(``--jobs`` processes); each cell's games derive from an RNG seeded by
``"<seed>/<preset>/<players>"``, so the output depends only on the arguments. The last
line printed is a JSON object keyed ``"<preset>/<players>"``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from stats_engine import Moments, add_cell_arguments, fmt, play_cells, share

from arena.games import fluxx as fx
from arena.games.fluxx.cards import GOALS, NAMES
from arena.games.fluxx.goals import meeting_seat

KINDS: tuple[fx.DecisionKind, ...] = tuple(fx.DecisionKind)
REASONS: tuple[str, ...] = ("goal", "turn_cap", "decision_cap")
ALL_PRESETS: tuple[str, ...] = tuple(fx.PRESETS)
ALL_PLAYERS: tuple[int, ...] = (2, 3, 4, 5, 6)


@dataclass
class Cell:
    """Running sums for one (preset, players) cell."""

    games: int = 0
    turns: Moments = field(default_factory=Moments)
    decisions: Moments = field(default_factory=Moments)
    by_kind: dict[str, Moments] = field(default_factory=lambda: {k.name: Moments() for k in KINDS})
    reasons: dict[str, int] = field(default_factory=lambda: dict.fromkeys(REASONS, 0))
    goal_wins: dict[int, float] = field(default_factory=dict)
    ties: int = 0
    seat0_wins: int = 0


def winning_goals(state: fx.State, winner: int) -> list[int]:
    """The Goals in play that ``winner`` meets in the final state."""
    return [g for g in state.goals if meeting_seat(state, g) == winner]


def play_cell(task: tuple[str, int, int, int]) -> tuple[str, int, Cell, float]:
    """Play ``games`` random games of one cell; returns the sums and the time taken."""
    preset, players, games, seed = task
    started = time.perf_counter()
    config = fx.make_config(players, preset)
    rng = random.Random(f"{seed}/{preset}/{players}")
    choice = rng.choice
    apply = fx.apply
    cell = Cell()
    for _ in range(games):
        state = fx.new_game(config, rng)
        counts = dict.fromkeys(KINDS, 0)
        while state.kind is not None:
            counts[state.kind] += 1
            apply(state, choice(state.legal))
        result = state.result
        assert result is not None
        cell.games += 1
        cell.turns.add(result.turns)
        cell.decisions.add(sum(counts.values()))
        for kind, count in counts.items():
            cell.by_kind[kind.name].add(count)
        cell.reasons[result.end_reason] += 1
        if result.winner < 0:
            cell.ties += 1
            continue
        cell.seat0_wins += result.winner == 0
        goals = winning_goals(state, result.winner)
        for goal in goals:
            cell.goal_wins[goal] = cell.goal_wins.get(goal, 0.0) + 1 / len(goals)
    return preset, players, cell, time.perf_counter() - started


def summarize(cell: Cell, players: int) -> dict[str, Any]:
    """The figures of one cell, each as {"mean": ..., "se": ...}."""
    n = cell.games

    def ms(m: Moments) -> dict[str, float]:
        mean, se = m.mean_se(n)
        return {"mean": mean, "se": se}

    won = n - cell.ties
    seat0 = share(cell.seat0_wins, n)
    return {
        "games": n,
        "turns": ms(cell.turns),
        "decisions": ms(cell.decisions),
        "decisions_by_kind": {k: ms(m) for k, m in cell.by_kind.items()},
        "end_reason": {r: share(c, n) for r, c in cell.reasons.items()},
        "wins_by_goal": {
            NAMES[g]: {"mean": w / won, "se": math.sqrt((w / won) * (1 - w / won) / won)}
            for g, w in sorted(cell.goal_wins.items())
        }
        if won
        else {},
        "tie_rate": share(cell.ties, n),
        "cap_rate": share(n - cell.reasons["goal"], n),
        "seat0_advantage": {"mean": seat0["mean"] - 1 / players, "se": seat0["se"]},
    }


def markdown(results: dict[str, dict[str, Any]]) -> str:
    """Three Markdown tables: the game figures, the decisions per kind, the wins per Goal."""
    lines = [
        "| preset / players | games | turns | decisions | won (goal) | turn cap "
        "| decision cap | tie rate | seat-0 advantage |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for key, r in results.items():
        end = r["end_reason"]
        lines.append(
            f"| {key} | {r['games']} | {fmt(r['turns'])} | {fmt(r['decisions'])} "
            f"| {fmt(end['goal'], 2, True)} | {fmt(end['turn_cap'], 2, True)} "
            f"| {fmt(end['decision_cap'], 2, True)} | {fmt(r['tie_rate'], 2, True)} "
            f"| {fmt(r['seat0_advantage'], 2, True)} |"
        )
    lines += [
        "",
        "Decisions per game by kind (mean ± SE):",
        "",
        "| preset / players | " + " | ".join(k.name for k in KINDS) + " |",
        "|---|" + "---:|" * len(KINDS),
    ]
    for key, r in results.items():
        by_kind = r["decisions_by_kind"]
        lines.append(f"| {key} | " + " | ".join(fmt(by_kind[k.name]) for k in KINDS) + " |")
    lines += [
        "",
        "Share of won games per winning Goal, % (mean ± SE):",
        "",
        "| Goal | " + " | ".join(results) + " |",
        "|---|" + "---:|" * len(results),
    ]
    for goal in GOALS:
        name = NAMES[goal]
        cells = [r["wins_by_goal"].get(name, {"mean": 0.0, "se": 0.0}) for r in results.values()]
        lines.append(f"| {name} | " + " | ".join(fmt(c, 1, True) for c in cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_cell_arguments(parser, ALL_PRESETS, ALL_PLAYERS, 2000)
    args = parser.parse_args()
    tasks, cells = play_cells(parser, args, play_cell)
    results = {f"{p}/{n}": summarize(cells[p, n], n) for p, n, _, _ in tasks}
    print(markdown(results))
    print(json.dumps(results, sort_keys=False))


if __name__ == "__main__":
    main()
