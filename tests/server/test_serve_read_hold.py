"""Reads refused for the read rate are held before the refusal is sent (so a client that
asks again at once waits instead of spinning), for the time until its address may read
again, within bounds, and only so many at once per address. An arena in this process
with the hold replaced by a fake: nothing here waits on a clock."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest

from arena.server import servicer
from arena.server.app import start_arena
from arena.server.config import ServeConfig
from arena.v1 import arena_pb2, arena_pb2_grpc


def test_refusals_are_held_within_bounds_and_only_so_many_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    holds: list[float] = []
    gate: asyncio.Event | None = None
    held_now: list[int] = [0]
    all_held: asyncio.Event | None = None

    async def fake_hold(seconds: float) -> None:
        holds.append(seconds)
        if gate is not None:
            assert all_held is not None
            held_now[0] += 1
            if held_now[0] == servicer.MAX_HELD_PER_ADDRESS:
                all_held.set()
            await gate.wait()

    monkeypatch.setattr(servicer, "_hold", fake_hold)

    async def main() -> tuple[list[grpc.StatusCode], list[str]]:
        nonlocal gate, all_held
        slow = ServeConfig(db=str(tmp_path / "a.db"), port=0, read_rate=0.001, read_burst=1)
        arena = await start_arena(slow)
        try:
            async with grpc.aio.insecure_channel(arena.address) as channel:
                stub = arena_pb2_grpc.ArenaStub(channel)
                await stub.ListBots(arena_pb2.ListBotsRequest(), timeout=10)
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await stub.ListBots(arena_pb2.ListBotsRequest(), timeout=10)
                assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert holds == [servicer.MAX_HOLD_S]  # the next read is 1000 s away
                # As many refusals as an address may have held wait; the next is sent at
                # once, without a hold.
                gate, all_held = asyncio.Event(), asyncio.Event()
                waiting = [
                    asyncio.ensure_future(
                        stub.ListMatches(arena_pb2.ListMatchesRequest(), timeout=10)
                    )
                    for _ in range(servicer.MAX_HELD_PER_ADDRESS)
                ]
                await all_held.wait()
                holds.clear()
                with pytest.raises(grpc.aio.AioRpcError) as at_once:
                    await stub.GetLeaderboard(arena_pb2.GetLeaderboardRequest(), timeout=10)
                assert holds == []
                assert "try again in" in (at_once.value.details() or "")
                gate.set()
                ended = await asyncio.gather(*waiting, return_exceptions=True)
        finally:
            await arena.stop(0)
        codes = [e.code() for e in ended if isinstance(e, grpc.aio.AioRpcError)]
        return codes, [at_once.value.code().name]

    codes, at_once = asyncio.run(main())
    assert codes == [grpc.StatusCode.RESOURCE_EXHAUSTED] * servicer.MAX_HELD_PER_ADDRESS
    assert at_once == ["RESOURCE_EXHAUSTED"]
