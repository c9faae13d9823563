"""The public reads in processes of their own (``arena serve``'s gRPC reads).

On read threads (``reads.ReadPool``) a read's Python work (building rows and protobuf
messages from tens of rows) holds the GIL that the referee's event loop needs between
every two decisions: under a flood of reads the ladder slowed to about 0.8 of its quiet
rate on an install without the compiled build, whose reads take longest. In processes
of their own the reads share nothing with the loop but the CPU, which the operating
system divides. A read is a picklable job (``read_jobs``, bound with
``functools.partial``) run with the process's own read-only connection; what only the
arena's process knows is passed in, and the answer comes back as plain values and
protobuf messages.

The processes are spawned on the first read (a server nobody reads pays nothing), end
with the arena (``worker_processes``), and a process that died is replaced on the next
read (the read that found it dead is told the arena cannot answer now).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Final, TypeVar

from arena.store import Store, StoreError, open_store

from .errors import ReadsUnavailableError
from .reads import MAX_WAITING, UNREADABLE
from .worker_processes import end_pool, end_with_arena, process_pool

T = TypeVar("T")

READ_PROCESSES: Final = 2
"""Processes (and read connections)."""

_store: Store | None = None
"""The read connection of this read process (in a read process only)."""
_db: str = ""


def _in_the_process(arena: int, db: str) -> None:  # pragma: no cover - in a read process
    global _db
    _db = db
    end_with_arena(arena, "arena-read-parent")


def _call(job: Callable[[Store], T]) -> T:  # pragma: no cover - runs in a read process
    """``job`` with this process's connection (opened again after one was lost)."""
    global _store
    if _store is None:
        try:
            _store = open_store(_db, read_only=True)
        except StoreError as error:  # a database server down or unreachable
            raise ReadsUnavailableError(UNREADABLE) from error
    try:
        return job(_store)
    except Exception as error:
        if _store.write_fault(error) is None:
            raise
        _store.close()
        _store = None
        raise ReadsUnavailableError(UNREADABLE) from error


class ReadProcesses:
    """Read processes with read-only connections to one database; as ``ReadPool``,
    for jobs that pickle."""

    def __init__(
        self, db: str | Path, *, processes: int = READ_PROCESSES, max_waiting: int = MAX_WAITING
    ) -> None:
        self.db = str(db)
        self.processes = processes
        self.max_waiting = max_waiting
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._waiting = 0

    @property
    def busy(self) -> bool:
        """Whether the processes have as many reads as they take (refuse more for now)."""
        return self._waiting >= self.max_waiting

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = process_pool(self.processes, _in_the_process, self.db)
            return self._pool

    async def run(self, job: Callable[[Store], T]) -> T:
        """``job(store)`` in a read process (``job`` must pickle: a module-level
        function, or a ``functools.partial`` of one)."""
        self._waiting += 1
        pool = self._executor()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, _call, job)
        except BrokenProcessPool:  # a process died (killed): replace them all
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            end_pool(pool)
            raise ReadsUnavailableError(UNREADABLE) from None
        finally:
            self._waiting -= 1

    def close(self) -> None:
        """End the processes now."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            end_pool(pool)
