"""The public reads of ``arena serve`` (bots, leaderboard, matches, a match's record),
answered off the event loop.

The referee runs on the server's event loop: every moment a read holds the loop is a
moment no bot's decision is asked for or timed. So each read runs on a small pool of
worker threads, each with its own read-only SQLite connection (WAL: readers never block
the writer, which keeps its own connection on the loop, nor see half a transaction). The
loop only hands the read over and takes the answer back. At most ``max_waiting`` reads
are in the pool's hands at once; beyond that the arena says it is busy rather than
queueing without end.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Final, TypeVar

from arena.store import Store, StoreError, open_store

from .errors import ReadsUnavailableError

T = TypeVar("T")

READ_THREADS: Final = 2
"""Worker threads (and read connections)."""
MAX_WAITING: Final = 64
"""Reads handed to the pool and not yet answered, at most."""


UNREADABLE: Final = "the arena cannot read its database right now; try again later"
"""What a read is told while the database cannot be read (a server down)."""


class ReadPool:
    """Worker threads with read-only connections to one database."""

    def __init__(
        self, db: str | Path, *, threads: int = READ_THREADS, max_waiting: int = MAX_WAITING
    ) -> None:
        self.db = db
        self.max_waiting = max_waiting
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="arena-read")
        self._local = threading.local()
        self._stores: list[Store] = []
        self._lock = threading.Lock()
        self._waiting = 0

    @property
    def busy(self) -> bool:
        """Whether the pool has as many reads as it takes (refuse more for now)."""
        return self._waiting >= self.max_waiting

    async def run(self, read: Callable[[Store], T]) -> T:
        """``read(store)`` on a worker thread, with that thread's read-only Store."""
        self._waiting += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, self._call, read)
        finally:
            self._waiting -= 1

    def _call(self, read: Callable[[Store], T]) -> T:
        store: Store | None = getattr(self._local, "store", None)
        if store is None:
            try:
                store = open_store(self.db, read_only=True)
            except StoreError as error:  # a database server down or unreachable
                raise ReadsUnavailableError(UNREADABLE) from error
            self._local.store = store
            with self._lock:
                self._stores.append(store)
        try:
            return read(store)
        except Exception as error:
            if store.write_fault(error) is None:  # (a lost connection: opened again next)
                raise
            raise ReadsUnavailableError(UNREADABLE) from error

    def close(self) -> None:
        """Wait for the reads under way, then close every connection."""
        self._executor.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            stores, self._stores = self._stores, []
        for store in stores:
            store.close()
