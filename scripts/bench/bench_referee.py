#!/usr/bin/env python3
"""Referee overhead against the bare cost of the gRPC stream, measured in one run.

(a) echo: one open Play stream to a trivial bot server in another process; send real
    DecideRequests (recorded from a 4-player game, so the sizes are the real ones) and
    wait for each one-line reply: microseconds per round trip.
(b) referee: 4-player matches run by the referee against the same trivial server (it
    answers legal_index 0 at once): microseconds per decision. Samples of (a) and (b)
    alternate (--samples pairs); "ratio" is the median of the pairs' ratios.
(c) isolation: 64 concurrent matches, with and without one hanging bot among them
    (never forfeited, 100 ms deadline): the other matches' decisions/s in both runs,
    and how late each timed-out decision was cut (ms past its deadline).
(d) loop: the same matches against in-process seats that answer at once with
    already-built replies (no gRPC): the referee's own work per decision, in µs.

Last line JSON: {"echo_us", "referee_us", "ratio", "isolation_ratio", "cut_late_ms_max",
"loop_us", "compiled", ...}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator

import grpc

from arena import native
from arena.games import abluxxen as ab
from arena.games.abluxxen import events as event_views
from arena.games.abluxxen import wire
from arena.gctune import tune_for_latency
from arena.referee import MatchSpec, RemoteSeat, Seat, run_match
from arena.referee.channels import ChannelPool
from arena.referee.replies import read_reply
from arena.referee.seats import Decision, Reply
from arena.v1 import bot_pb2, bot_pb2_grpc


class TrivialBot(bot_pb2_grpc.BotServicer):
    """Answers every decision with legal_index 0 at once, or never (``hang``)."""

    def __init__(self, hang: bool) -> None:
        self._hang = hang

    async def Hello(  # noqa: N802 - gRPC method name
        self, request: bot_pb2.HelloRequest, context: grpc.aio.ServicerContext
    ) -> bot_pb2.HelloReply:
        return bot_pb2.HelloReply(name="trivial", games=["abluxxen"])

    async def Play(  # noqa: N802 - gRPC method name
        self, request_iterator: AsyncIterator[bot_pb2.ArenaMessage], context: object
    ) -> AsyncIterator[bot_pb2.BotMessage]:
        async for message in request_iterator:
            if message.HasField("decide") and not self._hang:
                yield bot_pb2.BotMessage(request_id=message.decide.request_id, legal_index=0)


async def serve(hang: bool) -> None:
    """Run a trivial bot server and print its port."""
    server = grpc.aio.server()
    bot_pb2_grpc.add_BotServicer_to_server(TrivialBot(hang), server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(f"arena-bot listening on 127.0.0.1:{port}", flush=True)
    await server.wait_for_termination()


def start_server(hang: bool) -> tuple[subprocess.Popen[str], str]:
    """A trivial server in another process, and its endpoint."""
    command = [sys.executable, __file__, "--serve", "hang" if hang else "instant"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    return process, line.rsplit(" ", 1)[-1].strip()


def recorded_requests() -> list[bot_pb2.ArenaMessage]:
    """The DecideRequests of a real 4-player game, as the referee would send them."""
    state = ab.new_game(ab.make_config(4, "amigo"), random.Random(11))
    cursors = [0] * 4
    out: list[bot_pb2.ArenaMessage] = []
    rng = random.Random(5)
    while not state.is_over:
        seat = state.deciding
        obs = ab.observe(state, seat)
        views = event_views.views(state.events, seat, cursors[seat])
        cursors[seat] = len(state.events)
        decide = bot_pb2.DecideRequest(
            request_id=len(out) + 1,
            deadline_ms=1000,
            abluxxen=wire.decision_to_proto(obs, views),
        )
        out.append(bot_pb2.ArenaMessage(decide=decide))
        ab.apply(state, rng.choice(obs.legal))
    return out


async def echo_us(endpoint: str, rounds: int) -> float:
    """Microseconds per request/reply on one open stream."""
    requests = recorded_requests()
    async with grpc.aio.insecure_channel(endpoint) as channel:
        call = bot_pb2_grpc.BotStub(channel).Play()
        await call.write(bot_pb2.ArenaMessage(start=bot_pb2.MatchStart(match_id="echo")))
        for message in requests[:50]:  # warm-up
            await call.write(message)
            await call.read()
        started = time.perf_counter()
        for i in range(rounds):
            message = requests[i % len(requests)]
            message.decide.request_id = i + 1
            await call.write(message)
            await call.read()
        elapsed = time.perf_counter() - started
        await call.done_writing()
        call.cancel()
    return elapsed / rounds * 1e6


class _InstantSeat:
    """A remote-looking seat without gRPC: the request bytes are built, the reply is
    legal_index 0 at once."""

    def __init__(self, name: str) -> None:
        self.name = name

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> None:
        return None

    async def decide(self, decision: Decision) -> Reply:
        decision.request_bytes()
        reply = bot_pb2.BotMessage(request_id=decision.request_id, legal_index=0)
        action, fault = read_reply(reply, decision.observation.legal, decision.wire)
        return Reply(action=action, fault=fault, elapsed_s=0.0)

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        return None


async def instant_matches(matches: int) -> int:
    """Play ``matches`` 4-player matches among instant in-process seats (the referee's own
    work, no gRPC); the decisions made."""
    decisions = 0
    for index in range(matches):
        seats: list[Seat] = [_InstantSeat(f"b{s}") for s in range(4)]
        decisions += (await run_match(_spec(index), seats)).decisions
    return decisions


async def loop_us(matches: int) -> float:
    """Microseconds per decision of the referee's own work (no gRPC)."""
    started = time.perf_counter()
    decisions = await instant_matches(matches)
    return (time.perf_counter() - started) / decisions * 1e6


