"""What a bot's stream may not do to the arena, against real gRPC servers on loopback:
flood it with messages (the reader reads at most one per request plus a few), or turn
the cancellation of a match into a finished match while the seats close."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass

import grpc
import pytest

from arena.games import abluxxen as ab
from arena.games import get as get_game
from arena.policies import RandomPolicy
from arena.referee import (
    FaultKind,
    LocalSeat,
    MatchOutcome,
    MatchSpec,
    RemoteSeat,
    Seat,
    run_match,
)
from arena.referee.channels import ChannelPool
from arena.referee.seats import EXTRA_MESSAGES, Decision
from arena.v1 import bot_pb2

from .faulty_bot import Behaviour, FaultyBot, start_faulty_bot
from .test_faults import _check_complete


@dataclass
class Played:
    outcome: MatchOutcome
    seat: RemoteSeat
    bot: FaultyBot
    wall_s: float


def _spec(deadline_ms: int, max_strikes: int) -> MatchSpec:
    return MatchSpec(
        match_id="m",
        config=ab.make_config(3, "amigo"),
        seed=5,
        deadline_ms=deadline_ms,
        max_strikes=max_strikes,
        connect_timeout_s=1.0,
    )


def play(behaviour: Behaviour, *, deadline_ms: int = 500, max_strikes: int = 3) -> Played:
    """One match of the bot (seat 0) against two random policies; the pool is closed (so
    every stream has ended) before this returns."""

    async def scenario() -> Played:
        server, endpoint, bot = await start_faulty_bot(behaviour)
        pool = ChannelPool()
        try:
            seat = RemoteSeat("bot", pool.get(endpoint), max_reply_bytes=4096)
            seats: list[Seat] = [
                seat,
                LocalSeat("r1", RandomPolicy(1)),
                LocalSeat("r2", RandomPolicy(2)),
            ]
            started = time.monotonic()
            outcome = await run_match(_spec(deadline_ms, max_strikes), seats)
            await pool.close()
            return Played(outcome, seat, bot, time.monotonic() - started)
        finally:
            await pool.close()
            await server.stop(None)

    return asyncio.run(scenario())


def _check_bounded(seat: RemoteSeat) -> None:
    """The reader stopped at the first message past the allowance and cancelled the call
    (which the bot never ends)."""
    assert seat._received == seat._sent + EXTRA_MESSAGES + 1
    assert len(seat._mailbox._items) <= EXTRA_MESSAGES + 2
    assert seat._call is not None
    assert seat._call.cancelled()


@pytest.mark.parametrize("padding", [10, 1_000_000], ids=["small", "1MB"])
def test_a_flooding_bot_is_cut_off_with_a_malformed_fault(padding: int) -> None:
    played = play(Behaviour("flood", after=2, padding=padding))
    outcome, seat = played.outcome, played.seat
    _check_complete(outcome)
    faults = outcome.seats[0].faults
    # The third answer counts (it came first); the next decision gets the flood fault
    # (the reader trips before or while it is asked), then the stream stays broken.
    mine = [line for line in outcome.record if line["type"] == "decision" and line["seat"] == 0]
    assert all("fault" not in line for line in mine[:3])
    assert mine[3]["fault"]["kind"] == "MALFORMED"
    assert [f.kind for f in faults] == [
        FaultKind.MALFORMED,
        FaultKind.DISCONNECTED,
        FaultKind.DISCONNECTED,
    ]
    sent = seat._sent
    assert sent in (3, 4)
    assert faults[0].detail.startswith(
        f"the bot sent {sent + EXTRA_MESSAGES + 1} messages for {sent} requests"
    )
    assert faults[0].request_id == mine[3]["n"]
    assert faults[1].detail.startswith("the stream is closed (MALFORMED: the bot sent")
    assert outcome.seats[0].forfeited
    _check_bounded(seat)
    assert played.wall_s < 10


def test_a_bot_that_floods_after_its_seat_was_forfeited_is_cut_off_too() -> None:
    # The bot answers its first decision too late (forfeited at once, never asked
    # again), then floods: nothing drains its queue, so only the bound stops it.
    played = play(Behaviour("flood_late", after=0, sleep_s=0.15), deadline_ms=100, max_strikes=1)
    _check_complete(played.outcome)
    assert [f.kind for f in played.outcome.seats[0].faults] == [FaultKind.TIMEOUT]
    assert played.outcome.seats[0].forfeited
    assert played.seat._sent == 1
    _check_bounded(played.seat)
    # Cut off at once: closing the pool did not wait out the 1 s the bot has to end its
    # stream after MatchOver (the match itself takes its 0.1 s timeout plus a few ms).
    assert played.wall_s < 0.8


def test_a_bot_that_answers_everything_twice_is_cut_off_after_the_slack() -> None:
    played = play(Behaviour("duplicate", after=0), max_strikes=0)
    _check_complete(played.outcome)
    faults = played.outcome.seats[0].faults
    assert faults[0].kind is FaultKind.MALFORMED
    assert {f.kind for f in faults[1:]} == {FaultKind.DISCONNECTED}
    mine = [
        line for line in played.outcome.record if line["type"] == "decision" and line["seat"] == 0
    ]
    # One stray message per request: the first EXTRA_MESSAGES are dropped silently.
    assert all("fault" not in line for line in mine[:EXTRA_MESSAGES])
    assert faults[0].detail.startswith(f"the bot sent {played.seat._received} messages for")
    _check_bounded(played.seat)


class ClosingSeat(RemoteSeat):
    """A RemoteSeat that says when it starts closing, and whose MatchOver is larger than
    any flow-control window (a record of a long match), so that writing it to a bot that
    does not read blocks until the close's timeout."""

    def __init__(self, name: str, channel: grpc.aio.Channel) -> None:
        super().__init__(name, channel, max_reply_bytes=4096)
        self.closing = asyncio.Event()

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        self.closing.set()
        over.record_json = "x" * (8 << 20)
        await super().close(over, timeout_s)


