"""A database that cannot be written (a full disk) pauses the ladder; it made the ladder a
hot loop.

Fails on a35e272: a failed write was logged as a failed match and the ladder started
the next one at once (Hellos, then a claim that fails: hundreds of attempts a second),
health stayed SERVING, and a finished match whose commit failed was lost. (``start_arena``
took neither a store nor a clock then; with the same store injected, the attempts grow
without the clock moving and the kept match never reaches the database.)

Passes now: the first failed write pauses the ladder: no match starts, health is
NOT_SERVING, ``ladder_status`` says why, the log says to free space (once, then once a
minute), submissions are refused UNAVAILABLE; the ladder writes again once per interval
of its clock (1 s, doubling to 60 s), one transaction each; the finished match and its
bots' counts are kept in memory and committed as soon as a write succeeds, and the
ladder resumes by itself. The disk is simulated: a real SQLite store whose transactions
raise SQLite's own error while ``full`` is set.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from server.support import FLAG_BOT, Clock, Processes, auth, token
from server.support import until_async as _until

from arena.server.app import ARENA_SERVICE, RunningArena, start_arena
from arena.server.config import ServeConfig
from arena.server.ladder import STORE_LOG_EVERY_S, STORE_RETRY_MAX_S, STORE_RETRY_S
from arena.v1 import arena_pb2, arena_pb2_grpc

from .disk_support import FULL, FillingDisk


def _failed(store: FillingDisk, count: int) -> bool:
    return store.failed == count


async def _settle(arena: RunningArena) -> None:
    """Let the ladder look many times (what used to spin) without moving its clock."""
    for _ in range(50):
        arena.ladder.wake()
        await asyncio.sleep(0.01)


@pytest.mark.slow
def test_a_full_disk_pauses_the_ladder_and_loses_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "serve.db"
    alice = token(db, "alice")
    flag = tmp_path / "slow"
    procs = Processes()
    try:
        bots = procs.bots(
            [FLAG_BOT, "--slow-flag", str(flag), "--sleep-ms", "100"],
            [FLAG_BOT, "--slow-flag", str(flag), "--sleep-ms", "100"],
        )
        with caplog.at_level(logging.INFO, logger="arena.serve"):
            asyncio.run(_scenario(db, alice, flag, [b.address for b in bots], caplog))
    finally:
        procs.kill_all()


async def _scenario(
    db: Path, alice: str, flag: Path, endpoints: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    store = FillingDisk(db)
    config = ServeConfig(
        db=str(db), port=0, table_size=2, concurrency=1, verify_games=0, placement_matches=0
    )
    arena = await start_arena(config, store=store, clock=clock)
    ladder = arena.ladder
    try:
        async with grpc.aio.insecure_channel(arena.address) as channel:
            client = arena_pb2_grpc.ArenaStub(channel)
            health = health_pb2_grpc.HealthStub(channel)

            async def serving() -> list[int]:
                return [
                    (await health.Check(health_pb2.HealthCheckRequest(service=s))).status
                    for s in ("", ARENA_SERVICE)
                ]

            # A match in play (slow: the bots sleep while the flag file exists) when the
            # disk fills up.
            flag.touch()
            for name, endpoint in zip(("one", "two"), endpoints, strict=True):
                request = arena_pb2.SubmitBotRequest(name=name, endpoint=endpoint)
                await client.SubmitBot(request, metadata=auth(alice))
            await _until(lambda: ladder.running, "a match in play")
            in_play = next(iter(ladder.running))
            store.full = True
            flag.unlink()  # it ends now; its commit fails
            await _until(lambda: ladder.store_problem is not None, "the ladder to pause")
            await _until(lambda: not ladder.running, "the match to end")
            rated = ladder.rated_matches
            assert ladder.kept_matches == 1
            assert store.match(in_play) is None
            assert store.failed == 1

            # Paused, and says so: health, status, the log with what to do.
            await _settle(arena)
            assert await serving() == [health_pb2.HealthCheckResponse.NOT_SERVING] * 2
            listed = await client.ListBots(arena_pb2.ListBotsRequest())
            assert listed.ladder_status.startswith("paused: the arena cannot write its database")
            assert FULL in listed.ladder_status
            assert "1 finished match(es) kept" in listed.ladder_status
            assert str(db) not in listed.ladder_status  # public: no path of the host
            said = [r.getMessage() for r in caplog.records if "cannot write" in r.getMessage()]
            assert len(said) == 1
            assert f"free space on the disk that holds {db}" in said[0]
            request = arena_pb2.SubmitBotRequest(name="three", endpoint="127.0.0.1:9")
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await client.SubmitBot(request, metadata=auth(alice))
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
            assert FULL in (refused.value.details() or "")

            # No hot loop: without the clock moving, nothing is tried and nothing starts;
            # each interval of the clock (doubling) brings exactly one write attempt.
            await _settle(arena)
            assert store.failed == 1
            assert not ladder.running
            wait = STORE_RETRY_S
            for i in range(4):
                clock.now += wait * 0.9
                await _settle(arena)
                assert store.failed == 1 + i  # not yet
                clock.now += wait * 0.1
                before = store.failed
                ladder.wake()
                await _until(partial(_failed, store, before + 1), "one more attempt")
                await _settle(arena)
                assert store.failed == before + 1
                wait *= 2
            # Once a minute at most in the log, however long it lasts.
            for _ in range(5):
                clock.now += STORE_RETRY_MAX_S
                before = store.failed
                ladder.wake()
                await _until(partial(_failed, store, before + 1), "one more attempt")
            said = [r.getMessage() for r in caplog.records if "cannot write" in r.getMessage()]
            minutes = (clock.now - 1000.0) // STORE_LOG_EVERY_S
            assert 2 <= len(said) <= 1 + minutes + 1
            assert not ladder.running
            assert ladder.rated_matches == rated

            # Space again: the kept match is committed (with its bots' counts), health
            # says SERVING, and matches resume, without anyone touching the ladder.
            store.full = False
            clock.now += STORE_RETRY_MAX_S
            ladder.wake()
            await _until(lambda: ladder.store_problem is None, "the ladder to resume")
            assert store.match(in_play) is not None
            assert store.record(in_play) is not None
            assert ladder.kept_matches == 0
            assert ladder.rated_matches == rated + 1
            await _until(lambda: ladder.rated_matches >= rated + 3, "matches to resume")
            assert await serving() == [health_pb2.HealthCheckResponse.SERVING] * 2
            listed = await client.ListBots(arena_pb2.ListBotsRequest())
            assert listed.ladder_status.startswith("running:"), listed.ladder_status
            history = "SELECT count(*) FROM rating_history WHERE match_id = ?"
            assert store.read(history, (in_play,))[0][0] == 2
            assert any("ladder resumed" in r.getMessage() for r in caplog.records)
    finally:
        await arena.stop(0)
