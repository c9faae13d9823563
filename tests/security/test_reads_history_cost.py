"""Public reads do not starve the referee (2 of 2; test_reads_off_the_loop.py is 1):
ListMatches fetched every match of the ladder and kept the last few, the leaderboard
summed every seat ever played, and ListBots read every bot, on each request: a read cost
more as the history grew, until one client polling in a loop took the referee's time.

Here SQLite's own work on each public read (its progress handler, counted every 100
virtual-machine instructions; no clock) is compared on two databases: 2,000 matches
among 600 bots, and 30,000 matches among 3,000 bots (every bot in at least five).
Fails on a35e272: every read costs several times more on the bigger history (ListMatches
about 14 times). Passes now: each read is one page through an index, with per-bot totals
kept as matches are recorded; the same work on both.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
import pytest

from arena.server.app import start_arena
from arena.server.config import ServeConfig
from arena.v1 import arena_pb2, arena_pb2_grpc

from .reads_support import SqliteSpy, history_db

READ_THREADS = "arena-read"
"""The name prefix of the threads that serve public reads (``server/reads.py``)."""
Read = Callable[[arena_pb2_grpc.ArenaStub], Awaitable[Any]]
READS: dict[str, Read] = {
    "ListMatches": lambda s: s.ListMatches(arena_pb2.ListMatchesRequest(), timeout=60),
    "ListMatches of a bot": lambda s: s.ListMatches(
        arena_pb2.ListMatchesRequest(bot="bot00007", limit=5), timeout=60
    ),
    "GetLeaderboard": lambda s: s.GetLeaderboard(arena_pb2.GetLeaderboardRequest(), timeout=60),
    "ListBots": lambda s: s.ListBots(arena_pb2.ListBotsRequest(), timeout=60),
}


def _read_work(spy: SqliteSpy) -> int:
    """The ticks of the threads that serve public reads; where reads have no threads of
    their own (a35e272 read on the event loop), every tick."""
    if any(name.startswith(READ_THREADS) for name in spy.by_thread):
        return spy.ticks_of(READ_THREADS)
    return spy.ticks


def _work(db: Path, spy: SqliteSpy) -> dict[str, int]:
    """SQLite's work (progress ticks) on each read, after a first round that opens the
    connections: the work of the threads that serve public reads only (the ladder's own
    queries, or a background refresh of the rank intervals, may run meanwhile)."""

    async def main() -> dict[str, int]:
        # 8 reads: within the burst. On read threads, where the spy counts the SQLite work
        # (read processes run the same queries: read_jobs.py).
        config = ServeConfig(db=str(db), port=0, table_size=4, read_processes=0)
        arena = await start_arena(config)
        work = {}
        try:
            async with grpc.aio.insecure_channel(arena.address) as channel:
                stub = arena_pb2_grpc.ArenaStub(channel)
                for read in READS.values():
                    await read(stub)
                for name, read in READS.items():
                    before = _read_work(spy)
                    await read(stub)
                    work[name] = _read_work(spy) - before
        finally:
            await arena.stop(0)
        return work

    return asyncio.run(main())


@pytest.mark.slow
def test_a_read_costs_the_same_however_long_the_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = history_db(tmp_path / "small.db", matches=2_000, bots=600)
    big = history_db(tmp_path / "big.db", matches=30_000, bots=3_000)
    spy = SqliteSpy()
    spy.install(monkeypatch)
    small_work, big_work = _work(small, spy), _work(big, spy)
    print(f"work on the small history {small_work}, on the big one {big_work}")
    for name in READS:
        assert big_work[name] < 2 * small_work[name] + 20, (
            f"{name}: {big_work[name]} ticks on 30,000 matches and 3,000 bots against "
            f"{small_work[name]} on 2,000 matches and 600 bots"
        )
