"""A league's work per decision does not grow with the matches it has in flight.

The work counted is the event loop's: every callback scheduled on it (a task woken, a
future's callback, a timer's), on a loop that counts them. In-process decisions take
turns on a clock that advances a fixed step each time it is read (``turns.py``), so
how many of them fit in a turn does not depend on the machine's speed or load."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.league.config import Entrant, LeagueConfig
from arena.league.runner import LeagueSummary, run_league
from arena.referee.turns import _TURNS, LoopTurns
from arena.store import open_store


class CountingLoop(asyncio.SelectorEventLoop):
    """An event loop that counts the callbacks scheduled on it."""

    def __init__(self) -> None:
        super().__init__()
        self.callbacks = 0

    def call_soon(  # type: ignore[override]
        self, callback: Callable[..., object], *args: Any, context: Any = None
    ) -> asyncio.Handle:
        self.callbacks += 1
        return super().call_soon(callback, *args, context=context)


class StepClock:
    """Time that advances ``step_s`` each time it is read."""

    def __init__(self, step_s: float) -> None:
        self.now = 0.0
        self.step_s = step_s

    def __call__(self) -> float:
        self.now += self.step_s
        return self.now


def _league(tmp: Path, concurrency: int, matches: int) -> tuple[LeagueSummary, int]:
    """A league of four random built-ins at 2-player tables: its summary, and the
    callbacks its loop ran."""
    config = LeagueConfig(
        bots=tuple(Entrant(f"r{i}", builtin="random") for i in range(4)),
        name=f"c{concurrency}",
        table_size=2,
        matches=matches,
        concurrency=concurrency,
        schedule="balanced",
        seed=5,
        db=str(tmp / f"c{concurrency}.db"),
    )
    loop = CountingLoop()
    # A decision costs a quarter of the budget: four fit in a turn.
    _TURNS[loop] = LoopTurns(loop, budget_s=0.001, clock=StepClock(0.00025))
    store = open_store(config.db)
    try:
        summary = loop.run_until_complete(run_league(config, store))
    finally:
        store.close()
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
    return summary, loop.callbacks


@pytest.mark.slow
def test_loop_work_per_decision_does_not_grow_with_matches_in_flight(tmp_path: Path) -> None:
    few, few_callbacks = _league(tmp_path, 4, 16)
    many, many_callbacks = _league(tmp_path, 128, 128)
    assert few.played == 16
    assert many.played == 128
    per_decision_few = few_callbacks / few.decisions
    per_decision_many = many_callbacks / many.decisions
    assert per_decision_many < 1.25 * per_decision_few, (per_decision_few, per_decision_many)
