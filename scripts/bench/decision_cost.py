#!/usr/bin/env python3
"""Where a league's decision costs go, rung by rung, from a referee that does no work to
the league, with the same 4 SDK random bots (sample_bots/random_bot.py, managed) in one
run (the per-process efficiency of docs/BENCHMARKS.md).

Each rung runs ``--matches`` 4-player "matches" at once for ``--seconds`` after a 1 s
warm-up, and reports decisions/s and the CPU per decision of the arena's process and of
the 4 bots together (all threads, from /proc):

- ``held``: the zero-work referee of ``cpu_budget.py`` (d), whose streams stay open for
  the whole run; the baseline of ``bench_scale.py``'s ``zero_work_ratio``;
- ``per_match``: the same, shaped as the contract requires a referee to be: each match
  opens one stream per seat, sends MatchStart, the requests of one real game (prebuilt
  bytes, one seat after the other), then MatchOver, and waits for the bots to end their
  streams;
- ``per_match_busy_W``: ``per_match`` with a busy wait of W µs (``--busy-us``) before
  each request, standing for W µs of the arena's own CPU per decision;
- ``per_match_at_N``: ``per_match`` with N matches at once (``--rates``): fewer messages
  a second, so the bots' and the arena's CPU per decision at a lower rate;
- ``league``: ``cpu_budget.py`` (c), a league (referee, scheduler, rater, SQLite store).

The bots' CPU per decision depends on the rate the referee keeps up: a gRPC process pays
a wake-up of its threads per message when messages come sparsely, and is spared it when
they come in batches. Comparing the league's rung with the zero-work rungs of the same
rate separates what the arena costs itself from what its slowness costs the bots.
Last line JSON.

    .venv/bin/python scripts/bench/decision_cost.py [--matches 16] [--seconds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "bench"))

from bench_referee import instant_matches, recorded_requests  # noqa: E402
from cpu_budget import (  # noqa: E402
    RANDOM_BOT,
    child_pids,
    cpu_s,
    league_window,
    machine_busy,
    start_message,
)

from arena import native  # noqa: E402
from arena.gctune import tune_for_latency  # noqa: E402
from arena.league.config import Entrant, LeagueConfig  # noqa: E402
from arena.league.processes import ManagedBot  # noqa: E402
from arena.league.runner import run_league  # noqa: E402
from arena.store import open_store  # noqa: E402
from arena.v1 import bot_pb2, bot_pb2_grpc  # noqa: E402

WARMUP_S = 1.0


def _busy(us: float) -> None:
    """Burn ``us`` µs of this thread's CPU (the arena's own work, stood in for). CPU
    time, not ``referee_floor.busy_wait``'s wall time: a wait preempted by the bots on
    the other core still stands for ``us`` µs of work."""
    if us > 0:
        until = time.thread_time() + us / 1e6
        while time.thread_time() < until:
            pass


class _Rung:
    """Runs zero-work matches until told to stop, counting decisions."""

    def __init__(
        self,
        channels: list[grpc.aio.Channel],
        held: bool,
        busy_us: float,
        limit: int | None = None,
    ) -> None:
        self.channels = channels
        self.limit = limit
        self.held = held
        self.busy_us = busy_us
        self.requests = recorded_requests()
        self.decisions = 0
        self.running = True
        self.matches = 0

    async def _open(self) -> list[grpc.aio.StreamStreamCall]:
        self.matches += 1
        calls = [bot_pb2_grpc.BotStub(c).Play() for c in self.channels]
        for seat, call in enumerate(calls):
            await call.write(start_message(self.matches, seat))
        return calls

    async def _close(self, calls: list[grpc.aio.StreamStreamCall]) -> None:
        over = bot_pb2.ArenaMessage(over=bot_pb2.MatchOver())
        for call in calls:
            await call.write(over)
            await call.done_writing()
        for call in calls:
            # The bot ends its stream after MatchOver; the match is over when all have.
            while await call.read() is not grpc.aio.EOF:
                pass
            await call.code()

    async def match_slot(self) -> None:
        """One match slot: a match after another (or one held match) until stopped."""
        while self.running and (self.limit is None or self.matches < self.limit):
            calls = await self._open()
            sent = 0
            while self.running and (self.held or sent < len(self.requests)):
                _busy(self.busy_us)
                call = calls[sent % len(calls)]
                await call.write(self.requests[sent % len(self.requests)])
                await call.read()
                sent += 1
                self.decisions += 1
            await self._close(calls)


async def zero_work_rung(
    endpoints: list[str], matches: int, seconds: float, held: bool, busy_us: float = 0.0
) -> dict[str, float]:
    """Decisions/s and CPU per decision of ``matches`` zero-work match slots."""
    channels = [grpc.aio.insecure_channel(e) for e in endpoints]
    rung = _Rung(channels, held, busy_us)
    tasks = [asyncio.create_task(rung.match_slot()) for _ in range(matches)]
    try:
        await asyncio.sleep(WARMUP_S)
        bots = child_pids()
        d0, a0, b0 = rung.decisions, cpu_s(os.getpid()), sum(map(cpu_s, bots))
        m0, t0 = machine_busy(), time.perf_counter()
        await asyncio.sleep(seconds)
        d1, a1, b1 = rung.decisions, cpu_s(os.getpid()), sum(map(cpu_s, bots))
        m1, t1 = machine_busy(), time.perf_counter()
        rung.running = False
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        for channel in channels:
            await channel.close()
    count = max(1, d1 - d0)
    return {
        "decisions_per_s": round(count / (t1 - t0), 1),
        "arena_us": round((a1 - a0) / count * 1e6, 1),
        "bots_us": round((b1 - b0) / count * 1e6, 1),
        "machine_busy": round(1 - (m1[1] - m0[1]) / max(1, m1[0] - m0[0]), 2),
    }


async def fixed_count(args: argparse.Namespace) -> dict[str, float]:
    """``--fixed N``: exactly N matches of the ``--only`` rung, for instruction counts
    (run under callgrind twice, at two N, and take the difference per decision)."""
    if args.only == "referee":
        return {"matches": args.fixed, "decisions": await instant_matches(args.fixed)}
    if args.only in ("league", "league_in_process"):
        entrants = tuple(
            Entrant(f"random-{i}", command=RANDOM_BOT)
            if args.only == "league"
            else Entrant(f"random-{i}", builtin="random")
            for i in range(4)
        )
        with tempfile.TemporaryDirectory() as tmp:
            config = LeagueConfig(
                bots=entrants,
                name="decision-cost",
                table_size=4,
                matches=args.fixed,
                concurrency=args.matches,
                deadline_ms=60_000,
                db=str(Path(tmp) / "cost.db"),
            )
            store = open_store(config.db)
            try:
                summary = await run_league(config, store)
            finally:
                store.close()
        return {"matches": args.fixed, "decisions": summary.decisions}
    bots = [ManagedBot(f"random-{i}", RANDOM_BOT) for i in range(4)]
    try:
        endpoints = [await bot.start() for bot in bots]
        channels = [grpc.aio.insecure_channel(e) for e in endpoints]
        rung = _Rung(channels, held=False, busy_us=0.0, limit=args.fixed)
        await asyncio.gather(*(rung.match_slot() for _ in range(args.matches)))
        for channel in channels:
            await channel.close()
    finally:
        for bot in bots:
            await bot.stop()
    return {"matches": rung.matches, "decisions": rung.decisions}


async def measure(
    matches: int,
    seconds: float,
    busy_us: list[int],
    rates: list[int],
    league_matches: int,
) -> dict[str, dict[str, float]]:
    """Every rung, one after the other, with the same 4 bots (the league starts its own
    4, from the same command); ``matches`` at once on every rung but ``per_match_at_N``."""
    rungs: dict[str, dict[str, float]] = {}
    bots = [ManagedBot(f"random-{i}", RANDOM_BOT) for i in range(4)]
    try:
        endpoints = [await bot.start() for bot in bots]
        rungs["held"] = await zero_work_rung(endpoints, matches, seconds, held=True)
        rungs["per_match"] = await zero_work_rung(endpoints, matches, seconds, held=False)
        for busy in busy_us:
            rungs[f"per_match_busy_{busy}"] = await zero_work_rung(
                endpoints, matches, seconds, held=False, busy_us=busy
            )
        for fewer in rates:
            rungs[f"per_match_at_{fewer}"] = await zero_work_rung(
                endpoints, fewer, seconds, held=False
            )
    finally:
        for bot in bots:
            await bot.stop()
    entrants = tuple(Entrant(f"random-{i}", command=RANDOM_BOT) for i in range(4))
    league = await league_window(entrants, league_matches, seconds, [], concurrency=matches)
    rungs["league"] = {k: league[k] for k in ("decisions_per_s", "arena_us", "bots_us")}
    rungs["league"]["machine_busy"] = league["machine_busy"]
    return rungs


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=16, help="matches at once (the league's)")
    parser.add_argument("--seconds", type=float, default=5.0, help="each rung's window")
    parser.add_argument("--busy-us", type=_ints, default=_ints("50,100"))
    parser.add_argument("--rates", type=_ints, default=_ints("1,2,4"))
    parser.add_argument("--league-matches", type=int, default=600)
    parser.add_argument(
        "--fixed", type=int, help="play exactly this many matches of --only, then stop"
    )
    parser.add_argument(
        "--only",
        choices=["per_match", "referee", "league_in_process", "league"],
        default="league",
        help="with --fixed: which rung (referee: run_match with instant in-process seats, "
        "no gRPC; league_in_process: a league of the built-in random policy)",
    )
    args = parser.parse_args()
    tune_for_latency()
    if args.fixed is not None:
        print(json.dumps(asyncio.run(fixed_count(args))))
        return
    rungs = asyncio.run(
        measure(args.matches, args.seconds, args.busy_us, args.rates, args.league_matches)
    )
    for name, rung in rungs.items():
        print(f"{name}: {rung}", flush=True)
    league = rungs["league"]["decisions_per_s"]
    print(
        json.dumps(
            {
                "rungs": rungs,
                "league_over_held": round(league / rungs["held"]["decisions_per_s"], 3),
                "league_over_per_match": round(league / rungs["per_match"]["decisions_per_s"], 3),
                "compiled": native.compiled(),
                "loadavg": [round(x, 2) for x in os.getloadavg()],
            }
        )
    )


if __name__ == "__main__":
    main()
