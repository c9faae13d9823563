#!/usr/bin/env python3
"""Fair deadlines under load: does a well-behaved bot get its time, and keep its pace,
when the referee's loop is shared with misbehaving bots and busy in-process matches?

One arena process (this one, one event loop) plays at once:

- good: ``--good-lanes`` lanes of 4-player matches whose four seats are one
  well-behaved bot (``sample_bots/random_bot.py``, its own process), 30 ms deadline,
  no time bank, never forfeited; ``--good-matches`` matches per lane;
- in-process: ``--local-lanes`` lanes of 4-player matches among built-in random
  policies, back to back (a loop full of in-process matches);
- churn: ``--churn-lanes`` lanes of matches of a bot that ends every stream as soon as
  MatchStart arrives, with three random policies: its matches churn;
- huge: ``--huge-lanes`` lanes of matches of a bot that answers every decision with a
  10 MB reply (over the arena's 1 MiB receive cap), with three random policies.

The churn and huge lanes start a bot's next match as a scheduler does; where the
arena's channel pool backs off from a failing bot (``ChannelPool.backoff_s``), they wait
it out before seating it again (the ladder and league schedulers should do the same).

Each round runs the good lanes twice: "base" (good + in-process) and "loaded" (good +
in-process + churn + huge), alternating over ``--rounds`` rounds so that the machine's
changing load (it is shared) weighs on both alike. Per phase: the good matches' wall
time, the good bot's faults, and the loop's lag (a 5 ms tick measuring its own
lateness, in this script, independent of the arena's own watch).

Last line JSON: ``good_bot_spurious_timeouts`` (TIMEOUT faults of the good bot, every
phase of every round: it answers in about a millisecond, so each one is spurious; goal
0), ``good_bot_slowdown_pct`` (median over rounds of loaded / base good-match wall time,
minus 1, in percent; goal at most 10), and the detail.

Uses only the referee API that a35e272 already had, so the same command measures that
commit too (``PYTHONPATH=<export of a35e272>``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import grpc

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchOutcome, MatchSpec, RemoteSeat, Seat, run_match
from arena.referee.channels import ChannelPool
from arena.v1 import bot_pb2

ROOT = Path(__file__).resolve().parents[2]
HUGE_BYTES = 10 << 20
DEADLINE_MS = 30


# ------------------------------------------------------------------ the bad bots


async def _serve(mode: str) -> None:
    """A bot server that ends every stream at once (``churn``) or answers with 10 MB
    (``huge``); prints the listening line."""

    async def hello(request: bot_pb2.HelloRequest, context: object) -> bot_pb2.HelloReply:
        return bot_pb2.HelloReply(name=mode, games=["abluxxen"])

    async def play(
        requests: AsyncIterator[bot_pb2.ArenaMessage], context: object
    ) -> AsyncIterator[bytes]:
        async for message in requests:
            if mode == "churn":
                return  # ends the call (status OK) right after MatchStart
            if message.HasField("decide"):
                reply = bot_pb2.BotMessage(request_id=message.decide.request_id, legal_index=0)
                # An unknown length-delimited field 15 of 10 MB: a parser keeps it.
                yield reply.SerializeToString() + b"\x7a" + _varint(HUGE_BYTES) + HUGE

    handler = grpc.method_handlers_generic_handler(
        "arena.v1.Bot",
        {
            "Hello": grpc.unary_unary_rpc_method_handler(
                hello,
                request_deserializer=bot_pb2.HelloRequest.FromString,
                response_serializer=bot_pb2.HelloReply.SerializeToString,
            ),
            "Play": grpc.stream_stream_rpc_method_handler(
                play,
                request_deserializer=bot_pb2.ArenaMessage.FromString,
                response_serializer=lambda raw: raw,
            ),
        },
    )
    server = grpc.aio.server(
        options=[
            ("grpc.max_send_message_length", 64 << 20),
            ("grpc.max_receive_message_length", 64 << 20),
        ]
    )
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(f"arena-bot listening on 127.0.0.1:{port}", flush=True)
    await server.wait_for_termination()


HUGE = b"x" * HUGE_BYTES


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _start(command: list[str], stderr: IO[str] | None = None) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True, cwd=ROOT)
    assert process.stdout is not None
    line = process.stdout.readline()
    if "listening on" not in line:
        raise RuntimeError(f"{command!r} did not start: {line!r}")
    return process, line.rsplit(" ", 1)[-1].strip()


# --------------------------------------------------------------------- the lanes


@dataclass
class Phase:
    """What one phase measured."""

    good_wall_s: float = 0.0
    good_decisions: int = 0
    good_faults: dict[str, int] = field(default_factory=dict)
    good_fallbacks: dict[str, int] = field(default_factory=dict)
    good_ms: list[float] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)
    other_matches: dict[str, int] = field(default_factory=dict)
    bad_streams_refused: int = 0


def _spec(match_id: str, seed: int, *, max_strikes: int) -> MatchSpec:
    return MatchSpec(
        match_id=match_id,
        config=ab.make_config(4, "amigo"),
        seed=seed,
        deadline_ms=DEADLINE_MS,
        max_strikes=max_strikes,
        connect_timeout_s=2.0,
    )


def _local(seed: int) -> list[Seat]:
    return [LocalSeat(f"r{s}", RandomPolicy(seed * 4 + s)) for s in range(4)]


async def _watch_lag(stop: asyncio.Event, out: list[float]) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        due = loop.time() + 0.005
        await asyncio.sleep(0.005)
        out.append(max(0.0, loop.time() - due) * 1000)


async def _repeat(
    stop: asyncio.Event, counts: dict[str, int], name: str, one: Callable[[int], Awaitable[None]]
) -> None:
    index = 0
    while not stop.is_set():
        await one(index)
        counts[name] = counts.get(name, 0) + 1
        index += 1


async def run_phase(args: argparse.Namespace, endpoints: dict[str, str], loaded: bool) -> Phase:
    phase = Phase()
    pool = ChannelPool()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    async def good_lane(lane: int) -> None:
        for index in range(args.good_matches):
            seats: list[Seat] = [
                RemoteSeat(f"good{s}", pool.get(endpoints["good"]), max_reply_bytes=4096)
                for s in range(4)
            ]
            spec = _spec(f"good-{lane}-{index}", 1000 * lane + index, max_strikes=0)
            outcome = await run_match(spec, seats)
            _count_good(phase, outcome)

    async def local_one(index: int) -> None:
        await run_match(_spec(f"local-{index}", index, max_strikes=3), _local(index))

    def bad_one(kind: str) -> Callable[[int], Awaitable[None]]:
        async def one(index: int) -> None:
            endpoint = endpoints[kind]
            backoff = getattr(pool, "backoff_s", None)
            if backoff is not None:
                wait = backoff(endpoint, loop.time())
                if wait > 0:
                    await asyncio.sleep(wait)  # as a scheduler that heeds the backoff
            seats = [RemoteSeat(kind, pool.get(endpoint), max_reply_bytes=4096), *_local(index)[1:]]
            outcome = await run_match(_spec(f"{kind}-{index}", index, max_strikes=3), seats)
            if any("backing off" in f.detail for f in outcome.seats[0].faults):
                phase.bad_streams_refused += 1

        return one

    lag = asyncio.create_task(_watch_lag(stop, phase.lag_ms))
    background = [
        asyncio.create_task(_repeat(stop, phase.other_matches, "local", local_one))
        for _ in range(args.local_lanes)
    ]
    if loaded:
        for kind, lanes in (("churn", args.churn_lanes), ("huge", args.huge_lanes)):
            background += [
                asyncio.create_task(_repeat(stop, phase.other_matches, kind, bad_one(kind)))
                for _ in range(lanes)
            ]
    await asyncio.sleep(0.5)  # the background is running
    started = time.perf_counter()
    await asyncio.gather(*(good_lane(lane) for lane in range(args.good_lanes)))
    phase.good_wall_s = time.perf_counter() - started
    stop.set()
    for task in background:
        task.cancel()
    await asyncio.gather(*background, lag, return_exceptions=True)
    await pool.close()
    return phase


def _count_good(phase: Phase, outcome: MatchOutcome) -> None:
    phase.good_decisions += outcome.decisions
    for seat in outcome.seats:
        for fault in seat.faults:
            phase.good_faults[str(fault.kind)] = phase.good_faults.get(str(fault.kind), 0) + 1
            if os.environ.get("BENCH_DEBUG"):
                print("fault", fault, file=sys.stderr)
    for line in outcome.record:
        if line["type"] != "decision":
            continue
        if os.environ.get("BENCH_DEBUG") and "fault" in line:
            print("line", line, file=sys.stderr)
        phase.good_ms.append(float(line["ms"]))
        if "fallback" in line:
            why = str(line["fallback"])
            phase.good_fallbacks[why] = phase.good_fallbacks.get(why, 0) + 1


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _summary(phase: Phase) -> dict[str, object]:
    return {
        "good_wall_s": round(phase.good_wall_s, 3),
        "good_decisions": phase.good_decisions,
        "good_faults": phase.good_faults,
        "good_fallbacks": phase.good_fallbacks,
        "good_ms_p50": round(_pct(phase.good_ms, 0.5), 2),
        "good_ms_p99": round(_pct(phase.good_ms, 0.99), 2),
        "good_ms_max": round(max(phase.good_ms, default=0.0), 2),
        "lag_ms_p50": round(_pct(phase.lag_ms, 0.5), 2),
        "lag_ms_p99": round(_pct(phase.lag_ms, 0.99), 2),
        "lag_ms_max": round(max(phase.lag_ms, default=0.0), 2),
        "other_matches": phase.other_matches,
        "bad_seats_refused_by_backoff": phase.bad_streams_refused,
    }


async def measure(args: argparse.Namespace, endpoints: dict[str, str]) -> dict[str, object]:
    rounds = []
    for _ in range(args.rounds):
        base = await run_phase(args, endpoints, loaded=False)
        loaded = await run_phase(args, endpoints, loaded=True)
        rounds.append((base, loaded))
        print(json.dumps({"base": _summary(base), "loaded": _summary(loaded)}), flush=True)
    timeouts = sum(p.good_faults.get("TIMEOUT", 0) for pair in rounds for p in pair)
    slowdowns = [(loaded.good_wall_s / base.good_wall_s - 1) * 100 for base, loaded in rounds]
    return {
        "good_bot_spurious_timeouts": timeouts,
        "good_bot_slowdown_pct": round(statistics.median(slowdowns), 1),
        "slowdowns_pct": [round(s, 1) for s in slowdowns],
        "good_bot_faults": _merged(p.good_faults for pair in rounds for p in pair),
        "good_bot_arena_lag_fallbacks": sum(
            p.good_fallbacks.get("arena_lag", 0) for pair in rounds for p in pair
        ),
        "good_decisions": sum(p.good_decisions for pair in rounds for p in pair),
        "loop_lag_ms_max_base": round(max(max(b.lag_ms, default=0) for b, _ in rounds), 1),
        "loop_lag_ms_max_loaded": round(max(max(x.lag_ms, default=0) for _, x in rounds), 1),
        "rounds": args.rounds,
        "lanes": {
            "good": args.good_lanes,
            "local": args.local_lanes,
            "churn": args.churn_lanes,
            "huge": args.huge_lanes,
        },
    }


def _merged(counts: object) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in counts:  # type: ignore[attr-defined]
        for k, v in c.items():
            out[k] = out.get(k, 0) + v
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="base/loaded pairs")
    parser.add_argument("--good-lanes", type=int, default=2)
    parser.add_argument("--good-matches", type=int, default=8, help="per good lane and phase")
    parser.add_argument("--local-lanes", type=int, default=8)
    parser.add_argument("--churn-lanes", type=int, default=4)
    parser.add_argument("--huge-lanes", type=int, default=2)
    parser.add_argument("--serve", choices=["churn", "huge"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(_serve(args.serve))
        return
    print(f"bench_isolation: pid {os.getpid()}, {os.cpu_count()} cpus", flush=True)
    with tempfile.TemporaryFile("w+") as good_log:
        processes = []
        try:
            good = _start(
                [sys.executable, str(ROOT / "sample_bots" / "random_bot.py"), "--port", "0"],
                good_log,
            )
            churn = _start([sys.executable, __file__, "--serve", "churn"])
            huge = _start([sys.executable, __file__, "--serve", "huge"])
            processes = [good[0], churn[0], huge[0]]
            endpoints = {"good": good[1], "churn": churn[1], "huge": huge[1]}
            figures = asyncio.run(measure(args, endpoints))
        finally:
            for process in processes:
                process.terminate()
                process.wait(timeout=10)
        # The SDK logs each decision that took the bot itself longer than its deadline
        # (from reading the request to writing the reply): late by the bot's own clock,
        # the machine's doing (or the bot's), not the arena's.
        good_log.seek(0)
        figures["good_bot_late_by_its_own_clock"] = len(_LATE.findall(good_log.read()))
    print(json.dumps(figures))


_LATE = re.compile(r"took \d+ ms; its deadline was")


if __name__ == "__main__":
    main()
