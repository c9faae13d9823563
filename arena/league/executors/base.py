"""What every executor offers the head, and the local one (the default).

Why the head's view is so small (start, play a table, stop): the schedule, the ratings
and the commit order stay in the head whatever runs the matches, so "results commit in
match order" and "a resumed league equals an uninterrupted one" hold on every executor
without a line of executor-specific code in the runner.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field

from arena.store.sqlite import HeldMatch

from ..config import EXECUTORS, LeagueConfig
from ..entrants import EntrantsError
from ..schedule import Table
from .worker import MatchWorker

__all__ = ["EXECUTORS", "Executor", "ExecutorError", "LocalExecutor", "WorkerLostError"]


class ExecutorError(RuntimeError):
    """Matches cannot be run where asked (nothing was played), with what to do."""


class WorkerLostError(RuntimeError):
    """A worker died (or became unreachable); its matches in play are played again."""


@dataclass(slots=True)
class ExecutorReport:
    """What an executor has to say at the end of a league run."""

    restarts: dict[str, int] = field(default_factory=dict)
    """Managed bots restarted after dying, and how often (summed over workers)."""
    last_words: dict[str, list[str]] = field(default_factory=dict)
    """A managed bot's last stderr lines before it last died."""
    lost: list[str] = field(default_factory=list)
    """Workers that died, each with why (the league went on with the others)."""
    replayed: int = 0
    """Matches played again because their worker died."""


class Executor(abc.ABC):
    """Plays a league's tables somewhere; the head commits what comes back."""

    name: str = ""

    def __init__(self, config: LeagueConfig) -> None:
        self.config = config
        self.report = ExecutorReport()

    @abc.abstractmethod
    async def start(self) -> None:
        """Start the workers and their entrants (ExecutorError if that fails)."""

    @abc.abstractmethod
    async def play(self, table: Table) -> HeldMatch:
        """Play one table to its finished match."""

    @abc.abstractmethod
    async def stop(self) -> ExecutorReport:
        """Stop everything started (matches still in play are abandoned)."""


class LocalExecutor(Executor):
    """Matches on the head's own event loop (asyncio): no worker to lose."""

    name = "local"

    def __init__(self, config: LeagueConfig) -> None:
        super().__init__(config)
        self.worker = MatchWorker(config)

    async def start(self) -> None:
        try:
            await self.worker.start()
        except EntrantsError as error:
            raise ExecutorError(str(error)) from None

    async def play(self, table: Table) -> HeldMatch:
        return await self.worker.play(table)

    async def stop(self) -> ExecutorReport:
        self.report.restarts = self.worker.restarts()
        self.report.last_words = self.worker.entrants.last_words
        await self.worker.stop()
        return self.report
