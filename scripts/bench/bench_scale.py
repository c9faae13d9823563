#!/usr/bin/env python3
"""Scale: slow bots at growing concurrency, deadline cuts with hung seats, and what more
workers buy.

Phases (each can be sized or skipped by flags; the defaults take a few minutes):

- slow bots, one process: ``--levels`` concurrencies of 4-player matches whose seats all
  think ``--think-s`` (1 s) per decision, on a bot server of their own (``--serve
  slow``: a bare gRPC bot, one process, answering legal index 0 after the think time).
  The referee is this process (the ``local`` executor's ``MatchWorker``). Each level
  starts its matches, waits ``--warmup-s``, then counts the decisions the bots answered
  over ``--window-s`` (the bot server reports its count). Ideal: concurrency / think time
  decisions per second (one decision at a time per match). Memory: this process's RSS
  at the end of the window minus before the level, per match in flight.
- slow bots, 2 workers: the same on the ``processes`` executor with 2 worker processes
  (``--worker-levels``).
- cuts: ``--cut-matches`` matches at once, one seat in every tenth hung (a bot that
  reads and never answers), ``--cut-deadline-ms`` deadline, never forfeited; each hung
  decision's wall time from the referee's call to its return, minus the deadline, is how
  late the cut was (p50, p99, max).
- workers: matches among CPU-bound in-process policies (built-in greedy and random), 1
  worker then 2, on ``processes`` and on ``ray`` (skipped if Ray is not installed):
  matches/s over a window after a warm-up; the speedup is 2 workers / 1.
- zero: per-process efficiency, a league among 4 SDK random bots (managed) against a
  referee that does no work with 4 such bots, 16 matches at once on each, each over
  ``--zero-window-s`` (``decision_cost.py``, which has more rungs between the two):
  ``zero_work_ratio`` is the league's decisions/s over the zero-work referee's whose
  streams stay open for the whole run; ``zero_work_ratio_stream_per_match`` over one
  that opens a stream per match and seat, as the contract requires of a referee.
- ray hop: the round trip of a job on the ``ray`` executor whose referee plays nothing
  (a table out, a real finished match back, over the executor's connection to its
  actor), ``--hops`` times; and, for comparison, of a no-op Ray actor call carrying the
  same.

Last line JSON with ``slow_bots_efficiency`` (at the largest one-process level run),
``largest_concurrency_at_90pct`` (one process) and ``largest_concurrency_at_90pct_2_workers``,
``cut_p99_ms``, ``mem_per_match_kb``, ``workers_speedup_processes``,
``workers_speedup_ray``, ``ray_hop_ms`` (``ray_call_ms`` beside it),
``zero_work_ratio`` (``zero_work_ratio_stream_per_match`` beside it), and the detail.
Run it under ``nice -n 10`` on a shared machine, and say what the load was (the JSON has
the load averages).

The full sizes its goals name: ``--levels 512,1024,2048,4096 --window-s 60 --warmup-s 30``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc

from arena import native
from arena.games import DEFAULT_GAME
from arena.games import get as get_game
from arena.league.config import Entrant, LeagueConfig
from arena.league.executors import Executor, LeagueRecipe
from arena.league.executors.base import LocalExecutor
from arena.league.executors.processes import ProcessesExecutor, ProcessWorker
from arena.league.schedule import Table
from arena.referee import MatchSpec, RemoteSeat, Seat, run_match
from arena.referee.channels import ChannelPool
from arena.referee.faults import Fault
from arena.referee.seats import Decision, Reply
from arena.v1 import bot_pb2

ROOT = Path(__file__).resolve().parents[2]
COUNT_EVERY_S = 0.25
"""The slow bot server prints its count of answered decisions this often."""


# ------------------------------------------------------------------ the bots


async def _serve(mode: str, think_s: float) -> None:
    """A bare bot server: ``slow`` answers legal index 0 after ``think_s``; ``hang``
    reads every message and never answers. Prints the listening line, then (slow) a
    ``count N T`` line every COUNT_EVERY_S: decisions answered by monotonic time T."""
    answered = 0

    async def hello(request: bot_pb2.HelloRequest, context: object) -> bot_pb2.HelloReply:
        return bot_pb2.HelloReply(name=mode, version="bench", games=[DEFAULT_GAME])

    async def play(
        requests: AsyncIterator[bot_pb2.ArenaMessage], context: object
    ) -> AsyncIterator[bot_pb2.BotMessage]:
        nonlocal answered
        async for message in requests:
            if mode == "hang" or not message.HasField("decide"):
                continue
            await asyncio.sleep(think_s)
            answered += 1
            yield bot_pb2.BotMessage(request_id=message.decide.request_id, legal_index=0)

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
                response_serializer=bot_pb2.BotMessage.SerializeToString,
            ),
        },
    )
    server = grpc.aio.server(options=[("grpc.max_concurrent_streams", 1 << 20)])
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(f"arena-bot listening on 127.0.0.1:{port}", flush=True)
    while True:
        await asyncio.sleep(COUNT_EVERY_S)
        print(f"count {answered} {time.monotonic()}", flush=True)


class BotProcess:
    """A bot server of this script, and its latest count (read on a thread)."""

    def __init__(self, mode: str, think_s: float) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve", mode, "--think-s", str(think_s)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if "listening on" not in line:
            self.process.kill()
            raise RuntimeError(f"the {mode} bot did not start: {line!r}")
        self.endpoint = line.rsplit(" ", 1)[-1].strip()
        self.count = (0, time.monotonic())
        self._counted = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("count "):
                _, n, t = line.split()
                with self._counted:
                    self.count = (int(n), float(t))
                    self._counted.notify_all()

    def fresh_count(self) -> tuple[int, float]:
        """The next count the server prints (so it is at most COUNT_EVERY_S old)."""
        with self._counted:
            before = self.count
            self._counted.wait_for(lambda: self.count != before, timeout=5)
            return self.count

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


# ---------------------------------------------------------------- measuring


def rss_kb(pid: int) -> int:
    """Resident memory of a process, in kB (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for pid {pid}")


def slow_config(endpoint: str, deadline_ms: int) -> LeagueConfig:
    """Four remote entrants, all the slow bot server."""
    return LeagueConfig(
        bots=tuple(Entrant(f"slow{s}", endpoint=endpoint) for s in range(4)),
        name="bench-scale",
        table_size=4,
        matches=1,
        deadline_ms=deadline_ms,
        max_strikes=0,
        concurrency=1 << 16,
    )


def tables(names: list[str], count: int, first: int = 0) -> list[Table]:
    return [Table(first + i, tuple(names), 1_000_003 * (first + i), None) for i in range(count)]


async def slow_level(
    executor: Executor,
    bot: BotProcess,
    concurrency: int,
    args: argparse.Namespace,
    names: list[str],
    first: int,
    pids: list[int],
) -> dict[str, Any]:
    """Decisions per second of ``concurrency`` slow matches in steady state; memory:
    the growth of the referee processes' RSS (``pids``) per match in flight."""
    gc.collect()
    rss_before = sum(rss_kb(pid) for pid in pids)
    tasks = [asyncio.create_task(executor.play(t)) for t in tables(names, concurrency, first)]
    await asyncio.sleep(args.warmup_s)
    n0, t0 = await asyncio.to_thread(bot.fresh_count)
    await asyncio.sleep(args.window_s)
    n1, t1 = await asyncio.to_thread(bot.fresh_count)
    gc.collect()
    rss_held = sum(rss_kb(pid) for pid in pids)
    finished_early = sum(1 for t in tasks if t.done())
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    rate = (n1 - n0) / (t1 - t0)
    ideal = concurrency / args.think_s
    return {
        "concurrency": concurrency,
        "decisions_per_s": round(rate, 1),
        "ideal_per_s": ideal,
        "efficiency": round(rate / ideal, 3),
        "window_s": round(t1 - t0, 2),
        "finished_in_window": finished_early,
        "mem_per_match_kb": round((rss_held - rss_before) / concurrency, 1),
    }


class TimedSeat:
    """A remote seat whose every decision's wall time is kept (from the referee's call
    to the reply it gets, the cut included)."""

    def __init__(self, seat: RemoteSeat, times: list[tuple[float, float]]) -> None:
        self.name = seat.name
        self._seat = seat
        self._times = times
        """(wall time, the arena's own lag the referee measured) per decision."""

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> Fault | None:
        return await self._seat.open(start, timeout_s)

    async def decide(self, decision: Decision) -> Reply:
        started = time.monotonic()
        reply = await self._seat.decide(decision)
        self._times.append((time.monotonic() - started, reply.lag_s))
        return reply

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        await self._seat.close(over, timeout_s)


async def cut_phase(slow: BotProcess, hung: BotProcess, args: argparse.Namespace) -> dict[str, Any]:
    """How late past the deadline the referee cuts a hung seat, with slow matches
    around it (one seat in every tenth match hung)."""
    game = get_game(DEFAULT_GAME)
    pool = ChannelPool()
    cuts: list[tuple[float, float]] = []
    tasks = []
    for index in range(args.cut_matches):
        spec = MatchSpec(
            match_id=f"cut/{index}",
            config=game.make_config(4),
            game=game,
            seed=index,
            deadline_ms=args.cut_deadline_ms,
            max_strikes=0,
            connect_timeout_s=60.0,
        )
        seats: list[Seat] = [
            RemoteSeat(f"s{s}", pool.get(slow.endpoint), max_reply_bytes=4096) for s in range(3)
        ]
        last = RemoteSeat(
            "s3", pool.get((hung if index % 10 == 0 else slow).endpoint), max_reply_bytes=4096
        )
        seats.append(TimedSeat(last, cuts) if index % 10 == 0 else last)
        tasks.append(asyncio.create_task(run_match(spec, seats)))
    await asyncio.sleep(args.warmup_s + args.window_s)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await pool.close()
    deadline_s = args.cut_deadline_ms / 1000
    late_ms = sorted((wall - deadline_s) * 1000 for wall, _ in cuts)
    # The referee gives a bot back the time its own loop was late (a bot is never charged
    # for the arena's lag), so on a loaded machine a cut comes that much later by design.
    beyond_lag_ms = sorted((wall - lag - deadline_s) * 1000 for wall, lag in cuts)
    if not late_ms:
        return {"cuts": 0}

    def p99(values: list[float]) -> float:
        return round(values[min(len(values) - 1, int(0.99 * len(values)))], 2)

    return {
        "matches": args.cut_matches,
        "hung_seats": len(range(0, args.cut_matches, 10)),
        "cuts": len(late_ms),
        "cut_p50_ms": round(statistics.median(late_ms), 2),
        "cut_p99_ms": p99(late_ms),
        "cut_max_ms": round(late_ms[-1], 2),
        "cut_beyond_arena_lag_p50_ms": round(statistics.median(beyond_lag_ms), 2),
        "cut_beyond_arena_lag_p99_ms": p99(beyond_lag_ms),
    }


def cpu_config() -> LeagueConfig:
    """In-process policies only: the referee's process does all the work."""
    bots = [Entrant(f"g{i}", builtin="greedy") for i in range(2)]
    bots += [Entrant(f"r{i}", builtin="random") for i in range(2)]
    return LeagueConfig(bots=tuple(bots), name="bench-cpu", table_size=4, matches=1)


async def cpu_rate(executor: Executor, args: argparse.Namespace) -> dict[str, Any]:
    """Matches per second among in-process policies, ``--cpu-concurrency`` at once."""
    names = [b.name for b in cpu_config().bots]
    done = 0
    index = 0
    stop = asyncio.Event()

    async def lane() -> None:
        nonlocal done, index
        while not stop.is_set():
            index += 1
            await executor.play(tables(names, 1, index)[0])
            done += 1

    await executor.start()
    try:
        pids = [os.getpid(), *worker_pids(executor)]
        lanes = [asyncio.create_task(lane()) for _ in range(args.cpu_concurrency)]
        await asyncio.sleep(args.cpu_warmup_s)
        d0, t0, c0 = done, time.monotonic(), cpu_s(pids)
        await asyncio.sleep(args.cpu_window_s)
        d1, t1, c1 = done, time.monotonic(), cpu_s(pids)
        stop.set()
        for task in lanes:
            task.cancel()
        await asyncio.gather(*lanes, return_exceptions=True)
    finally:
        await executor.stop()
    matches = max(d1 - d0, 1)
    return {
        "matches": d1 - d0,
        "matches_per_s": round((d1 - d0) / (t1 - t0), 2),
        # CPU of the head and its workers per match: what the machine's load cannot change.
        "cpu_ms_per_match_head": round((c1[0] - c0[0]) / matches * 1000, 2),
        "cpu_ms_per_match_workers": round((sum(c1[1:]) - sum(c0[1:])) / matches * 1000, 2),
    }


def cpu_s(pids: list[int]) -> list[float]:
    """User + system CPU seconds of each process so far (Linux ``/proc``)."""
    tick = os.sysconf("SC_CLK_TCK")
    times = []
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        times.append((int(fields[11]) + int(fields[12])) / tick)
    return times


def worker_pids(executor: Executor) -> list[int]:
    """The worker processes of an executor (none for local)."""
    pids = []
    for worker in getattr(executor, "workers", []):
        pids.append(int(worker.pid))
    return pids


async def workers_phase(args: argparse.Namespace) -> dict[str, Any]:
    """1 worker, then 2, on processes and (if installed) ray."""
    figures: dict[str, Any] = {}
    config = cpu_config()
    for workers in (1, 2):
        one = ProcessesExecutor(LeagueRecipe(config), workers)
        figures[f"processes_{workers}"] = await cpu_rate(one, args)
    figures["local"] = await cpu_rate(LocalExecutor(LeagueRecipe(config)), args)
    try:
        from arena.league.executors.ray_pool import RayExecutor
    except ImportError:
        return figures
    try:
        for workers in (1, 2):
            ray_executor = RayExecutor(LeagueRecipe(config), workers)
            figures[f"ray_{workers}"] = await cpu_rate(ray_executor, args)
    except Exception as error:  # Ray missing or failing: say so in the figures
        figures["ray_error"] = str(error)
    return figures


def ray_hop_ms(hops: int) -> dict[str, float] | None:
    """Mean round trip, in ms, of one job on the ``ray`` executor whose referee plays
    nothing (``echo_referee``): a table out and a real finished match back, as the
    executor sends them (``executor``), next to a no-op Ray actor call carrying the same
    (``ray_call``: what each match cost before the executor sent matches over its own
    connection)."""
    try:
        import ray
    except ImportError:
        return None
    from echo_referee import EchoRecipe, EchoReferee

    from arena.league.executors.ray_pool import RayExecutor

    config = cpu_config()

    async def one_match() -> Any:
        executor = LocalExecutor(LeagueRecipe(config))
        await executor.start()
        try:
            return await executor.play(tables([b.name for b in config.bots], 1)[0])
        finally:
            await executor.stop()

    finished = asyncio.run(one_match())
    table = tables([b.name for b in config.bots], 1)[0]

    async def executor_hops() -> float:
        executor = RayExecutor(EchoRecipe(finished), 1)
        await executor.start()
        try:
            await executor.play(table)  # warm
            started = time.monotonic()
            for _ in range(hops):
                await executor.play(table)
            return (time.monotonic() - started) / hops * 1000
        finally:
            await executor.stop()

    executor_ms = asyncio.run(executor_hops())

    echo: Any = EchoReferee
    ray.init(num_cpus=1, include_dashboard=False, logging_level=logging.ERROR)
    try:
        actor = ray.remote(echo).options(num_cpus=1).remote(finished)
        ray.get(actor.play.remote(table))  # warm
        started = time.monotonic()
        for _ in range(hops):
            ray.get(actor.play.remote(table))
        call_ms = (time.monotonic() - started) / hops * 1000
    finally:
        ray.shutdown()
    return {"executor": round(executor_ms, 3), "ray_call": round(call_ms, 3)}


async def slow_phase(args: argparse.Namespace, slow: BotProcess) -> dict[str, Any]:
    config = slow_config(slow.endpoint, args.deadline_ms)
    names = [b.name for b in config.bots]
    figures: dict[str, Any] = {"one_process": [], "two_workers": []}
    local = LocalExecutor(LeagueRecipe(config))
    await local.start()
    first = 0
    try:
        for level in args.levels:
            figures["one_process"].append(
                await slow_level(local, slow, level, args, names, first, [os.getpid()])
            )
            first += level
            print(f"one process: {figures['one_process'][-1]}", file=sys.stderr, flush=True)
    finally:
        await local.stop()
    if args.worker_levels:
        workers = ProcessesExecutor(LeagueRecipe(config), 2)
        await workers.start()
        pids = [w.pid for w in workers.workers if isinstance(w, ProcessWorker) and w.pid]
        try:
            for level in args.worker_levels:
                figures["two_workers"].append(
                    await slow_level(workers, slow, level, args, names, first, pids)
                )
                first += level
                print(f"2 workers: {figures['two_workers'][-1]}", file=sys.stderr, flush=True)
        finally:
            await workers.stop()
    return figures


async def zero_work_phase(args: argparse.Namespace) -> dict[str, Any]:
    """Per-process efficiency: a league among 4 SDK random bots against a referee that
    does no work with 4 such bots, 16 matches at once on each (``decision_cost.py``'s
    rungs ``held``, ``per_match`` and ``league``), one after the other in this run."""
    from decision_cost import measure

    rungs = await measure(16, args.zero_window_s, [], [], args.zero_matches)
    return {
        "league_decisions_per_s": rungs["league"]["decisions_per_s"],
        "zero_work_decisions_per_s": rungs["held"]["decisions_per_s"],
        "zero_work_stream_per_match_decisions_per_s": rungs["per_match"]["decisions_per_s"],
        "league_arena_us": rungs["league"]["arena_us"],
        "league_bots_us": rungs["league"]["bots_us"],
        "zero_work_arena_us": rungs["held"]["arena_us"],
        "zero_work_bots_us": rungs["held"]["bots_us"],
    }


def _largest_at_90(levels: list[dict[str, Any]]) -> int | None:
    held = [lv["concurrency"] for lv in levels if lv["efficiency"] >= 0.9]
    return max(held) if held else None


def _levels(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--levels", type=_levels, default=_levels("64,256,1024"))
    parser.add_argument("--worker-levels", type=_levels, default=_levels("256,1024"))
    parser.add_argument("--think-s", type=float, default=1.0)
    parser.add_argument("--deadline-ms", type=int, default=5000, help="slow phases' deadline")
    parser.add_argument("--warmup-s", type=float, default=10.0)
    parser.add_argument("--window-s", type=float, default=20.0)
    parser.add_argument("--cut-matches", type=int, default=256)
    parser.add_argument("--cut-deadline-ms", type=int, default=1500)
    parser.add_argument("--cpu-concurrency", type=int, default=8)
    parser.add_argument("--cpu-warmup-s", type=float, default=3.0)
    parser.add_argument("--cpu-window-s", type=float, default=15.0)
    parser.add_argument("--hops", type=int, default=300)
    parser.add_argument("--zero-window-s", type=float, default=5.0)
    parser.add_argument("--zero-matches", type=int, default=400, help="the zero phase's league")
    parser.add_argument(
        "--skip", default="", help="comma-separated phases to skip: slow,cut,workers,hop,zero"
    )
    parser.add_argument("--serve", choices=["slow", "hang"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(_serve(args.serve, args.think_s))
        return
    skip = set(args.skip.split(","))
    result: dict[str, Any] = {
        "compiled": native.compiled(),
        "cpus": os.cpu_count(),
        "loadavg_before": [round(x, 2) for x in os.getloadavg()],
    }
    slow = BotProcess("slow", args.think_s)
    hung = BotProcess("hang", args.think_s)
    try:
        if "slow" not in skip:
            slow_figures = asyncio.run(slow_phase(args, slow))
            result["slow_bots"] = slow_figures
            one = slow_figures["one_process"]
            if one:
                result["slow_bots_efficiency"] = one[-1]["efficiency"]
                result["slow_bots_efficiency_at"] = one[-1]["concurrency"]
                result["mem_per_match_kb"] = max(lv["mem_per_match_kb"] for lv in one)
            result["largest_concurrency_at_90pct"] = _largest_at_90(one)
            result["largest_concurrency_at_90pct_2_workers"] = _largest_at_90(
                slow_figures["two_workers"]
            )
        if "cut" not in skip:
            result["cuts"] = asyncio.run(cut_phase(slow, hung, args))
            result["cut_p99_ms"] = result["cuts"].get("cut_p99_ms")
    finally:
        slow.stop()
        hung.stop()
    if "workers" not in skip:
        workers = asyncio.run(workers_phase(args))
        result["workers"] = workers
        rate = {k: v["matches_per_s"] for k, v in workers.items() if isinstance(v, dict)}
        result["workers_speedup_processes"] = round(rate["processes_2"] / rate["processes_1"], 3)
        if "ray_1" in rate and "ray_2" in rate:
            result["workers_speedup_ray"] = round(rate["ray_2"] / rate["ray_1"], 3)
    if "hop" not in skip:
        try:
            hop = ray_hop_ms(args.hops)
            if hop is not None:
                result["ray_hop_ms"] = hop["executor"]
                result["ray_call_ms"] = hop["ray_call"]
        except Exception as error:  # Ray failing here: say so in the figures
            result["ray_hop_error"] = str(error)
    if "zero" not in skip:
        zero = asyncio.run(zero_work_phase(args))
        result["zero_work"] = zero
        result["zero_work_ratio"] = round(
            zero["league_decisions_per_s"] / zero["zero_work_decisions_per_s"], 3
        )
        result["zero_work_ratio_stream_per_match"] = round(
            zero["league_decisions_per_s"] / zero["zero_work_stream_per_match_decisions_per_s"], 3
        )
    result["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
