#!/usr/bin/env python3
"""Where a league's CPU goes: core-µs per message or decision, per side, in one run.

(a) echo: 64 streams in flight against 4 trivial servers (bench_referee's) in other
    processes: the client's and the servers' CPU per message;
(b) a 4-player league against the same 4 trivial servers (they answer at once): the
    arena's and the servers' CPU per decision;
(c) a 4-player league among 4 SDK random bots (sample_bots/random_bot.py, managed):
    the arena's and the bots' CPU per decision, and how busy the machine was;
(d) a referee that does no work: 64 "matches", each one stream per seat to 4 bot
    processes, sending prebuilt requests to one seat after the other: decisions/s
    against the trivial servers and against 4 SDK random bots, and each as a share of
    the echo's messages/s (the most any league could reach with those bots).

CPU times come from /proc (every thread of each process), sampled over a window in the
middle of each run, so start-up is left out. Last line JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "bench"))

from bench_league import echo_ceiling, round_trips_per_s  # noqa: E402
from bench_referee import start_server  # noqa: E402

from arena import native  # noqa: E402
from arena.games import get as get_game  # noqa: E402
from arena.gctune import tune_for_latency  # noqa: E402
from arena.league.config import Entrant, LeagueConfig  # noqa: E402
from arena.league.processes import ManagedBot  # noqa: E402
from arena.league.runner import run_league  # noqa: E402
from arena.store import open_store  # noqa: E402
from arena.v1 import bot_pb2, bot_pb2_grpc  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
RANDOM_BOT = f"{sys.executable} {ROOT / 'sample_bots/random_bot.py'}"


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def child_pids() -> list[int]:
    """This process's children (the managed bots)."""
    me = str(os.getpid())
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me:
                out.append(int(entry))
    return out


