#!/usr/bin/env python3
"""Statistics of uniformly random play, per preset and table size (docs/BENCHMARKS.md).

Every decision picks uniformly among the canonical legal actions
(``ab.legal_actions(state)``) and is applied with ``ab.apply``; every game is one deal.
For each (preset, players) cell the script reports, each with its standard error:

- turns per game (a turn = one play, the last play that empties a hand included),
- decisions per game, in total and per decision kind (``state.kind`` before each apply),
- end-reason shares (hand_empty, supply_exhausted, turn_cap),
- victims abluxxed per turn: (``abluxx`` + ``shadowluxx`` events) / turns, pooled over
  all games as total victims / total turns (a ratio estimator; its standard error by the
  delta method over the per-game pairs),
- tie rate: games where more than one seat has rank 1 after the tie-break,
- mean winning score: the score of the rank-1 seat(s).

Means have SE = sd / sqrt(N), shares SE = sqrt(p(1-p)/N). The cells run in parallel
(``--jobs`` processes); each cell draws its shuffles from its own RNG seeded by
``"<seed>/<preset>/<players>"``, so the output depends only on the arguments.
The last line printed is a JSON object keyed ``"<preset>/<players>"``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from arena.games import abluxxen as ab

KINDS: tuple[ab.DecisionKind, ...] = tuple(ab.DecisionKind)
REASONS: tuple[str, ...] = ("hand_empty", "supply_exhausted", "turn_cap")
ALL_PRESETS: tuple[str, ...] = tuple(ab.PRESETS)
ALL_PLAYERS: tuple[int, ...] = (2, 3, 4, 5)


@dataclass
class Moments:
    """Exact integer sums of one per-game quantity and of its square."""

    total: int = 0
    squares: int = 0

    def add(self, x: int) -> None:
        self.total += x
        self.squares += x * x

    def mean_se(self, n: int) -> tuple[float, float]:
        """The mean and its standard error (sample sd / sqrt(n))."""
        mean = self.total / n
        if n < 2:
            return mean, math.nan
        var = (self.squares - self.total * self.total / n) / (n - 1)
        return mean, math.sqrt(max(var, 0.0) / n)


@dataclass
class Cell:
    """Running sums for one (preset, players) cell."""

    games: int = 0
    turns: Moments = field(default_factory=Moments)
    decisions: Moments = field(default_factory=Moments)
    by_kind: dict[str, Moments] = field(default_factory=lambda: {k.name: Moments() for k in KINDS})
    reasons: dict[str, int] = field(default_factory=lambda: dict.fromkeys(REASONS, 0))
    victims: Moments = field(default_factory=Moments)
    victims_x_turns: int = 0
    ties: int = 0
    winning_score: Moments = field(default_factory=Moments)


def play_cell(task: tuple[str, int, int, int]) -> tuple[str, int, Cell, float]:
    """Play ``games`` random games of one cell; returns the sums and the time taken."""
    preset, players, games, seed = task
    started = time.perf_counter()
    config = ab.make_config(players, preset)
    rng = random.Random(f"{seed}/{preset}/{players}")
    choice = rng.choice
    legal_actions = ab.legal_actions
    apply = ab.apply
    kind_index = {k: i for i, k in enumerate(KINDS)}
    cell = Cell()
    for _ in range(games):
        state = ab.new_game(config, rng)
        counts = [0] * len(KINDS)
        while state.kind is not None:
            counts[kind_index[state.kind]] += 1
            apply(state, choice(legal_actions(state)))
        assert state.result is not None
        deal = state.result.deals[0]
        victims = sum(1 for e in state.events if e[0] == "abluxx" or e[0] == "shadowluxx")
        cell.games += 1
        cell.turns.add(deal.turns)
        cell.decisions.add(sum(counts))
        for kind, count in zip(KINDS, counts, strict=True):
            cell.by_kind[kind.name].add(count)
        cell.reasons[deal.reason] += 1
        cell.victims.add(victims)
        cell.victims_x_turns += victims * deal.turns
        winners = [s for s, r in enumerate(deal.ranks) if r == 1]
        if len(winners) > 1:
            cell.ties += 1
        cell.winning_score.add(deal.scores[winners[0]])
    return preset, players, cell, time.perf_counter() - started


def share(count: int, n: int) -> dict[str, float]:
    """A share with its standard error sqrt(p(1-p)/n)."""
    p = count / n
    return {"mean": p, "se": math.sqrt(p * (1 - p) / n)}


def summarize(cell: Cell) -> dict[str, Any]:
    """The figures of one cell, each as {"mean": ..., "se": ...}."""
    n = cell.games

    def ms(m: Moments) -> dict[str, float]:
        mean, se = m.mean_se(n)
        return {"mean": mean, "se": se}

    # Ratio estimator R = sum(v) / sum(t); delta-method SE:
    # sqrt(sum((v_i - R t_i)^2) / (n (n - 1))) / mean(t).
    sv, st = cell.victims.total, cell.turns.total
    ratio = sv / st
    resid = cell.victims.squares - 2 * ratio * cell.victims_x_turns + ratio**2 * cell.turns.squares
    ratio_se = math.sqrt(max(resid, 0.0) / (n * (n - 1))) / (st / n) if n > 1 else math.nan
    return {
        "games": n,
        "turns": ms(cell.turns),
        "decisions": ms(cell.decisions),
        "decisions_by_kind": {k: ms(m) for k, m in cell.by_kind.items()},
        "end_reason": {r: share(c, n) for r, c in cell.reasons.items()},
        "victims_per_turn": {"mean": ratio, "se": ratio_se},
        "tie_rate": share(cell.ties, n),
        "winning_score": ms(cell.winning_score),
    }


def fmt(figure: dict[str, float], digits: int = 2, percent: bool = False) -> str:
    """``mean ± se``, as a percentage if asked."""
    scale = 100.0 if percent else 1.0
    unit = "%" if percent else ""
    return f"{figure['mean'] * scale:.{digits}f} ± {figure['se'] * scale:.{digits}f}{unit}"


def markdown(results: dict[str, dict[str, Any]]) -> str:
    """Two Markdown tables: the game figures and the decisions per kind."""
    lines = [
        "| preset / players | games | turns | decisions | hand empty | supply exhausted "
        "| turn cap | victims / turn | tie rate | winning score |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for key, r in results.items():
        end = r["end_reason"]
        lines.append(
            f"| {key} | {r['games']} | {fmt(r['turns'])} | {fmt(r['decisions'])} "
            f"| {fmt(end['hand_empty'], 2, True)} | {fmt(end['supply_exhausted'], 2, True)} "
            f"| {fmt(end['turn_cap'], 2, True)} | {fmt(r['victims_per_turn'], 4)} "
            f"| {fmt(r['tie_rate'], 2, True)} | {fmt(r['winning_score'])} |"
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
    return "\n".join(lines)


CellT = TypeVar("CellT")
Task = tuple[str, int, int, int]
"""(preset, players, games, seed): one cell's work."""


