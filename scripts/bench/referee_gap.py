#!/usr/bin/env python3
"""Where the referee's time per decision goes, against a trivial bot in another process.

(a) compute: the referee's time between one decision's reply and the next request
    (run_match's own work in place: observe, encode, record, apply), median µs, and
    the median µs of its parts (observe, encode, resolve the reply, apply) in place;
(b) seat: RemoteSeat.decide on one stream with prebuilt requests, against a bare
    write + read on another stream: µs per round trip for both;
(c) spin: the echo round trip when the client busy-waits 0, 25, 50 and 100 µs between
    messages: what computing between messages costs beyond the computing itself;
(d) cold: in the echo loop, the µs of encoding one real request right after each round
    trip, and of encoding it again at once: what cold caches add to the same work.

Last line JSON.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee import recorded_requests, referee_us, start_server
from canned import canned_decision

from arena import native
from arena.games import abluxxen as ab
from arena.games import get as get_game
from arena.games.abluxxen.state import Event
from arena.games.abluxxen.wire_bytes import decide_request_bytes
from arena.gctune import tune_for_latency
from arena.referee import RemoteSeat
from arena.referee import seats as seat_module
from arena.referee.channels import ChannelPool
from arena.referee.seats import Decision, Reply
from arena.v1 import bot_pb2, bot_pb2_grpc


def _timed(name: str, function: Any, parts: dict[str, list[float]]) -> Any:
    samples = parts.setdefault(name, [])

    def timed(*args: Any) -> Any:
        started = time.perf_counter()
        result = function(*args)
        samples.append(time.perf_counter() - started)
        return result

    return timed


async def compute_us(endpoint: str) -> tuple[float, dict[str, list[float]]]:
    """Median µs between a decision's reply and the next request over 10 matches, and
    the samples of its timed parts (seconds)."""
    gaps: list[float] = []
    last_exit: list[float] = []
    parts: dict[str, list[float]] = {}
    decide = RemoteSeat.decide

    async def timed(self: RemoteSeat, decision: Decision) -> Reply:
        entered = time.perf_counter()
        if last_exit:
            gaps.append(entered - last_exit[0])
        reply = await decide(self, decision)
        last_exit[:] = [time.perf_counter()]
        return reply

    # The game's methods that the referee and the seat call, timed on the registered
    # game object itself while the matches run (instance attributes shadow the class's).
    game: Any = get_game("abluxxen")
    timed_parts = {
        (game, "observe"): "observe",
        (game, "apply_legal"): "apply_unchecked",
        (game.wire, "decide_request"): "encode",
    }
    for (owner, attr), part in timed_parts.items():
        setattr(owner, attr, _timed(part, getattr(owner, attr), parts))
    seat_names = vars(seat_module)
    saved_reader = seat_names["read_reply"]
    seat_names["read_reply"] = _timed("resolve", saved_reader, parts)
    seat_module.RemoteSeat.decide = timed  # type: ignore[method-assign]
    try:
        await referee_us(endpoint, 10)
    finally:
        seat_module.RemoteSeat.decide = decide  # type: ignore[method-assign]
        seat_names["read_reply"] = saved_reader
        for owner, attr in timed_parts:
            delattr(owner, attr)
    return statistics.median(g for g in gaps if g < 0.002) * 1e6, parts  # between matches: out


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
                reply = await seat.decide(canned_decision(i + 1, requests[i], 1000))
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


async def cold_vs_warm_us(endpoint: str, rounds: int) -> tuple[float, float]:
    """Median µs of ``decide_request_bytes`` first thing after an echo round trip, and
    of the same call repeated at once."""
    game: list[tuple[ab.Observation, tuple[Event, ...]]] = []
    state = ab.new_game(ab.make_config(4, "amigo"), random.Random(1))
    cursors = [0] * 4
    while state.kind is not None:
        seat = state.deciding
        obs = ab.observe(state, seat)
        game.append((obs, tuple(state.events[cursors[seat] :])))
        cursors[seat] = len(state.events)
        ab.apply_unchecked(state, obs.legal[0])
    requests = recorded_requests()
    cold, warm = [], []
    async with grpc.aio.insecure_channel(endpoint) as channel:
        call: Any = bot_pb2_grpc.BotStub(channel).Play()
        await call.write(bot_pb2.ArenaMessage(start=bot_pb2.MatchStart(match_id="cold")))
        for i in range(rounds):
            await call.write(requests[i % len(requests)])
            await call.read()
            obs, events = game[i % len(game)]
            started = time.perf_counter()
            decide_request_bytes(i + 1, 1000, 0, obs, events)
            between = time.perf_counter()
            decide_request_bytes(i + 1, 1000, 0, obs, events)
            cold.append(between - started)
            warm.append(time.perf_counter() - between)
        await call.done_writing()
        call.cancel()
    return statistics.median(cold) * 1e6, statistics.median(warm) * 1e6


async def measure() -> dict[str, object]:
    process, endpoint = start_server(hang=False)
    try:
        computed = [await compute_us(endpoint) for _ in range(3)]
        compute = statistics.median(c for c, _ in computed)
        parts = {
            name: round(statistics.median(s for _, p in computed for s in p[name]) * 1e6, 1)
            for name in computed[0][1]
        }
        seat, bare = await seat_vs_bare_us(endpoint, 1000)
        spin = await spin_us(endpoint, 1000, (0, 25, 50, 100))
        cold, warm = await cold_vs_warm_us(endpoint, 2000)
    finally:
        process.terminate()
        process.wait(timeout=10)
    return {
        "compute_between_messages_us": round(compute, 1),
        "compute_parts_us": parts,
        "remote_seat_us": round(seat, 1),
        "bare_stream_us": round(bare, 1),
        "echo_us_by_spin_us": spin,
        "encode_after_round_trip_us": round(cold, 1),
        "encode_repeated_at_once_us": round(warm, 1),
        "compiled": native.compiled(),
    }


def main() -> None:
    tune_for_latency()
    print(json.dumps(asyncio.run(measure())))


if __name__ == "__main__":
    main()
