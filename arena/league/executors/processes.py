"""The ``processes`` executor: N local worker processes, each an asyncio referee
playing many matches at once (for a machine with more cores than one referee can use).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Sequence

from .base import Recipe
from .framed import FramedWorker
from .pool import PoolExecutor, WorkerHandle


class ProcessWorker(FramedWorker):
    """One worker process; its frames go over its stdin and stdout."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.process: asyncio.subprocess.Process | None = None

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
        assert self.process.stdout is not None
        assert self.process.stdin is not None
        await self._begin(self.process.stdout, self.process.stdin, recipe)

    async def _gone(self) -> None:
        assert self.process is not None
        await self.process.wait()

    def _who(self) -> str:
        return f"pid {self.pid}"

    def _why(self) -> str:
        process = self.process
        code = process.returncode if process is not None else None
        if code is None:
            return f"pid {self.pid}: its pipe closed"
        if code < 0:
            return f"pid {self.pid}: killed by signal {signal.Signals(-code).name}"
        return f"pid {self.pid}: exited with status {code}"

    async def kill(self) -> None:
        process = self.process
        if process is None:
            return
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGKILL)
        await process.wait()
        await self._end_reader()
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
