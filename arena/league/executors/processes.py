"""The ``processes`` executor: N local worker processes, each an asyncio referee
playing many matches at once (for a machine with more cores than one referee can use).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from . import frames
from .base import ExecutorError, ExecutorReport, Recipe, WorkerLostError
from .pool import PoolExecutor, WorkerHandle


class ProcessWorker(WorkerHandle):
    """One worker process and the head's end of its pipes."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.process: asyncio.subprocess.Process | None = None
        self._jobs = itertools.count()
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._started: asyncio.Future[str | None] | None = None
        self._stopped: asyncio.Future[ExecutorReport] | None = None

    @property
    def unanswered(self) -> int:
        """Tables sent whose finished match has not come back."""
        return sum(1 for waiter in self._waiting.values() if not waiter.done())

    @property
    def pid(self) -> int | None:
        """The worker's process id."""
        return self.process.pid if self.process is not None else None

    async def start(self, recipe: Recipe) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "arena.league.executors.process_worker",
            str(os.getpid()),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 26,
            # No preexec_fn: it forces a plain fork, which gRPC's threads in this process
            # can make abort; the worker sets its parent-death signal itself.
        )
        loop = asyncio.get_running_loop()
        self._started = loop.create_future()
        self._stopped = loop.create_future()
        self._reader = asyncio.create_task(self._read())
        self._send(("start", recipe))
        error = await self._started
        if error is not None:
            raise ExecutorError(error)

    def _send(self, message: Any) -> None:
        process = self.process
        assert process is not None
        assert process.stdin is not None
        if process.stdin.is_closing():
            raise WorkerLostError(self._why())
        process.stdin.write(frames.encode(message))

    async def _read(self) -> None:
        """Route the worker's answers to whoever waits for them; at its end, every
        waiter learns the worker is lost. An answer that cannot be read is an arena
        bug: the worker is killed, and its waiters are told why."""
        try:
            await self._route()
        except Exception as error:
            why = f"its answer could not be read ({type(error).__name__}: {error})"
            for future in list(self._waiting.values()):
                if not future.done():
                    future.set_exception(RuntimeError(f"worker {self.name}: {why}"))
            self._waiting.clear()
            process = self.process
            if process is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGKILL)
        await self._lose_all()

    async def _route(self) -> None:
        process = self.process
        assert process is not None
        assert process.stdout is not None
        while (message := await frames.read(process.stdout)) is not None:
            kind = message[0]
            if kind == "started" and self._started is not None:
                self._started.set_result(message[1])
            elif kind == "stopped" and self._stopped is not None:
                self._stopped.set_result(message[1])
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

    async def _lose_all(self) -> None:
        process = self.process
        assert process is not None
        await process.wait()
        lost = WorkerLostError(self._why())
        for future in (self._started, self._stopped, *self._waiting.values()):
            if future is not None and not future.done():
                future.set_exception(lost)
                future.exception()  # whoever awaits it still gets it; nobody may
        self._waiting.clear()

    async def _lost(self) -> WorkerLostError:
        """Why a worker whose pipe closed is gone (once it has exited: a worker that
        closed its pipe but lives on is killed, it cannot be talked to)."""
        process = self.process
        if process is not None and process.returncode is None:
            try:
                async with asyncio.timeout(5):
                    await process.wait()
            except TimeoutError:
                await self.kill()
        return WorkerLostError(self._why())

    def _why(self) -> str:
        process = self.process
        code = process.returncode if process is not None else None
        if code is None:
            return f"pid {self.pid}: its pipe closed"
        if code < 0:
            return f"pid {self.pid}: killed by signal {signal.Signals(-code).name}"
        return f"pid {self.pid}: exited with status {code}"

    async def play(self, job: Any) -> Any:
        number = next(self._jobs)
        waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[number] = waiter
        try:
            self._send(("play", number, job))
        except (ConnectionError, WorkerLostError):
            self._waiting.pop(number, None)
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

    async def stop(self) -> ExecutorReport:
        assert self._stopped is not None
        try:
            self._send(("stop",))
        except (ConnectionError, WorkerLostError):
            raise await self._lost() from None
        try:
            async with asyncio.timeout(30):
                report: ExecutorReport | None = await self._stopped
                return report if report is not None else ExecutorReport()
        except TimeoutError:
            raise WorkerLostError(f"pid {self.pid}: did not stop within 30 s") from None

    async def kill(self) -> None:
        process = self.process
        if process is None:
            return
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGKILL)
        await process.wait()
        if self._reader is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._reader
        if process.stdin is not None:
            process.stdin.close()


class ProcessesExecutor(PoolExecutor):
    """Jobs on N local worker processes."""

    name = "processes"

    def __init__(self, recipe: Recipe, workers: int) -> None:
        super().__init__(recipe)
        self.count = workers

    async def open(self) -> Sequence[WorkerHandle]:
        return [ProcessWorker(str(n + 1)) for n in range(self.count)]
