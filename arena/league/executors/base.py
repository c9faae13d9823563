"""What every executor offers the head, and the local one (the default).

Why the head's view is so small (start, play a job, stop): the schedule, the ratings and
the commit order stay in the head whatever runs the matches, so "results commit in match
order" and "a resumed league equals an uninterrupted one" hold on every executor without
a line of executor-specific code in the runner.

What a worker runs is a ``Referee`` built from a picklable ``Recipe`` (a league's:
``worker.LeagueRecipe``; ``arena serve``'s: ``arena.server.served``). The local executor
builds it in the head's own process; the others send the recipe to each worker.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, Protocol

from arena.referee.live import LiveLog

from ..config import EXECUTORS

__all__ = [
    "EXECUTORS",
    "Executor",
    "ExecutorError",
    "ExecutorReport",
    "LocalExecutor",
    "Recipe",
    "Referee",
    "WorkerLostError",
]


class ExecutorError(RuntimeError):
    """Matches cannot be run where asked (nothing was played), with what to do."""


class WorkerLostError(RuntimeError):
    """A worker died (or became unreachable); its matches in play are played again."""


@dataclass(slots=True)
class ExecutorReport:
    """What an executor has to say at the end of a run."""

    restarts: dict[str, int] = field(default_factory=dict)
    """Managed bots restarted after dying, and how often (summed over workers)."""
    last_words: dict[str, list[str]] = field(default_factory=dict)
    """A managed bot's last stderr lines before it last died."""
    lost: list[str] = field(default_factory=list)
    """Workers that died, each with why (the run went on with the others)."""
    replayed: int = 0
    """Matches played again because their worker died."""


class Referee(Protocol):
    """What runs on a worker: plays jobs (many at once) to their results."""

    async def start(self) -> str | None:
        """Get ready (start managed bots, Hello them); why it could not, or None."""

    async def play(self, job: Any, live: LiveLog | None = None) -> Any:
        """Play one job (a scheduled table, a served match) to its result; each action
        applied is appended to ``live`` if given (``arena.referee.live``)."""

    def report(self) -> ExecutorReport:
        """Its managed bots' restarts and last words."""

    async def stop(self) -> None:
        """Stop what it started."""


class Recipe(Protocol):
    """A picklable description of a Referee, built where the matches run."""

    def build(self) -> Referee:
        """The referee."""


class Executor(abc.ABC):
    """Plays jobs somewhere; the head commits what comes back."""

    name: str = ""

    def __init__(self, recipe: Recipe) -> None:
        self.recipe = recipe
        self.report = ExecutorReport()

    @abc.abstractmethod
    async def start(self) -> None:
        """Start the workers and their referees (ExecutorError if that fails)."""

    @abc.abstractmethod
    async def play(self, job: Any, live: LiveLog | None = None) -> Any:
        """Play one job to its result; its applied actions go to ``live`` (if given) in
        this process, wherever the job is played (``live_relay``)."""

    @abc.abstractmethod
    async def stop(self) -> ExecutorReport:
        """Stop everything started (matches still in play are abandoned)."""


class LocalExecutor(Executor):
    """Matches on the head's own event loop (asyncio): no worker to lose."""

    name = "local"

    def __init__(self, recipe: Recipe, referee: Referee | None = None) -> None:
        super().__init__(recipe)
        self.referee = referee if referee is not None else recipe.build()

    async def start(self) -> None:
        error = await self.referee.start()
        if error is not None:
            raise ExecutorError(error)

    async def play(self, job: Any, live: LiveLog | None = None) -> Any:
        return await self.referee.play(job, live)

    async def stop(self) -> ExecutorReport:
        report = self.referee.report()
        self.report.restarts = report.restarts
        self.report.last_words = report.last_words
        await self.referee.stop()
        return self.report
