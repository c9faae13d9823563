#!/usr/bin/env python3
"""Where the referee's time per decision goes, against a trivial bot in another process.

(a) compute: the referee's time between one decision's reply and the next request
    (run_match's own work in place: observe, encode, record, apply), median µs;
(b) seat: RemoteSeat.decide on one stream with prebuilt requests, against a bare
    write + read on another stream: µs per round trip for both;
(c) spin: the echo round trip when the client busy-waits 0, 25, 50 and 100 µs between
    messages: what computing between messages costs beyond the computing itself.

Last line JSON.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee import recorded_requests, referee_us, start_server

from arena import native
from arena.gctune import tune_for_latency
from arena.referee import RemoteSeat
from arena.referee import seats as seat_module
from arena.referee.channels import ChannelPool
from arena.referee.seats import Decision, Reply
from arena.v1 import bot_pb2, bot_pb2_grpc


async def compute_us(endpoint: str) -> float:
    """Median µs between a decision's reply and the next request, over 10 matches."""
    gaps: list[float] = []
    last_exit: list[float] = []
    decide = RemoteSeat.decide

    async def timed(self: RemoteSeat, decision: Decision) -> Reply:
        entered = time.perf_counter()
        if last_exit:
            gaps.append(entered - last_exit[0])
        reply = await decide(self, decision)
        last_exit[:] = [time.perf_counter()]
        return reply

    seat_module.RemoteSeat.decide = timed  # type: ignore[method-assign]
    try:
        await referee_us(endpoint, 10)
    finally:
        seat_module.RemoteSeat.decide = decide  # type: ignore[method-assign]
    return statistics.median(g for g in gaps if g < 0.002) * 1e6  # between matches: out


async def seat_vs_bare_us(endpoint: str, rounds: int) -> tuple[float, float]:
    """(RemoteSeat.decide µs, bare write+read µs) per round trip, alternating 5 times."""
    raw = [m.SerializeToString() for m in recorded_requests()]
    pool = ChannelPool()
    channel = pool.get(endpoint)
    seat_samples, bare_samples = [], []
    try:
        for _ in range(5):
            call: Any = bot_pb2_grpc.BotStub(channel).Play()
            await call.write(bot_pb2.ArenaMessage(start=bot_pb2.MatchStart(match_id="bare")))
            messages = [bot_pb2.ArenaMessage.FromString(r) for r in raw]
            started = time.perf_counter()
            for i in range(rounds):
                await call.write(messages[i % len(messages)])
                await call.read()
            bare_samples.append((time.perf_counter() - started) / rounds * 1e6)
            await call.done_writing()
            call.cancel()
            seat = RemoteSeat("gap", channel, max_reply_bytes=4096)
            await seat.open(bot_pb2.MatchStart(match_id="seat"), 5.0)
            requests = []
            for i in range(rounds):
                message = bot_pb2.ArenaMessage.FromString(raw[i % len(raw)])
                message.decide.request_id = i + 1
                requests.append(message.SerializeToString())
            started = time.perf_counter()
            for i in range(rounds):
                reply = await seat.decide(Decision(i + 1, None, requests[i], 1.0, 0.0))  # type: ignore[arg-type]
                assert reply.fault is None, reply.fault
            seat_samples.append((time.perf_counter() - started) / rounds * 1e6)
            await seat.close(bot_pb2.MatchOver(), 1.0)
    finally:
        await pool.close()
    return statistics.median(seat_samples), statistics.median(bare_samples)


async def spin_us(endpoint: str, rounds: int, spins: tuple[int, ...]) -> dict[str, float]:
    """Echo µs per round trip with a busy wait of each ``spins`` µs between messages."""
    requests = recorded_requests()
    out: dict[str, list[float]] = {str(s): [] for s in spins}
    async with grpc.aio.insecure_channel(endpoint) as channel:
        call: Any = bot_pb2_grpc.BotStub(channel).Play()
        await call.write(bot_pb2.ArenaMessage(start=bot_pb2.MatchStart(match_id="spin")))
        for _ in range(3):
            for spin in spins:
                started = time.perf_counter()
                for i in range(rounds):
                    await call.write(requests[i % len(requests)])
                    await call.read()
                    until = time.perf_counter() + spin / 1e6
                    while time.perf_counter() < until:
                        pass
                out[str(spin)].append((time.perf_counter() - started) / rounds * 1e6)
        await call.done_writing()
        call.cancel()
    return {k: round(statistics.median(v), 1) for k, v in out.items()}


async def measure() -> dict[str, object]:
    process, endpoint = start_server(hang=False)
    try:
        compute = statistics.median([await compute_us(endpoint) for _ in range(3)])
        seat, bare = await seat_vs_bare_us(endpoint, 1000)
        spin = await spin_us(endpoint, 1000, (0, 25, 50, 100))
    finally:
        process.terminate()
        process.wait(timeout=10)
    return {
        "compute_between_messages_us": round(compute, 1),
        "remote_seat_us": round(seat, 1),
        "bare_stream_us": round(bare, 1),
        "echo_us_by_spin_us": spin,
        "compiled": native.compiled(),
    }


def main() -> None:
    tune_for_latency()
    print(json.dumps(asyncio.run(measure())))


if __name__ == "__main__":
    main()
