#!/usr/bin/env python3
"""Memory of many match streams at once: one SDK bot process serving N Play streams, and
one referee (this process) holding the N seats, all on one channel.

A random bot (``sample_bots/random_bot.py``, the Python SDK) is started as its own
process. After two warm-up matches, both processes' resident memory is read
(``VmRSS``). Then N/2 two-player matches start at once, both seats on that bot, over one
pooled channel as the ladder has it. Each match plays until every seat has had one
decision answered (so the bot holds a policy and the referee a live stream for each
seat), then waits; once all N seats are there, both processes' memory is read again, and
the matches are let go to play to the end. Per stream: the growth over N.

Last line JSON: {"streams", "bot_rss_mb", "arena_rss_mb", "kb_per_stream_bot",
"kb_per_stream_arena", ...} (RSS while the N streams are held).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from arena import native
from arena.games import get as get_game
from arena.referee import MatchOutcome, MatchSpec, RemoteSeat, run_match
from arena.referee.channels import ChannelPool
from arena.referee.faults import Fault
from arena.referee.seats import Decision, Reply, Seat
from arena.v1 import bot_pb2

ROOT = Path(__file__).resolve().parents[2]


def rss_kb(pid: int) -> int:
    """Resident memory of a process, in kB (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for pid {pid}")


def start_bot() -> tuple[subprocess.Popen[str], str]:
    """The SDK random bot on a free port, and its endpoint."""
    command = [sys.executable, str(ROOT / "sample_bots" / "random_bot.py"), "--port", "0"]
    bot = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert bot.stdout is not None
    line = bot.stdout.readline()
    prefix = "arena-bot listening on "
    if not line.startswith(prefix):
        bot.kill()
        raise RuntimeError(f"the bot did not start: {line!r}")
    return bot, line[len(prefix) :].strip()


class Hold:
    """Holds a set of matches once each of their seats has had a decision answered."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.ready = 0
        self.all_ready = asyncio.Event()
        self.release = asyncio.Event()


class HeldMatch:
    """One match's gate: its decisions run until every seat has decided once, then the
    next one waits for the release."""

    def __init__(self, hold: Hold, players: int) -> None:
        self.hold = hold
        self.waiting_for = players
        self.decided: set[str] = set()

    def decided_once(self, seat: str) -> None:
        if seat not in self.decided:
            self.decided.add(seat)
            if len(self.decided) == self.waiting_for:
                self.hold.ready += self.waiting_for
                if self.hold.ready >= self.hold.seats:
                    self.hold.all_ready.set()


class HeldSeat:
    """A remote seat whose match waits at the gate (no deadline runs meanwhile: the
    referee's timer starts inside ``RemoteSeat.decide``)."""

    def __init__(self, seat: RemoteSeat, gate: HeldMatch) -> None:
        self.name = seat.name
        self._seat = seat
        self._gate = gate

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> Fault | None:
        return await self._seat.open(start, timeout_s)

    async def decide(self, decision: Decision) -> Reply:
        gate = self._gate
        if len(gate.decided) == gate.waiting_for:
            await gate.hold.release.wait()
        reply = await self._seat.decide(decision)
        gate.decided_once(self.name)
        return reply

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        await self._seat.close(over, timeout_s)


def spec(game_name: str, index: int, deadline_ms: int) -> MatchSpec:
    game = get_game(game_name)
    return MatchSpec(
        match_id=f"bench/{index:06d}",
        config=game.make_config(2),
        game=game,
        seed=index,
        deadline_ms=deadline_ms,
        connect_timeout_s=60.0,
    )


def faults(outcomes: list[MatchOutcome]) -> int:
    return sum(len(seat.faults) for outcome in outcomes for seat in outcome.seats)


async def run(streams: int, deadline_ms: int, game: str) -> dict[str, object]:
    bot, endpoint = start_bot()
    pool = ChannelPool()
    try:
        channel = pool.get(endpoint)
        warm_up = []
        for index in range(2):  # a seat is one match's
            warm: list[Seat] = [
                RemoteSeat(f"w{s}", channel, max_reply_bytes=4096) for s in range(2)
            ]
            warm_up.append(await run_match(spec(game, -1 - index, deadline_ms), warm))
        if faults(warm_up):
            raise RuntimeError(f"faults in the warm-up: {[o.seats for o in warm_up]}")
        await asyncio.sleep(0.5)  # the warm-up streams' ends reach the bot
        gc.collect()
        bot_before, arena_before = rss_kb(bot.pid), rss_kb(os.getpid())

        hold = Hold(streams)
        matches = streams // 2
        started = time.monotonic()
        tasks = []
        for index in range(matches):
            gate = HeldMatch(hold, 2)
            seats: list[Seat] = [
                HeldSeat(RemoteSeat(f"s{index}-{s}", channel, max_reply_bytes=4096), gate)
                for s in range(2)
            ]
            tasks.append(asyncio.create_task(run_match(spec(game, index, deadline_ms), seats)))
        await hold.all_ready.wait()
        held_s = time.monotonic() - started
        gc.collect()
        bot_held, arena_held = rss_kb(bot.pid), rss_kb(os.getpid())
        hold.release.set()
        outcomes = list(await asyncio.gather(*tasks))
        wall_s = time.monotonic() - started
        decisions = sum(outcome.decisions for outcome in outcomes)
        await asyncio.sleep(0.5)
        gc.collect()
        bot_after, arena_after = rss_kb(bot.pid), rss_kb(os.getpid())
    finally:
        await pool.close()
        bot.terminate()
        bot.wait(timeout=30)
    return {
        "streams": matches * 2,
        "matches": matches,
        "decisions": decisions,
        "faults": faults(outcomes),
        "seconds_to_hold_all": round(held_s, 2),
        "wall_s": round(wall_s, 2),
        "bot_rss_mb": round(bot_held / 1024, 1),
        "arena_rss_mb": round(arena_held / 1024, 1),
        "bot_rss_before_mb": round(bot_before / 1024, 1),
        "arena_rss_before_mb": round(arena_before / 1024, 1),
        "bot_rss_after_mb": round(bot_after / 1024, 1),
        "arena_rss_after_mb": round(arena_after / 1024, 1),
        "kb_per_stream_bot": round((bot_held - bot_before) / (matches * 2), 1),
        "kb_per_stream_arena": round((arena_held - arena_before) / (matches * 2), 1),
        "compiled": native.compiled(),  # ARENA_PURE_PYTHON=1 for pure Python
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000, help="streams held (even)")
    parser.add_argument(
        "--deadline-ms", type=int, default=10_000, help="per decision (generous: one core)"
    )
    parser.add_argument("--game", default="abluxxen")
    args = parser.parse_args()
    if args.streams < 2 or args.streams % 2:
        parser.error("--streams must be an even number, at least 2")
    result = asyncio.run(run(args.streams, args.deadline_ms, args.game))
    for key, value in result.items():
        print(f"{key}: {value}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
