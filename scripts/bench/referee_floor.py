#!/usr/bin/env python3
"""How low the referee/echo ratio can go at all, and how much work per decision fits
under a goal ratio: a floor for ``scripts/bench/bench_referee.py``.

Against the same trivial bot server in another process, and alternating with samples of
the bare echo (the baseline of bench_referee.py), this plays:

- replay: the referee's exact request bytes for real 4-player matches (built beforehand
  with ``decide_request_bytes``, every seat taking legal action 0 as the server does),
  sent through ``RemoteSeat`` with one stream per seat, opened and closed per match as
  in ``run_match``, but with no engine, observation or encoding work at all: what a
  referee that computes nothing costs against the echo;
- replay + work W: the same with a busy wait of W µs before each request, standing in
  for W µs of per-decision work (apply, observe, encode, validate, record);
- referee: ``run_match`` itself, for reference in the same run.

Each figure is the median of its samples' ratios to the echo sample taken just before.
``work_budget_us`` is the largest W whose ratio stays within ``--goal``, or 0 if none.

Last line JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee import echo_us, referee_us, start_server
from canned import canned_decision

from arena import native
from arena.games import abluxxen as ab
from arena.games.abluxxen.wire_bytes import decide_request_bytes
from arena.gctune import tune_for_latency
from arena.referee import RemoteSeat
from arena.referee.channels import ChannelPool
from arena.v1 import bot_pb2

PLAYERS = 4
DEADLINE_MS = 1000

Recorded = list[tuple[int, bytes]]
"""One match: (deciding seat, serialized ArenaMessage{decide}) per decision."""


def recorded_match(seed: int) -> Recorded:
    """The requests the referee sends in the 4-player amigo match of ``seed`` when every
    seat answers legal action 0 (as the trivial server does)."""
    state = ab.new_game(ab.make_config(PLAYERS, "amigo"), random.Random(seed))
    cursors = [0] * PLAYERS
    out: Recorded = []
    while state.kind is not None:
        seat = state.deciding
        obs = ab.observe(state, seat)
        events = state.events[cursors[seat] :]
        cursors[seat] = len(state.events)
        out.append((seat, decide_request_bytes(len(out) + 1, DEADLINE_MS, 0, obs, events)))
        ab.apply_unchecked(state, obs.legal[0])
    return out


def busy_wait(us: float) -> None:
    """Hold the CPU for ``us`` microseconds, as the referee's own work would."""
    until = time.perf_counter() + us / 1e6
    while time.perf_counter() < until:
        pass


async def replay_us(
    pool: ChannelPool, endpoint: str, matches: list[Recorded], work_us: float
) -> float:
    """µs per decision of replaying ``matches`` through RemoteSeats, with ``work_us`` of
    busy work before each request."""
    channel = pool.get(endpoint)
    decisions = 0
    started = time.perf_counter()
    for index, requests in enumerate(matches):
        seats = [RemoteSeat(f"b{s}", channel, max_reply_bytes=4096) for s in range(PLAYERS)]
        await asyncio.gather(
            *(
                seat.open(bot_pb2.MatchStart(match_id=f"floor-{index}", seat=s), 5.0)
                for s, seat in enumerate(seats)
            )
        )
        for request_id, (seat_index, message) in enumerate(requests, start=1):
            if work_us:
                busy_wait(work_us)
            decision = canned_decision(request_id, message, DEADLINE_MS)
            reply = await seats[seat_index].decide(decision)
            assert reply.fault is None, reply.fault
        over = bot_pb2.MatchOver(match_id=f"floor-{index}")
        await asyncio.gather(*(seat.close(over, 1.0) for seat in seats))
        decisions += len(requests)
    return (time.perf_counter() - started) / decisions * 1e6


async def measure(args: argparse.Namespace) -> dict[str, object]:
    matches = [recorded_match(seed) for seed in range(args.matches)]
    works = sorted(set(args.work))
    ratios: dict[str, list[float]] = {"replay": [], "referee": []}
    ratios.update({f"replay_work_{w:g}us": [] for w in works if w})
    echoes: list[float] = []
    process, endpoint = start_server(hang=False)
    pool = ChannelPool()
    try:
        await replay_us(pool, endpoint, matches[:2], 0.0)  # warm-up
        for _ in range(args.samples):
            for work in works:
                echo = await echo_us(endpoint, args.rounds)
                echoes.append(echo)
                name = f"replay_work_{work:g}us" if work else "replay"
                ratios[name].append(await replay_us(pool, endpoint, matches, work) / echo)
            echo = await echo_us(endpoint, args.rounds)
            echoes.append(echo)
            ratios["referee"].append(await referee_us(endpoint, args.matches) / echo)
    finally:
        await pool.close()
        process.terminate()
        process.wait(timeout=10)
    medians = {name: round(statistics.median(values), 3) for name, values in ratios.items()}
    within = [w for w in works if medians[f"replay_work_{w:g}us" if w else "replay"] <= args.goal]
    return {
        "echo_us": round(statistics.median(echoes), 1),
        "ratios": medians,
        "goal": args.goal,
        "work_budget_us": max(within, default=0.0),
        "compiled": native.compiled(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1500, help="echo round trips per sample")
    parser.add_argument("--matches", type=int, default=8, help="matches per replay sample")
    parser.add_argument("--samples", type=int, default=5, help="samples of each variant")
    parser.add_argument(
        "--work",
        type=float,
        nargs="+",
        default=[0, 10, 20, 30, 45, 60],
        help="µs of busy work per decision to try (0 = the bare replay)",
    )
    parser.add_argument("--goal", type=float, default=1.25, help="the ratio to stay within")
    args = parser.parse_args()
    tune_for_latency()  # as bench_referee.py and the arena's entry points do
    print(json.dumps(asyncio.run(measure(args))))


if __name__ == "__main__":
    main()
