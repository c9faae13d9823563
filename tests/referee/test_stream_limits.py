"""What a bot's stream may not do to the arena, against real gRPC servers on loopback:
flood it with messages (the reader reads at most one per request plus a few), or turn
the cancellation of a match into a finished match while the seats close.

No wall-clock bounds: where the arena must not wait for a bot, the time it would wait
(the close's timeout) is made an hour, and the test waits at most GUARD_S (a guard
against hanging, far above what the test needs, far below the hour)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar

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
from arena.referee.seats import EXTRA_MESSAGES, Decision, Reply
from arena.v1 import bot_pb2

from .faulty_bot import Behaviour, FaultyBot, start_faulty_bot
from .test_faults import _check_complete

T = TypeVar("T")

HOUR_S = 3600.0
"""What the arena would wait for a bot to end its stream, where it must not wait."""
GUARD_S = 60.0
"""The longest a test waits for something that takes milliseconds."""


async def guarded(awaitable: Awaitable[T], what: str) -> T:
    """``awaitable``, or a failure once GUARD_S has passed (the arena waited)."""
    try:
        async with asyncio.timeout(GUARD_S):
            return await awaitable
    except TimeoutError:
        raise AssertionError(f"still waiting after {GUARD_S:g} s: {what}") from None


@dataclass
class Played:
    outcome: MatchOutcome
    seat: RemoteSeat
    bot: FaultyBot


def _spec(deadline_ms: int, max_strikes: int) -> MatchSpec:
    return MatchSpec(
        match_id="m",
        config=ab.make_config(3, "amigo"),
        seed=5,
        deadline_ms=deadline_ms,
        max_strikes=max_strikes,
        connect_timeout_s=1.0,
        close_timeout_s=HOUR_S,
    )


class TellingSeat(RemoteSeat):
    """A RemoteSeat that tells its bot (``FaultyBot.forfeited``) once its first decision
    is over: with max_strikes=1 and a faulty first reply, the seat is forfeited then
    (the match marks it before it awaits anything else)."""

    bot: FaultyBot

    async def decide(self, decision: Decision) -> Reply:
        reply = await super().decide(decision)
        self.bot.forfeited.set()
        return reply


def play(
    behaviour: Behaviour,
    *,
    deadline_ms: int = 500,
    max_strikes: int = 3,
    seat_type: type[RemoteSeat] = RemoteSeat,
) -> Played:
    """One match of the bot (seat 0) against two random policies; the pool is closed (so
    every stream has ended) before this returns. The bot has an hour to end its stream
    after MatchOver: closing the pool must not wait for that."""

    async def scenario() -> Played:
        server, endpoint, bot = await start_faulty_bot(behaviour)
        pool = ChannelPool()
        try:
            seat = seat_type("bot", pool.get(endpoint), max_reply_bytes=4096)
            if isinstance(seat, TellingSeat):
                seat.bot = bot
            seats: list[Seat] = [
                seat,
                LocalSeat("r1", RandomPolicy(1)),
                LocalSeat("r2", RandomPolicy(2)),
            ]
            outcome = await run_match(_spec(deadline_ms, max_strikes), seats)
            await guarded(pool.close(), "closing the pool waited for the bot's stream")
            return Played(outcome, seat, bot)
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


def test_a_bot_that_floods_after_its_seat_was_forfeited_is_cut_off_too() -> None:
    # The bot's first reply names nothing (forfeited at once, never asked again); once
    # the seat is forfeited it floods: nothing drains its queue, so only the bound stops
    # it. (The fault is one no clock decides: a reply late on the wall clock may still
    # be in time once the arena's lag is counted, and then the seat is asked again.)
    played = play(
        Behaviour("flood_forfeited", after=0),
        deadline_ms=60_000,
        max_strikes=1,
        seat_type=TellingSeat,
    )
    _check_complete(played.outcome)
    faults = played.outcome.seats[0].faults
    assert [f.kind for f in faults] == [FaultKind.MALFORMED]
    assert faults[0].detail.startswith("the reply chose nothing")
    assert played.outcome.seats[0].forfeited
    assert played.seat._sent == 1
    # Cut off by the reader's bound, not by waiting for the bot: closing the pool did
    # not wait out the hour the bot has to end its stream after MatchOver.
    _check_bounded(played.seat)


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
    """A RemoteSeat that says when it writes MatchOver (and whether the write is done),
    whose MatchOver is larger than any flow-control window (a record of a long match),
    so that writing it to a bot that does not read blocks until the close's timeout."""

    def __init__(self, name: str, channel: grpc.aio.Channel) -> None:
        super().__init__(name, channel, max_reply_bytes=4096)
        self.writing_over = asyncio.Event()
        self.wrote_over = False

    async def close(self, over: bot_pb2.MatchOver, timeout_s: float) -> None:
        over.record_json = "x" * (8 << 20)
        call = self._call
        if call is not None:
            write = call.write

            async def watched(message: bot_pb2.ArenaMessage) -> None:
                if message.HasField("over"):
                    self.writing_over.set()
                await write(message)
                if message.HasField("over"):
                    self.wrote_over = True

            call.write = watched
        await super().close(over, timeout_s)


