"""The Ray actor of the ``ray`` executor: a long-lived asyncio referee on a cluster node.

A plain class, made a Ray actor by the head (``ray.remote``) only when the ``ray``
executor is used, so this module imports without Ray installed.
"""

from __future__ import annotations

import os
from typing import Any

from arena.gctune import tune_for_latency

from .base import ExecutorReport, Recipe, Referee


class RayMatchWorker:
    """One worker: the referee a recipe builds on its node, and the jobs it is given."""

    def __init__(self) -> None:
        self.referee: Referee | None = None
        tune_for_latency()

    def pid(self) -> int:
        """The actor's process id (tests kill it)."""
        return os.getpid()

    async def start(self, recipe: Recipe) -> str | None:
        """Build and start the referee here; why it did not start, or None."""
        self.referee = recipe.build()
        return await self.referee.start()

    async def play(self, job: Any) -> Any:
        """Play one job."""
        assert self.referee is not None
        return await self.referee.play(job)

    async def stop(self) -> ExecutorReport:
        """Stop the referee; its managed bots' restarts and last words."""
        if self.referee is None:
            return ExecutorReport()
        report = self.referee.report()
        await self.referee.stop()
        return report
