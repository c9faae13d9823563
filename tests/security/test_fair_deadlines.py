"""A bot is charged only for time it had: a well-behaved bot with a 30 ms deadline,
sharing the referee's loop with busy neighbours that stall it 27-90 ms at a time, gets
no TIMEOUT it did not cause.

Found under load (101 spurious TIMEOUTs in one run): the deadline's timer and the bot's
reply became due together while the loop was stalled, the timer ran first, and the
reply already received was dropped as late. Replayed here exactly, on a virtual clock
with the bot over a scripted transport (``tests/referee/scripted.py``). Failed on
a35e272 (most of the bot's decisions were TIMEOUTs); passes now: the lag is measured,
the deadline moves on by it, and a reply already received is taken.
"""

from __future__ import annotations

import asyncio
import random

from referee.faulty_bot import Behaviour, FaultyBot
from referee.scripted import ScriptedChannel, run_virtual, stall

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchOutcome, MatchSpec, RemoteSeat, Seat, run_match
from arena.referee.ending import streams_ended


async def _neighbours(rng: random.Random, done: asyncio.Event) -> int:
    """Other matches on the same loop: every 0.5-3 ms they hold it for 27-90 ms."""
    stalls = 0
    while not done.is_set():
        await asyncio.sleep(rng.uniform(0.0005, 0.003))
        stall(rng.uniform(0.027, 0.090))
        stalls += 1
    return stalls


def test_a_good_bot_gets_no_timeout_from_the_arenas_lag() -> None:
    async def scenario() -> tuple[MatchOutcome, int]:
        bot = FaultyBot(Behaviour("sleep", after=0, sleep_s=0.001))  # answers in 1 ms
        seats: list[Seat] = [
            RemoteSeat("good", ScriptedChannel(bot.play), max_reply_bytes=4096),
            LocalSeat("r1", RandomPolicy(1)),
            LocalSeat("r2", RandomPolicy(2)),
        ]
        spec = MatchSpec(
            match_id="m",
            config=ab.make_config(3, "amigo"),
            seed=7,
            deadline_ms=30,
            max_strikes=0,
        )
        done = asyncio.Event()
        neighbours = asyncio.create_task(_neighbours(random.Random(12), done))
        outcome = await run_match(spec, seats)
        done.set()
        stalls = await neighbours
        await streams_ended()
        return outcome, stalls

    outcome, stalls = run_virtual(scenario())
    mine = [line for line in outcome.record if line["type"] == "decision" and line["seat"] == 0]
    assert stalls >= len(mine) // 2  # the loop lagged all along
    assert outcome.seats[0].faults == []
    # Every decision was the bot's own answer: no fallback for lag either.
    assert all("fallback" not in line for line in mine)
