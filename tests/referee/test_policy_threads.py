"""Built-in policies decide off the referee's event loop: a policy that does not return
holds up only its own table, while another match on the same loop (a scripted bot with
deadlines on the virtual clock, and a built-in seat of its own) plays to its end."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from typing import Any

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchOutcome, MatchSpec, RemoteSeat, Seat, run_match
from arena.referee.ending import streams_ended
from arena.v1 import bot_pb2

from .scripted import ScriptedChannel, ScriptedContext, run_virtual

DEADLOCK_GUARD_S = 30.0
"""How long the blocked policy waits for its release at most. Never reached when it
decides off the loop (the release comes as soon as the other match is over); on the
loop it is how long the loop stays stopped before the test fails instead of hanging."""


class BlockedPolicy:
    """Its first decision waits on a threading.Event that only the test sets; the rest
    are the first legal action."""

    def __init__(self, release: threading.Event, entered: asyncio.Event) -> None:
        self._release = release
        self._entered = entered
        self._loop = asyncio.get_running_loop()
        self.released: list[bool] = []
        """For the first decision: whether the release came (False: the guard ran out)."""

    def choose(self, obs: Any) -> Any:
        if not self.released:
            self._loop.call_soon_threadsafe(self._entered.set)
            self.released.append(self._release.wait(DEADLOCK_GUARD_S))
        return obs.legal[0]


def prompt_bot() -> ScriptedChannel:
    """A bot that answers every decision (legal index 0) 5 ms of virtual time after it
    was asked: well inside the deadline, as long as the arena's loop runs."""

    async def play(
        requests: AsyncIterator[bot_pb2.ArenaMessage], context: ScriptedContext
    ) -> AsyncIterator[bytes]:
        async for message in requests:
            if message.HasField("decide"):
                await asyncio.sleep(0.005)
                yield bot_pb2.BotMessage(
                    request_id=message.decide.request_id, legal_index=0
                ).SerializeToString()

    return ScriptedChannel(play)


def spec(match_id: str, players: int) -> MatchSpec:
    return MatchSpec(
        match_id=match_id, config=ab.make_config(players, "amigo"), seed=5, deadline_ms=30
    )


def test_a_blocked_builtin_policy_holds_up_only_its_own_table() -> None:
    async def scenario() -> tuple[MatchOutcome, MatchOutcome, BlockedPolicy]:
        release = threading.Event()
        entered = asyncio.Event()
        blocked = BlockedPolicy(release, entered)
        stuck_seats: list[Seat] = [
            LocalSeat("blocked", blocked, off_loop=True),
            LocalSeat("r1", RandomPolicy(1), off_loop=True),
            LocalSeat("r2", RandomPolicy(2), off_loop=True),
        ]
        stuck = asyncio.create_task(run_match(spec("stuck", 3), stuck_seats))
        await entered.wait()  # the blocked policy is deciding now
        other_seats: list[Seat] = [
            RemoteSeat("bot", prompt_bot(), max_reply_bytes=4096),
            LocalSeat("r3", RandomPolicy(3), off_loop=True),
        ]
        other = await run_match(spec("other", 2), other_seats)
        assert not stuck.done()  # still waiting for its first decision
        release.set()
        first = await stuck
        await streams_ended()
        return first, other, blocked

    stuck, other, blocked = run_virtual(scenario())
    assert blocked.released == [True]  # released by the test, after the other match
    assert other.decisions > 20
    assert all(not seat.faults for seat in other.seats)  # the bot met every deadline
    assert stuck.decisions > 20
    assert all(not seat.faults for seat in stuck.seats)  # a built-in is never cut


class WhereItDecides(RandomPolicy):
    """A random policy that notes the thread of each of its decisions."""

    def __init__(self, seed: int, *, instant: bool) -> None:
        super().__init__(seed)
        self.instant = instant  # type: ignore[misc]
        self.threads: set[int] = set()

    def choose(self, obs: Any) -> Any:
        self.threads.add(threading.get_ident())
        return super().choose(obs)


def test_an_instant_policy_decides_on_the_loop_and_any_other_on_a_thread() -> None:
    """A uniform pick takes microseconds: a thread hop per decision would cost more than
    the decision (at 1,000 matches in flight, a third of a league's rate)."""

    async def scenario() -> tuple[WhereItDecides, WhereItDecides, int]:
        quick = WhereItDecides(1, instant=True)
        other = WhereItDecides(2, instant=False)
        seats: list[Seat] = [
            LocalSeat("quick", quick, off_loop=True),
            LocalSeat("other", other, off_loop=True),
        ]
        await run_match(spec("where", 2), seats)
        return quick, other, threading.get_ident()

    quick, other, loop_thread = run_virtual(scenario())
    assert quick.threads == {loop_thread}
    assert other.threads
    assert loop_thread not in other.threads
    assert RandomPolicy.instant