def test_cancelling_a_match_while_its_seats_close_cancels_it() -> None:
    # (run_match closes its seats under asyncio.gather, which re-raises its own
    # cancellation even when a child swallowed it; the seat-level tests below are the
    # ones that fail if RemoteSeat swallows the task's cancellation.)
    async def scenario() -> tuple[float, FaultyBot, ClosingSeat]:
        server, endpoint, bot = await start_faulty_bot(Behaviour("no_read", after=2))
        pool = ChannelPool()
        try:
            seat = ClosingSeat("bot", pool.get(endpoint))
            seats: list[Seat] = [
                seat,
                LocalSeat("r1", RandomPolicy(1)),
                LocalSeat("r2", RandomPolicy(2)),
            ]
            # One timeout forfeits the seat; its stream stays open, so close writes
            # MatchOver, which the bot never reads.
            task = asyncio.create_task(run_match(_spec(100, 1), seats))
            await asyncio.wait_for(seat.closing.wait(), 10)
            await asyncio.sleep(0.2)
            assert not task.done()  # blocked writing MatchOver
            cancelled_at = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            waited = time.monotonic() - cancelled_at
            for _ in range(100):  # the bot's side of the call ends soon after
                if bot.cancelled:
                    break
                await asyncio.sleep(0.01)
            return waited, bot, seat
        finally:
            await pool.close()
            await server.stop(None)

    waited, bot, seat = asyncio.run(scenario())
    assert waited < 0.5  # at once, not after the close's 1 s timeout
    assert bot.cancelled == 1  # the call was cancelled, not leaked
    assert seat._call is not None
    assert seat._call.cancelled()


def test_cancelling_the_wait_for_a_bot_to_end_its_stream_cancels_the_call() -> None:
    async def scenario() -> tuple[bool, FaultyBot]:
        server, endpoint, bot = await start_faulty_bot(Behaviour("no_read", after=0))
        pool = ChannelPool()
        try:
            seat = RemoteSeat("bot", pool.get(endpoint), max_reply_bytes=4096)
            assert await seat.open(bot_pb2.MatchStart(match_id="m"), 2.0) is None
            assert seat._call is not None
            # What close leaves to the background: up to 5 s for the bot to end the call.
            waiting = asyncio.create_task(seat._await_end(seat._call, 5.0))
            await asyncio.sleep(0.2)
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            for _ in range(100):
                if bot.ended:
                    break
                await asyncio.sleep(0.01)
            return seat._call.cancelled(), bot
        finally:
            await pool.close()
            await server.stop(None)

    call_cancelled, bot = asyncio.run(scenario())
    assert call_cancelled
    assert bot.ended == 1


def test_cancelling_a_seat_while_it_closes_propagates_and_cancels_the_call() -> None:
    async def scenario() -> tuple[float, FaultyBot, RemoteSeat]:
        server, endpoint, bot = await start_faulty_bot(Behaviour("no_read", after=0))
        pool = ChannelPool()
        try:
            seat = RemoteSeat("bot", pool.get(endpoint), max_reply_bytes=4096)
            assert await seat.open(bot_pb2.MatchStart(match_id="m"), 2.0) is None
            # The bot stops reading at its first request (a timeout; the stream stays open).
            state = ab.new_game(ab.make_config(2, "amigo"), random.Random(1))
            obs = ab.observe(state, state.deciding)
            reply = await seat.decide(
                Decision(1, obs, [], get_game("abluxxen").wire, 100, 0.1, 0.0)
            )
            assert reply.fault is not None
            assert reply.fault.kind is FaultKind.TIMEOUT
            over = bot_pb2.MatchOver(match_id="m", record_json="x" * (8 << 20))
            closing = asyncio.create_task(seat.close(over, 5.0))
            await asyncio.sleep(0.2)
            assert not closing.done()  # blocked writing MatchOver
            cancelled_at = time.monotonic()
            closing.cancel()
            with pytest.raises(asyncio.CancelledError):
                await closing
            waited = time.monotonic() - cancelled_at
            for _ in range(100):
                if bot.cancelled:
                    break
                await asyncio.sleep(0.01)
            return waited, bot, seat
        finally:
            await pool.close()
            await server.stop(None)

    waited, bot, seat = asyncio.run(scenario())
    assert waited < 0.5
    assert bot.cancelled == 1
    assert seat._call is not None
    assert seat._call.cancelled()
