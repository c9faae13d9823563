"""Executors with several workers (processes, Ray actors): each table goes to the
worker with the fewest matches in play; a worker that dies is dropped and its matches
in play are played again on the others.

Why playing again is safe: a table carries its index, its seats and its seed, and the
head commits only what comes back, in index order. A match cut short by a dying worker
never reached the store, so it is dealt again with the same deal (as after a kill of
the whole league), and nothing is counted twice.
"""

from __future__ import annotations

import abc
import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from arena.referee.live import LiveLog

from .base import Executor, ExecutorError, ExecutorReport, Recipe, WorkerLostError

log = logging.getLogger("arena.league")


class WorkerHandle(abc.ABC):
    """The head's end of one worker."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.alive = True
        self.in_play = 0
        """Tables sent and not yet back."""

    @abc.abstractmethod
    async def start(self, recipe: Recipe) -> None:
        """Build and start the worker's referee (ExecutorError if it fails,
        WorkerLostError if the worker dies)."""

    @abc.abstractmethod
    async def play(self, job: Any, live: LiveLog | None = None) -> Any:
        """Play a job on this worker (WorkerLostError if it dies first), its actions
        relayed to ``live`` if given."""

    @abc.abstractmethod
    async def stop(self) -> ExecutorReport:
        """Stop the worker: its report (restarts and last words of its managed bots)."""

    @abc.abstractmethod
    async def kill(self) -> None:
        """End a worker that will not be used again, whatever state it is in."""


class PoolExecutor(Executor):
    """Tables spread over workers, the least busy first."""

    def __init__(self, recipe: Recipe) -> None:
        super().__init__(recipe)
        self.workers: list[WorkerHandle] = []

    @abc.abstractmethod
    async def open(self) -> Sequence[WorkerHandle]:
        """Create the workers (not started yet)."""

    async def close(self) -> None:
        """Release what ``open`` took beyond the workers (a cluster connection)."""

    async def start(self) -> None:
        try:
            self.workers = list(await self.open())
            await asyncio.gather(*(w.start(self.recipe) for w in self.workers))
        except WorkerLostError as lost:
            await self._kill_all()
            raise ExecutorError(f"a worker died while starting: {lost}") from None
        except BaseException:
            await self._kill_all()
            raise

    async def play(self, job: Any, live: LiveLog | None = None) -> Any:
        while True:
            alive = [w for w in self.workers if w.alive]
            if not alive:
                raise ExecutorError(
                    "every worker died (" + "; ".join(self.report.lost) + "); the league "
                    "stops, and the same command resumes it"
                )
            worker = min(alive, key=lambda w: w.in_play)
            worker.in_play += 1
            try:
                return await worker.play(job, live)
            except WorkerLostError as lost:
                self._lose(worker, str(lost))
                self.report.replayed += 1
                # str(job) names the match, never its seed (Table, ServedMatch).
                log.warning("%s is played again on another worker", job)
            finally:
                worker.in_play -= 1

    def _lose(self, worker: WorkerHandle, why: str) -> None:
        """Drop a dead worker (once), saying so."""
        if not worker.alive:
            return
        worker.alive = False
        left = sum(1 for w in self.workers if w.alive)
        message = f"{self.name} worker {worker.name} died ({why})"
        self.report.lost.append(message)
        log.warning(
            "%s; its matches in play are played again on the %d worker(s) left", message, left
        )

    async def stop(self) -> ExecutorReport:
        for worker in self.workers:
            if not worker.alive:
                continue
            try:
                report = await worker.stop()
            except WorkerLostError:
                continue
            for name, count in report.restarts.items():
                self.report.restarts[name] = self.report.restarts.get(name, 0) + count
            self.report.last_words.update(report.last_words)
        await self._kill_all()
        return self.report

    async def _kill_all(self) -> None:
        for worker in self.workers:
            await worker.kill()
        await self.close()
