#!/usr/bin/env python3
"""League throughput against the bare ceiling of the gRPC streams, in one run.

(a) echo ceiling: trivial bot servers in other processes (one per entrant, as many as
    the leagues use), many streams in flight, each sending real DecideRequests (sizes
    recorded from a 4-player game) and waiting for a one-line reply: messages/s.
(b) 4-player leagues among random bots (sample_bots/random_bot.py, started by the
    arena as processes) at concurrency 1, 4, 16 and 64: matches/s and decisions/s.

Last line JSON: {"echo_msgs_per_s", "best_decisions_per_s", "ratio", ...}; ratio is
the best league decisions/s over the echo messages/s (goal >= 0.70).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "bench"))

from bench_referee import recorded_requests, start_server  # noqa: E402

from arena import native  # noqa: E402
from arena.gctune import tune_for_latency  # noqa: E402
from arena.league.commit import Standings  # noqa: E402
from arena.league.config import Entrant, LeagueConfig  # noqa: E402
from arena.league.joint import Outcomes, fit, ranked  # noqa: E402
from arena.league.rating import RatingModel, Skill  # noqa: E402
from arena.league.runner import run_league  # noqa: E402
from arena.league.schedule import Scheduler  # noqa: E402
from arena.store import open_store  # noqa: E402
from arena.store.rows import SeatRow  # noqa: E402
from arena.v1 import bot_pb2, bot_pb2_grpc  # noqa: E402

Work = Callable[
    [int, list[grpc.aio.Channel], list[bot_pb2.ArenaMessage], Callable[[], bool]],
    Awaitable[int],
]
"""One of many concurrent workers: (index, channels, requests, running) -> round trips
made while ``running()``."""


async def round_trips_per_s(
    endpoints: list[str], workers: int, seconds: float, work: Work
) -> float:
    """Round trips/s of ``workers`` concurrent ``work`` coroutines over channels to the
    servers, sending real DecideRequests: a 0.5 s warm-up, then ``seconds`` measured."""
    requests = recorded_requests()
    channels = [grpc.aio.insecure_channel(e) for e in endpoints]
    stop_at = 0.0

    def running() -> bool:
        return time.perf_counter() < stop_at

    stop_at = time.perf_counter() + 0.5  # warm-up
    await asyncio.gather(*(work(i, channels, requests, running) for i in range(workers)))
    started = time.perf_counter()
    stop_at = started + seconds
    counts = await asyncio.gather(*(work(i, channels, requests, running) for i in range(workers)))
    elapsed = time.perf_counter() - started
    for channel in channels:
        await channel.close()
    return sum(counts) / elapsed


async def _echo_pump(
    index: int,
    channels: list[grpc.aio.Channel],
    requests: list[bot_pb2.ArenaMessage],
    running: Callable[[], bool],
) -> int:
    """One stream, ping-pong as fast as the server answers."""
    call = bot_pb2_grpc.BotStub(channels[index % len(channels)]).Play()
    await call.write(bot_pb2.ArenaMessage(start=bot_pb2.MatchStart(match_id="echo")))
    count = 0
    while running():
        await call.write(requests[(index + count) % len(requests)])
        await call.read()
        count += 1
    await call.done_writing()
    call.cancel()
    return count


async def echo_ceiling(endpoints: list[str], streams: int, seconds: float) -> float:
    """Messages/s over ``streams`` concurrent streams spread over the servers."""
    return await round_trips_per_s(endpoints, streams, seconds, _echo_pump)


async def league_rate(bots: int, concurrency: int, matches: int) -> tuple[float, float]:
    """(matches/s, decisions/s) of a league of managed random bots."""
    with tempfile.TemporaryDirectory() as tmp:
        config = LeagueConfig(
            bots=tuple(
                Entrant(f"random-{i}", command=f"python {ROOT / 'sample_bots/random_bot.py'}")
                for i in range(bots)
            ),
            name=f"bench-{concurrency}",
            table_size=4,
            matches=matches,
            concurrency=concurrency,
            deadline_ms=5000,
            db=str(Path(tmp) / "bench.db"),
        )
        store = open_store(config.db)
        summary = await run_league(config, store)
        store.close()
    # wall_s includes starting the bot processes; subtract nothing, it is what users see
    return summary.played / summary.wall_s, summary.decisions / summary.wall_s


def rating_ms_per_match(bots: int = 8, matches: int = 400) -> float:
    """CPU milliseconds the league spends per match on ratings, in process: choosing the
    next table by the default schedule (which reads the joint model), the TrueSkill
    update, the joint model's refit, and the stop rule's check (``--until separated``)
    after each round."""
    names = [f"bot-{i}" for i in range(bots)]
    model = RatingModel(draw_probability=0.01)
    standings = Standings(model, "bench", dict.fromkeys(names, Skill()), dict.fromkeys(names, 0))
    scheduler = Scheduler(names, 4, seed=1)
    rng = random.Random(1)
    started = time.process_time()
    outcomes = Outcomes()
    joint = fit(outcomes, names)
    for index in range(matches):
        table = scheduler.next_table(standings.skills, joint)
        ranks = rng.sample(range(1, 5), 4)
        seats = [
            SeatRow(s, bot, 0, ranks[s], ranks[s], False, 0, 0.0, 0, 0, 0)
            for s, bot in enumerate(table.seats)
        ]
        standings.apply(standings.rated(seats))
        outcomes.add({s.bot: s.rank for s in seats})
        joint = fit(outcomes, names)
        if (index + 1) % (bots // 4) == 0:
            order = sorted(names, key=lambda n: -standings.skills[n].conservative)
            ranked(joint, order)
    return (time.process_time() - started) * 1000 / matches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=4, help="entrants (bot processes)")
    parser.add_argument("--matches", type=int, default=64, help="matches per league")
    parser.add_argument("--seconds", type=float, default=5.0, help="echo measuring time")
    parser.add_argument("--streams", type=int, default=64, help="echo streams in flight")
    parser.add_argument("--levels", default="1,4,16,64", help="league concurrencies")
    args = parser.parse_args()
    tune_for_latency()  # as the arena's entry points do (arena/gctune.py)
    print(f"bench_league: pid {os.getpid()}, {os.cpu_count()} cpus, {args.bots} bot processes")
    servers = [start_server(hang=False) for _ in range(args.bots)]
    try:
        echo = asyncio.run(echo_ceiling([e for _, e in servers], args.streams, args.seconds))
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait(timeout=10)
    print(f"echo ceiling: {echo:.0f} msgs/s over {args.streams} streams")
    results = {}
    for level in (int(x) for x in args.levels.split(",")):
        matches_per_s, decisions_per_s = asyncio.run(league_rate(args.bots, level, args.matches))
        results[level] = (matches_per_s, decisions_per_s)
        print(f"league concurrency {level:>3}: {matches_per_s:.2f} matches/s, "
              f"{decisions_per_s:.0f} decisions/s")  # fmt: skip
    best = max(d for _, d in results.values())
    best_match_ms = 1000 / max(m for m, _ in results.values())
    rating_ms = rating_ms_per_match()
    print(
        f"rating per match: {rating_ms:.2f} ms CPU, {100 * rating_ms / best_match_ms:.1f}% of a "
        f"match ({best_match_ms:.1f} ms at the best concurrency)"
    )
    print(
        json.dumps(
            {
                "echo_msgs_per_s": round(echo, 1),
                "best_decisions_per_s": round(best, 1),
                "ratio": round(best / echo, 3),
                "rating_ms_per_match": round(rating_ms, 3),
                "rating_share_of_match": round(rating_ms / best_match_ms, 4),
                "compiled": native.compiled(),  # arena/native.py; ARENA_PURE_PYTHON=1 for pure
                "by_concurrency": {
                    str(k): {"matches_per_s": round(m, 3), "decisions_per_s": round(d, 1)}
                    for k, (m, d) in results.items()
                },
            }
        )
    )


if __name__ == "__main__":
    main()