def machine_busy() -> tuple[int, int]:
    """(all jiffies, idle jiffies) of the whole machine."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(values), values[3] + values[4]


async def league_window(
    bots: tuple[Entrant, ...],
    matches: int,
    window_s: float,
    others: list[int],
    concurrency: int = 16,
) -> dict[str, float]:
    """Run a league of ``concurrency`` matches at once; sample CPU over ``window_s``
    seconds after a 2 s warm-up."""
    sample: dict[str, float] = {}

    async def sampler() -> None:
        await asyncio.sleep(2.0)
        pids = others or child_pids()
        a0, b0, m0, t0 = cpu_s(os.getpid()), sum(map(cpu_s, pids)), machine_busy(), time.time()
        await asyncio.sleep(window_s)
        a1, b1, m1, t1 = cpu_s(os.getpid()), sum(map(cpu_s, pids)), machine_busy(), time.time()
        sample.update(
            arena_cores=(a1 - a0) / (t1 - t0),
            bot_cores=(b1 - b0) / (t1 - t0),
            busy=1 - (m1[1] - m0[1]) / max(1, m1[0] - m0[0]),
        )

    with tempfile.TemporaryDirectory() as tmp:
        config = LeagueConfig(
            bots=bots,
            name="cpu-budget",
            table_size=4,
            matches=matches,
            concurrency=concurrency,
            deadline_ms=5000,
            db=str(Path(tmp) / "budget.db"),
        )
        store = open_store(config.db)
        task = asyncio.create_task(sampler())
        summary = await run_league(config, store)
        store.close()
        if not task.done():
            task.cancel()
            raise SystemExit(
                f"the league ended before the {window_s:g} s sampling window did: "
                "give more --matches (or a shorter --seconds)"
            )
        await task
    rate = summary.decisions / summary.wall_s
    return {
        "decisions_per_s": round(rate, 1),
        "arena_us": round(sample["arena_cores"] / rate * 1e6, 1),
        "bots_us": round(sample["bot_cores"] / rate * 1e6, 1),
        "arena_cores": round(sample["arena_cores"], 2),
        "bot_cores": round(sample["bot_cores"], 2),
        "machine_busy": round(sample["busy"], 2),
    }


def start_message(index: int, seat: int, players: int = 4) -> bot_pb2.ArenaMessage:
    """A seat's MatchStart for zero-work match ``index``, as the referee starts a match
    (the SDK refuses a MatchStart without its game)."""
    game = get_game("abluxxen")
    start = bot_pb2.MatchStart(
        match_id=f"zero-{index}",
        seat=seat,
        players=players,
        names=[f"seat-{s}" for s in range(players)],
        game=game.name,
        deadline_ms=1000,
    )
    game.wire.fill_start(start, game.make_config(players, "amigo"))
    return bot_pb2.ArenaMessage(start=start)


async def _zero_work_match(
    index: int,
    channels: list[grpc.aio.Channel],
    requests: list[bot_pb2.ArenaMessage],
    running: Callable[[], bool],
) -> int:
    """A "match" of a referee that does no work: one stream per seat (one per server),
    prebuilt requests sent to one seat after the other."""
    calls = [bot_pb2_grpc.BotStub(c).Play() for c in channels]
    for seat, call in enumerate(calls):
        await call.write(start_message(index, seat, len(calls)))
    count = 0
    while running():
        call = calls[count % len(calls)]
        await call.write(requests[count % len(requests)])
        await call.read()
        count += 1
    for call in calls:
        await call.done_writing()
        call.cancel()
    return count


async def zero_work_rate(endpoints: list[str], matches: int, seconds: float) -> float:
    """Decisions/s of ``matches`` concurrent zero-work "matches" (see (d))."""
    return await round_trips_per_s(endpoints, matches, seconds, _zero_work_match)


async def sdk_random_bots(matches: int, seconds: float) -> tuple[float, dict[str, float]]:
    """(d) and (c) with 4 SDK random bots: the zero-work referee's decisions/s, then a
    league of ``matches`` among 4 such bots, sampled over ``seconds``."""
    bots = [ManagedBot(f"random-{i}", RANDOM_BOT) for i in range(4)]
    try:
        endpoints = [await bot.start() for bot in bots]
        zero = await zero_work_rate(endpoints, 64, seconds)
    finally:
        for bot in bots:
            await bot.stop()
    entrants = tuple(Entrant(f"random-{i}", command=RANDOM_BOT) for i in range(4))
    return zero, await league_window(entrants, matches, seconds, [])


async def measure(args: argparse.Namespace) -> dict[str, object]:
    """All three parts."""
    servers = [start_server(hang=False) for _ in range(4)]
    pids = [p.pid for p, _ in servers]
    endpoints = [e for _, e in servers]
    try:
        await echo_ceiling(endpoints, 64, 1.0)  # warm-up
        a0, s0 = cpu_s(os.getpid()), sum(map(cpu_s, pids))
        rate = await echo_ceiling(endpoints, 64, args.seconds)
        count = rate * args.seconds
        echo = {
            "msgs_per_s": round(rate, 1),
            "client_us": round((cpu_s(os.getpid()) - a0) / count * 1e6, 1),
            "servers_us": round((sum(map(cpu_s, pids)) - s0) / count * 1e6, 1),
        }
        trivial = tuple(Entrant(f"trivial-{i}", endpoint=e) for i, e in enumerate(endpoints))
        with_trivial = await league_window(trivial, args.matches, args.seconds, pids)
        zero_trivial = await zero_work_rate(endpoints, 64, args.seconds)
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait(timeout=10)
    zero_sdk, with_sdk = await sdk_random_bots(args.matches, args.seconds)
    return {
        "echo": echo,
        "league_trivial_servers": with_trivial,
        "league_sdk_random_bots": with_sdk,
        "zero_work_referee": {
            "trivial_decisions_per_s": round(zero_trivial, 1),
            "trivial_share_of_echo": round(zero_trivial / rate, 3),
            "sdk_random_decisions_per_s": round(zero_sdk, 1),
            "sdk_random_share_of_echo": round(zero_sdk / rate, 3),
        },
        "compiled": native.compiled(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=250, help="matches per league")
    parser.add_argument("--seconds", type=float, default=3.0, help="sampling window")
    args = parser.parse_args()
    tune_for_latency()
    figures = asyncio.run(measure(args))
    for name, part in figures.items():
        print(f"{name}: {part}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
