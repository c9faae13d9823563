"""Public reads do not starve the referee (1 of 2; test_reads_history_cost.py is 2): a
public read's SQLite work ran on the event loop that the referee shares, so while it
read, no bot was asked for a decision or timed.

Here a ListMatches query is held where it runs (a spy on every SQLite connection, no
clock involved) while the test, on the server's event loop, asks the arena for its
health. Fails on a35e272: the query runs on the loop's own thread, so the loop stands
still until the hold gives up (the read ran on the loop thread, and the health check
could not be answered while it was held). Passes now: the read runs on a read thread
with its own connection, and the loop answers meanwhile.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from arena.server.app import start_arena
from arena.server.config import ServeConfig
from arena.v1 import arena_pb2, arena_pb2_grpc

from .reads_support import SqliteSpy, current_thread_name, history_db

GUARD_S = 20.0
"""How long the held read waits for the test to release it before it gives up (only
reached when the loop is blocked, i.e. when the test fails)."""


def test_a_held_read_does_not_stop_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = history_db(tmp_path / "serve.db", matches=30, bots=20)
    spy = SqliteSpy()
    spy.install(monkeypatch)
    held_on: list[str] = []
    gave_up: list[bool] = []
    answered_while_held: list[bool] = []

    async def main() -> tuple[str, int]:
        # On read threads: the spy sees only this process's connections (in the read
        # processes, the default, a read shares not even the interpreter with the loop).
        config = ServeConfig(db=str(db), port=0, table_size=4, read_processes=0)
        arena = await start_arena(config)
        loop = asyncio.get_running_loop()
        loop_thread = current_thread_name()
        reading = asyncio.Event()
        release = threading.Event()

        def hold(sql: str) -> None:
            if "FROM matches" in sql and "league_id" in sql and not held_on:
                held_on.append(current_thread_name())
                loop.call_soon_threadsafe(reading.set)
                gave_up.append(not release.wait(GUARD_S))

        try:
            async with grpc.aio.insecure_channel(arena.address) as channel:
                arena_stub = arena_pb2_grpc.ArenaStub(channel)
                health_stub = health_pb2_grpc.HealthStub(channel)
                spy.hold = hold
                listing = asyncio.ensure_future(
                    arena_stub.ListMatches(arena_pb2.ListMatchesRequest(limit=5), timeout=60)
                )
                await reading.wait()
                health = await health_stub.Check(
                    health_pb2.HealthCheckRequest(service=""), timeout=60
                )
                answered_while_held.append(
                    health.status == health_pb2.HealthCheckResponse.SERVING
                    and not release.is_set()
                    and not gave_up
                )
                release.set()
                reply = await listing
        finally:
            spy.hold = None
            release.set()
            await arena.stop(0)
        return loop_thread, len(reply.matches)

    loop_thread, listed = asyncio.run(main())
    assert held_on, "the listing never read the matches table"
    assert held_on[0] != loop_thread, "the read ran on the event loop's thread"
    assert gave_up == [False]
    assert answered_while_held == [True]
    assert listed == 5
