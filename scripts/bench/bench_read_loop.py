#!/usr/bin/env python3
"""What a public read costs the arena's event loop: CPU seconds of the loop's thread per
read (the thread the referee shares), for full pages of GetLeaderboard, ListMatches and
ListBots, answered one after the other by an `arena serve` started in this process.

CPU time of one thread, not wall time: unlike ``bench_reads.py``'s ladder rate it hardly
moves with the machine's load, so two versions of the code compare in one sitting
(``PYTHONPATH=DIR`` serves DIR's code). The client runs on a thread and channel of its
own, whose CPU is not the loop's; the reads themselves run in the read processes.

    .venv/bin/python scripts/bench/bench_read_loop.py --db /tmp/loop.db --reads 100

Builds ``--db`` the first time (700 bots, 20,000 matches: pages of 500 rows).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

import grpc

from arena.server.app import start_arena
from arena.server.config import ServeConfig
from arena.store import open_store
from arena.store.synthetic import add_bots, add_matches
from arena.v1 import arena_pb2, arena_pb2_grpc

LADDER = "serve/abluxxen/amigo/4p"
READS = (
    ("GetLeaderboard", arena_pb2.GetLeaderboardRequest(page_size=500)),
    ("ListMatches", arena_pb2.ListMatchesRequest(limit=500)),
    ("ListBots", arena_pb2.ListBotsRequest(page_size=500)),
)


def build(db: Path) -> None:
    """700 bots and 20,000 matches among them."""
    store = open_store(db)
    try:
        names = [f"b{i:04d}" for i in range(700)]
        add_bots(store, names, owner="ann")
        add_matches(
            store,
            league_id=LADDER,
            ladder=LADDER,
            bots=names,
            count=20_000,
            league_config={"serve": {"preset": "amigo", "table_size": 4}},
        )
    finally:
        store.close()


def ask(address: str, method: str, request: object, reads: int) -> None:
    """``reads`` calls, one after the other (on a thread of its own)."""
    with grpc.insecure_channel(address) as channel:
        call = getattr(arena_pb2_grpc.ArenaStub(channel), method)
        for _ in range(reads):
            call(request, timeout=120)


async def measure(db: Path, reads: int) -> None:
    arena = await start_arena(ServeConfig(db=str(db), port=0, table_size=4, read_rate=0))
    loop = asyncio.get_running_loop()
    try:
        # Uncounted: the read processes start, the rank intervals are fitted.
        for method, request in READS:
            await loop.run_in_executor(None, ask, arena.address, method, request, 5)
        for method, request in READS:
            cpu, wall = time.thread_time(), time.perf_counter()
            await loop.run_in_executor(None, ask, arena.address, method, request, reads)
            cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
            print(
                f"{method:15s} loop thread {1000 * cpu / reads:5.2f} ms CPU a read "
                f"(wall {1000 * wall / reads:5.1f} ms a read)",
                flush=True,
            )
    finally:
        await arena.stop(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, required=True, help="built here the first time")
    parser.add_argument("--reads", type=int, default=100, help="reads of each kind")
    args = parser.parse_args()
    if not args.db.exists():
        build(args.db)
    asyncio.run(measure(args.db, args.reads))


if __name__ == "__main__":
    main()