async def turns(n: int = 20) -> None:
    """Let the loop turn ``n`` times."""
    for _ in range(n):
        await asyncio.sleep(0)


def test_cancelling_a_match_while_its_seats_close_cancels_it() -> None:
    # (run_match closes its seats under asyncio.gather, which re-raises its own
    # cancellation even when a child swallowed it; the seat-level tests below are the
    # ones that fail if RemoteSeat swallows the task's cancellation.)
    async def scenario() -> tuple[FaultyBot, ClosingSeat]:
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
            # MatchOver, which the bot never reads (the close may wait an hour).
            task = asyncio.create_task(run_match(_spec(100, 1), seats))
            await guarded(seat.writing_over.wait(), "MatchOver was never written")
            await turns()
            assert not seat.wrote_over  # blocked writing MatchOver
            assert not task.done()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                # At once, not after the close's hour.
                await guarded(task, "the cancelled match waited for the close's timeout")
            # The bot's side of the call ends soon after.
            await guarded(bot.until(lambda: bot.cancelled), "the bot's call was not cancelled")
            return bot, seat
        finally:
            await pool.close()
            await server.stop(None)

    bot, seat = asyncio.run(scenario())
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
            # What close leaves to the background: up to an hour for the bot to end it.
            waiting = asyncio.create_task(seat._await_end(seat._call, HOUR_S))
            await turns()
            assert not waiting.done()  # waiting for the bot, which never ends the call
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await guarded(waiting, "the cancelled wait went on")
            await guarded(bot.until(lambda: bot.ended), "the bot's call did not end")
            return seat._call.cancelled(), bot
        finally:
            await pool.close()
            await server.stop(None)

    call_cancelled, bot = asyncio.run(scenario())
    assert call_cancelled
    assert bot.ended == 1


def test_cancelling_a_seat_while_it_closes_propagates_and_cancels_the_call() -> None:
    async def scenario() -> tuple[FaultyBot, RemoteSeat]:
        server, endpoint, bot = await start_faulty_bot(Behaviour("no_read", after=0))
        pool = ChannelPool()
        try:
            seat = ClosingSeat("bot", pool.get(endpoint))
            assert await seat.open(bot_pb2.MatchStart(match_id="m"), 2.0) is None
            # The bot stops reading at its first request (a timeout; the stream stays open).
            state = ab.new_game(ab.make_config(2, "amigo"), random.Random(1))
            obs = ab.observe(state, state.deciding)
            reply = await seat.decide(
                Decision(1, obs, [], get_game("abluxxen").wire, 100, 0.1, 0.0)
            )
            assert reply.fault is not None
            assert reply.fault.kind is FaultKind.TIMEOUT
            closing = asyncio.create_task(seat.close(bot_pb2.MatchOver(match_id="m"), HOUR_S))
            await guarded(seat.writing_over.wait(), "MatchOver was never written")
            await turns()
            assert not seat.wrote_over  # blocked writing MatchOver
            assert not closing.done()
            closing.cancel()
            with pytest.raises(asyncio.CancelledError):
                await guarded(closing, "the cancelled close waited for its timeout")
            await guarded(bot.until(lambda: bot.cancelled), "the bot's call was not cancelled")
            return bot, seat
        finally:
            await pool.close()
            await server.stop(None)

    bot, seat = asyncio.run(scenario())
    assert bot.cancelled == 1
    assert seat._call is not None
    assert seat._call.cancelled()
