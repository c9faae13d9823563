"""Where a league's matches run: the executors.

The head (``arena.league.runner``) keeps the schedule, the ratings and the single writer;
an executor only turns a scheduled table into a finished match. ``local`` plays it on
the head's own event loop, ``processes`` on N local worker processes and ``ray`` on the
actors of a Ray cluster. Every one of them plays a table with the same code
(``worker.MatchWorker``), so a seeded league gives the same matches and ratings on each.
"""

from __future__ import annotations

from .base import EXECUTORS, Executor, ExecutorError, ExecutorReport, WorkerLostError
from .choose import executor_for, make_executor
from .worker import LeagueRecipe

__all__ = [
    "EXECUTORS",
    "Executor",
    "ExecutorError",
    "ExecutorReport",
    "LeagueRecipe",
    "WorkerLostError",
    "executor_for",
    "make_executor",
]
