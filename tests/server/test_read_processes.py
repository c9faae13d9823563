"""The public reads' processes (``arena.server.read_processes``), on a real SQLite file:
jobs run in other processes with their own connection, errors come back as themselves,
a killed process is replaced, and the processes end with the pool and with the arena."""

from __future__ import annotations

import asyncio
import operator
import os
import select
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from arena.server import read_jobs
from arena.server.errors import ReadsUnavailableError
from arena.server.read_processes import ReadProcesses
from arena.store import open_store
from arena.store.synthetic import add_matches
from arena.v1 import arena_pb2

ROOT = Path(__file__).resolve().parents[2]
BOTS = ("ada", "bea", "cyd", "dot", "eve", "fay", "gil")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "serve.db"
    store = open_store(path)
    try:
        add_matches(store, league_id="lg", ladder="lg/g/p/3p", bots=BOTS, count=30, table_size=3)
    finally:
        store.close()
    return path


def _pids(pool: ReadProcesses) -> list[int]:
    executor = pool._pool
    assert executor is not None
    return [p.pid for p in executor._processes.values() if p.pid is not None]


def test_jobs_run_elsewhere_and_errors_come_back_as_themselves(db: Path) -> None:
    pool = ReadProcesses(db)

    async def scenario() -> None:
        page, position = await pool.run(
            partial(read_jobs.matches, league_id="lg", bot=None, before=None, limit=10)
        )
        listed = arena_pb2.ListMatchesReply.FromString(page).matches
        assert [m.match_id for m in listed] == [f"lg/{i:06d}" for i in range(29, 19, -1)]
        assert position is not None
        assert os.getpid() not in _pids(pool)
        with pytest.raises(AttributeError, match="no_such_thing"):
            await pool.run(operator.attrgetter("no_such_thing"))

    try:
        asyncio.run(scenario())
    finally:
        pool.close()


def test_a_killed_read_process_is_replaced(db: Path) -> None:
    pool = ReadProcesses(db, processes=1)
    job = partial(read_jobs.matches, league_id="lg", bot="ada", before=None, limit=5)

    async def scenario() -> None:
        await pool.run(job)
        (pid,) = _pids(pool)
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(ReadsUnavailableError):
            await pool.run(job)
        page, _ = await pool.run(job)  # new processes
        assert len(arena_pb2.ListMatchesReply.FromString(page).matches) == 5
        assert pid not in _pids(pool)

    try:
        asyncio.run(scenario())
    finally:
        pool.close()


def test_closing_ends_the_processes(db: Path) -> None:
    pool = ReadProcesses(db)
    asyncio.run(
        pool.run(partial(read_jobs.matches, league_id="lg", bot=None, before=None, limit=1))
    )
    executor = pool._pool
    assert executor is not None
    processes = list(executor._processes.values())
    pool.close()
    assert processes
    assert not any(p.is_alive() for p in processes)


ARENA = """
import asyncio, sys
from functools import partial
from arena.server import read_jobs
from arena.server.read_processes import ReadProcesses
pool = ReadProcesses(sys.argv[1], processes=1)
asyncio.run(pool.run(partial(read_jobs.matches, league_id="lg", bot=None, before=None, limit=1)))
print(*(p.pid for p in pool._pool._processes.values()), flush=True)
sys.stdin.read()
"""


def test_the_processes_end_with_the_arena_killed(db: Path) -> None:
    arena = subprocess.Popen(
        [sys.executable, "-c", ARENA, str(db)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert arena.stdout is not None
        (pid,) = map(int, arena.stdout.readline().split())
        arena.kill()
        arena.wait()
        # It watches for its parent once a second. Not ours to wait for: a pidfd says
        # when it ends (a hang guard far above the second it takes).
        try:
            handle = os.pidfd_open(pid)
        except ProcessLookupError:
            return  # gone already
        try:
            ended, _, _ = select.select([handle], [], [], 120)
        finally:
            os.close(handle)
        assert ended, f"read process {pid} outlived the arena"
    finally:
        if arena.poll() is None:
            arena.kill()
            arena.wait()
