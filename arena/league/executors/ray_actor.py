"""The Ray actor of the ``ray`` executor: a long-lived asyncio referee on a cluster node.

A plain class, made a Ray actor by the head (``ray.remote``) only when the ``ray``
executor is used, so this module imports without Ray installed.
"""

from __future__ import annotations

import os

from arena.gctune import tune_for_latency
from arena.store.sqlite import HeldMatch

from ..config import LeagueConfig
from ..entrants import EntrantsError
from ..schedule import Table
from .base import ExecutorReport
from .worker import MatchWorker


class RayMatchWorker:
    """One worker: the league's entrants on its node, and the tables it is given."""

    def __init__(self) -> None:
        self.worker: MatchWorker | None = None
        tune_for_latency()

    def pid(self) -> int:
        """The actor's process id (tests kill it)."""
        return os.getpid()

    async def start(self, config: LeagueConfig) -> str | None:
        """Start the entrants here; why they did not start, or None."""
        self.worker = MatchWorker(config)
        try:
            await self.worker.start()
        except EntrantsError as error:
            return str(error)
        return None

    async def play(self, table: Table) -> HeldMatch:
        """Play one table."""
        assert self.worker is not None
        return await self.worker.play(table)

    async def stop(self) -> ExecutorReport:
        """Stop the entrants; the managed bots' restarts and last words."""
        report = ExecutorReport()
        if self.worker is not None:
            report.restarts = self.worker.restarts()
            report.last_words = self.worker.entrants.last_words
            await self.worker.stop()
        return report
