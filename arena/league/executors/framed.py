"""The head's end of a worker that speaks ``frames``: tables out, finished matches back,
each numbered, many in flight over one pair of streams; and the live logs of watched
matches (``live_relay``), appended to the head's own.

``processes`` (a worker process's pipes) and ``ray`` (a TCP connection to an actor) differ
only in how the streams are opened and how a worker's end is told; the routing of
answers, cancelling and losing a worker are here once.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import itertools
import time
from typing import Any, Protocol

from arena.referee.live import LiveLog

from . import frames
from .base import ExecutorError, ExecutorReport, Recipe, WorkerLostError
from .pool import WorkerHandle

STOP_TIMEOUT_S = 30.0
"""How long a worker may take to stop its referee and managed bots."""
GONE_TIMEOUT_S = 5.0
"""How long a worker whose stream closed may take to be seen gone before it is killed."""


class FrameWriter(Protocol):
    """The writing end of a worker's stream (asyncio's StreamWriter)."""

    def write(self, data: bytes) -> None: ...

    def is_closing(self) -> bool: ...


class FramedWorker(WorkerHandle):
    """Numbered jobs over a worker's frames; every waiter learns when the worker is lost."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._jobs = itertools.count()
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._live: dict[int, LiveLog] = {}
        """The head's logs of the watched jobs in play, by number."""
        self._writer: FrameWriter | None = None
        self._reader: asyncio.Task[None] | None = None
        self._started: asyncio.Future[str | None] | None = None
        self._stopped: asyncio.Future[ExecutorReport] | None = None

    @abc.abstractmethod
    async def _gone(self) -> None:
        """Wait until the worker has ended (its stream has closed)."""

    @abc.abstractmethod
    def _why(self) -> str:
        """Why the worker is gone, in words."""

    @property
    def unanswered(self) -> int:
        """Tables sent whose finished match has not come back."""
        return sum(1 for waiter in self._waiting.values() if not waiter.done())

    async def _begin(
        self, reader: asyncio.StreamReader, writer: FrameWriter, recipe: Recipe
    ) -> None:
        """Start routing answers from ``reader``, and the worker's referee."""
        loop = asyncio.get_running_loop()
        self._writer = writer
        self._started = loop.create_future()
        self._stopped = loop.create_future()
        self._reader = asyncio.create_task(self._read(reader))
        self._send(("start", recipe))
        error = await self._started
        if error is not None:
            raise ExecutorError(error)

    def _send(self, message: Any) -> None:
        writer = self._writer
        assert writer is not None
        if writer.is_closing():
            raise WorkerLostError(self._why())
        writer.write(frames.encode(message))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        """Route the worker's answers to whoever waits for them; at its end, every
        waiter learns the worker is lost. An answer that cannot be read is an arena
        bug: the worker is killed, and its waiters are told why."""
        try:
            await self._route(reader)
        except Exception as error:
            why = f"its answer could not be read ({type(error).__name__}: {error})"
            for future in list(self._waiting.values()):
                if not future.done():
                    future.set_exception(RuntimeError(f"worker {self.name}: {why}"))
            self._waiting.clear()
            await self.kill()
        await self._lose_all()

    async def _route(self, reader: asyncio.StreamReader) -> None:
        while (message := await frames.read(reader)) is not None:
            kind = message[0]
            if kind == "started" and self._started is not None:
                self._started.set_result(message[1])
            elif kind == "stopped" and self._stopped is not None:
                self._stopped.set_result(message[1])
            elif kind == "live":
                self._relayed(message[1])
            elif kind in ("done", "failed"):
                waiter = self._waiting.pop(message[1], None)
                if waiter is None or waiter.done():
                    continue
                if kind == "done":
                    waiter.set_result(message[2])
                else:
                    waiter.set_exception(
                        RuntimeError(f"worker {self.name} failed a match:\n{message[2]}")
                    )

    def _relayed(self, batch: list[tuple[int, Any, Any]]) -> None:
        """Append a worker's relayed actions to the logs of the jobs still in play (a
        job that has ended has no log any more: its last actions are not needed)."""
        now = time.monotonic()
        for number, ages, codes in batch:
            log = self._live.get(number)
            if log is not None:
                log.taken_ago(now, ages, codes)

    async def _lose_all(self) -> None:
        await self._lost()
        lost = WorkerLostError(self._why())
        for future in (self._started, self._stopped, *self._waiting.values()):
            if future is not None and not future.done():
                future.set_exception(lost)
                future.exception()  # whoever awaits it still gets it; nobody may
        self._waiting.clear()

    async def _lost(self) -> WorkerLostError:
        """Why a worker whose stream closed is gone (once it has ended: a worker that
        closed its stream but lives on is killed, it cannot be talked to)."""
        try:
            async with asyncio.timeout(GONE_TIMEOUT_S):
                await self._gone()
        except TimeoutError:
            await self.kill()
        return WorkerLostError(self._why())

    async def play(self, job: Any, live: LiveLog | None = None) -> Any:
        number = next(self._jobs)
        waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[number] = waiter
        if live is not None:
            self._live[number] = live
        try:
            self._send(("play", number, job, live is not None))
        except (ConnectionError, WorkerLostError):
            self._waiting.pop(number, None)
            self._live.pop(number, None)
            raise await self._lost() from None
        try:
            return await waiter
        except asyncio.CancelledError:
            # The head gave the match up (it stops, or a test's level ends): the worker
            # stops playing it too, instead of playing on for nobody.
            with contextlib.suppress(ConnectionError, WorkerLostError, AssertionError):
                self._send(("cancel", number))
            raise
        finally:
            self._waiting.pop(number, None)
            self._live.pop(number, None)

    async def stop(self) -> ExecutorReport:
        assert self._stopped is not None
        try:
            self._send(("stop",))
        except (ConnectionError, WorkerLostError):
            raise await self._lost() from None
        try:
            async with asyncio.timeout(STOP_TIMEOUT_S):
                report: ExecutorReport | None = await self._stopped
                return report if report is not None else ExecutorReport()
        except TimeoutError:
            raise WorkerLostError(f"{self._who()}: did not stop within 30 s") from None

    def _who(self) -> str:
        """The worker, for messages."""
        return f"worker {self.name}"

    async def _end_reader(self) -> None:
        """Wait for the answer router to finish (after the worker was killed)."""
        if self._reader is not None and self._reader is not asyncio.current_task():
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._reader