def add_cell_arguments(
    parser: argparse.ArgumentParser,
    presets: tuple[str, ...],
    players: tuple[int, ...],
    games: int,
) -> None:
    """The options every statistics script takes: games per cell, presets, table sizes,
    seed and worker processes."""
    parser.add_argument("--games", type=int, default=games, help="games per cell")
    parser.add_argument(
        "--presets",
        nargs="+",
        default=list(presets),
        choices=presets,
        help="presets to run (default: all)",
    )
    parser.add_argument(
        "--players",
        nargs="+",
        type=int,
        default=list(players),
        choices=players,
        help=f"table sizes to run (default: {' '.join(map(str, players))})",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")


def play_cells(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    play_cell: Callable[[Task], tuple[str, int, CellT, float]],
) -> tuple[list[Task], dict[tuple[str, int], CellT]]:
    """Every (preset, players) cell of ``args`` played by ``play_cell`` (in ``--jobs``
    processes), with the progress on stderr; the tasks in order and the cells."""
    if args.games < 2:
        parser.error("--games must be at least 2 (standard errors need two games)")
    tasks = [(p, n, args.games, args.seed) for p in args.presets for n in args.players]
    print(
        f"{args.games} games per cell, presets {' '.join(args.presets)}, players "
        f"{' '.join(map(str, args.players))}, seed {args.seed}, {args.jobs} process(es)",
        file=sys.stderr,
    )
    started = time.perf_counter()
    cells: dict[tuple[str, int], CellT] = {}

    def keep(outputs: Iterable[tuple[str, int, CellT, float]]) -> None:
        for preset, players, cell, elapsed in outputs:
            cells[preset, players] = cell
            print(f"  {preset}/{players}: {elapsed:.1f} s", file=sys.stderr)

    if args.jobs <= 1:
        keep(map(play_cell, tasks))
    else:
        with multiprocessing.Pool(args.jobs) as workers:
            keep(workers.imap_unordered(play_cell, tasks))
    print(f"total {time.perf_counter() - started:.1f} s wall clock", file=sys.stderr)
    return tasks, cells


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_cell_arguments(parser, ALL_PRESETS, ALL_PLAYERS, 20000)
    args = parser.parse_args()
    tasks, cells = play_cells(parser, args, play_cell)
    results = {f"{p}/{n}": summarize(cells[p, n]) for p, n, _, _ in tasks}
    print(markdown(results))
    print(json.dumps(results, sort_keys=False))


if __name__ == "__main__":
    main()
