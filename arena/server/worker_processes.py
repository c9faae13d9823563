"""Worker processes of ``arena serve`` (the fit worker, the read processes): spawned,
ended with the arena, and ended at once when it stops.

Spawned, not forked: the arena's process runs gRPC's threads, which a fork does not
survive. A worker watches the arena's process id and ends when it is gone (killed, say,
with no chance to end its workers): a parent-death signal would fire when the thread
that started the worker ends, and that may be any thread.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any


def process_pool(
    workers: int, initializer: Callable[..., None], *initargs: Any
) -> ProcessPoolExecutor:
    """``workers`` spawned processes, each running ``initializer(arena_pid, *initargs)``
    first (which should call ``end_with_arena``)."""
    return ProcessPoolExecutor(
        workers,
        mp_context=get_context("spawn"),
        initializer=initializer,
        initargs=(os.getpid(), *initargs),
    )


def end_with_arena(arena: int, name: str) -> None:  # pragma: no cover - runs in a worker
    """In a worker: end this process once the arena's process ``arena`` is gone."""

    def watch() -> None:
        while os.getppid() == arena:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name=name, daemon=True).start()


def end_pool(pool: ProcessPoolExecutor) -> None:
    """End ``pool``'s processes now, work under way or not (a server stopping must not
    wait for answers nobody will read). Each is ended by its id; then the executor's own
    thread reaps them (it alone: two threads waiting for one child race, and the loser
    may see it alive after it is gone)."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