def _spec(index: int, deadline_ms: int = 1000, max_strikes: int = 3) -> MatchSpec:
    return MatchSpec(
        match_id=f"bench-{index}",
        config=ab.make_config(4, "amigo"),
        seed=index,
        deadline_ms=deadline_ms,
        max_strikes=max_strikes,
    )


async def referee_us(endpoint: str, matches: int) -> float:
    """Microseconds per decision of sequential matches against the trivial server."""
    pool = ChannelPool()
    channel = pool.get(endpoint)
    decisions = 0
    elapsed = 0.0
    for index in range(matches + 2):
        seats: list[Seat] = [RemoteSeat(f"b{s}", channel, max_reply_bytes=4096) for s in range(4)]
        started = time.perf_counter()
        outcome = await run_match(_spec(index), seats)
        if index >= 2:  # the first two warm up
            elapsed += time.perf_counter() - started
            decisions += outcome.decisions
    await pool.close()
    return elapsed / decisions * 1e6


async def concurrent_rate(
    endpoint: str, hang_endpoint: str | None, matches: int
) -> tuple[float, list[float]]:
    """Decisions/s of the normal matches among ``matches`` concurrent ones (one of them
    with a hanging seat if ``hang_endpoint``), and how late each timeout was cut (ms)."""
    pool = ChannelPool()

    async def one(index: int) -> tuple[int, float, list[float]]:
        hang = hang_endpoint is not None and index == 0
        seats: list[Seat] = [
            RemoteSeat(
                f"b{s}",
                pool.get(hang_endpoint if hang and s == 1 and hang_endpoint else endpoint),
                max_reply_bytes=4096,
            )
            for s in range(4)
        ]
        started = time.perf_counter()
        spec = _spec(1000 + index, deadline_ms=100 if hang else 1000, max_strikes=0)
        outcome = await run_match(spec, seats)
        late = [
            line["ms"] - spec.deadline_ms
            for line in outcome.record
            if line.get("fault", {}).get("kind") == "TIMEOUT"
        ]
        return outcome.decisions, time.perf_counter() - started, late

    results = await asyncio.gather(*(one(i) for i in range(matches)))
    await pool.close()
    normal = results[1:] if hang_endpoint else results
    decisions = sum(r[0] for r in normal)
    wall = max(r[1] for r in normal)
    late = [x for r in results for x in r[2]]
    return decisions / wall, late


async def measure(args: argparse.Namespace) -> dict[str, float]:
    """All measurements against fresh server processes."""
    instant, endpoint = start_server(hang=False)
    hanging, hang_endpoint = start_server(hang=True)
    try:
        # Alternate the samples, so that a change in the machine's load (it is shared)
        # weighs on both sides alike; the ratio is the median of the pairs' ratios.
        pairs = []
        for _ in range(args.samples):
            echo_sample = await echo_us(endpoint, args.rounds)
            pairs.append((echo_sample, await referee_us(endpoint, args.matches)))
        echo = statistics.median(e for e, _ in pairs)
        referee = statistics.median(r for _, r in pairs)
        ratio = statistics.median(r / e for e, r in pairs)
        base_rate, _ = await concurrent_rate(endpoint, None, args.concurrent)
        hang_rate, late = await concurrent_rate(endpoint, hang_endpoint, args.concurrent)
        loop = statistics.median([await loop_us(args.matches * 5) for _ in range(3)])
    finally:
        for process in (instant, hanging):
            process.terminate()
            process.wait(timeout=10)
    return {
        "echo_us": round(echo, 1),
        "referee_us": round(referee, 1),
        "ratio": round(ratio, 3),
        "ratios": [round(r / e, 3) for e, r in pairs],
        "concurrent_matches": args.concurrent,
        "others_decisions_per_s_without_hang": round(base_rate, 1),
        "others_decisions_per_s_with_hang": round(hang_rate, 1),
        "isolation_ratio": round(hang_rate / base_rate, 3),
        "timeouts_cut": len(late),
        "cut_late_ms_median": round(statistics.median(late), 2) if late else 0.0,
        "cut_late_ms_max": round(max(late), 2) if late else 0.0,
        "loop_us": round(loop, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1500, help="echo round trips per sample")
    parser.add_argument("--matches", type=int, default=10, help="referee matches per sample")
    parser.add_argument("--samples", type=int, default=7, help="echo/referee sample pairs")
    parser.add_argument("--concurrent", type=int, default=64, help="concurrent matches")
    parser.add_argument("--serve", choices=["instant", "hang"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    tune_for_latency()  # as the arena's and the SDK's entry points do (arena/gctune.py)
    if args.serve:
        asyncio.run(serve(args.serve == "hang"))
        return
    print(f"bench_referee: pid {os.getpid()}, {os.cpu_count()} cpus")
    figures: dict[str, object] = dict(asyncio.run(measure(args)))
    figures["compiled"] = native.compiled()  # arena/native.py; ARENA_PURE_PYTHON=1 for pure
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
