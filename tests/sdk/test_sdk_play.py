"""Play streams against a real bot server on loopback: answers, ids, concurrency, faults."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

import grpc
import pytest
from sdk_support import Table, async_stub, play_table, served, start_message

from arena.games import abluxxen as ab
from arena.games.abluxxen.greedy import GreedyPolicy
from arena.policies import MatchEnd, MatchInfo, Policy, RandomPolicy
from arena.referee.seats import _status_now
from arena.sdk.inbox import Inbox, Received
from arena.sdk.servicer import INLINE_LIMIT_S, QUICK_STREAK, _Pace
from arena.v1 import abluxxen_pb2, bot_pb2

READ_TIMEOUT_S = 10.0


async def read(call: Any) -> Any:
    """The next reply, without ever hanging the test."""
    return await asyncio.wait_for(call.read(), READ_TIMEOUT_S)


class Recorder(RandomPolicy):
    """Random play that records what the SDK tells it."""

    made: list[Recorder]

    def __init__(self) -> None:
        super().__init__(seed=1)
        self.chosen = 0
        self.starts: list[MatchInfo] = []
        self.overs: list[MatchEnd] = []
        self.threads: list[str] = []

    def choose(self, obs: ab.Observation) -> ab.Action:
        self.chosen += 1
        self.threads.append(threading.current_thread().name)
        action: ab.Action = super().choose(obs)
        return action

    def match_start(self, msg: MatchInfo) -> None:
        self.starts.append(msg)

    def match_over(self, msg: MatchEnd) -> None:
        self.overs.append(msg)


def recorder_factory() -> tuple[list[Recorder], Any]:
    made: list[Recorder] = []

    def factory() -> Recorder:
        made.append(Recorder())
        return made[-1]

    return made, factory


def test_decisions_get_legal_answers_with_matching_ids() -> None:
    async def main() -> None:
        async with served(RandomPolicy) as (channel, _):
            table = Table(seed=3, seat=1)
            call = async_stub(channel).Play()
            await call.write(start_message("m1", table.seat, table.config))
            for _ in range(5):
                assert table.advance()
                request = table.request()
                await call.write(request)
                reply = await read(call)
                assert reply.request_id == request.decide.request_id
                assert reply.WhichOneof("choice") == "legal_index"
                table.apply_reply(request, reply)  # the engine rejects illegal actions
            # Half-closing without MatchOver still ends the call cleanly.
            await call.done_writing()
            assert await read(call) is grpc.aio.EOF
            assert await call.code() == grpc.StatusCode.OK

    asyncio.run(main())


def test_whole_game_with_fresh_policy_and_hooks_per_match() -> None:
    made, factory = recorder_factory()

    async def main() -> list[int]:
        async with served(factory) as (channel, _):
            stub = async_stub(channel)
            return [await play_table(stub, Table(seed=s, seat=s % 4), f"m{s}") for s in range(2)]

    decisions = asyncio.run(main())
    assert len(made) == 2  # one policy per stream
    for policy, count, match_id in zip(made, decisions, ("m0", "m1"), strict=True):
        assert count > 0
        assert policy.chosen == count
        assert [m.match_id for m in policy.starts] == [match_id]
        assert [m.match_id for m in policy.overs] == [match_id]
        # A quick policy starts in a worker thread and moves onto the event loop.
        loop_thread = threading.main_thread().name
        assert all(name != loop_thread for name in policy.threads[:QUICK_STREAK])
        assert policy.threads[-1] == loop_thread


class SlowAtSeatZero(RandomPolicy):
    """Holds every decision at seat 0 until the test releases it (a policy that thinks
    for as long as it takes), so one factory serves a slow and a fast match."""

    entered = threading.Event()
    release = threading.Event()

    def choose(self, obs: ab.Observation) -> ab.Action:
        if obs.seat == 0:
            self.entered.set()
            assert self.release.wait(READ_TIMEOUT_S)
        action: ab.Action = super().choose(obs)
        return action


def test_a_slow_stream_does_not_block_another() -> None:
    SlowAtSeatZero.entered.clear()
    SlowAtSeatZero.release.clear()

    async def main() -> None:
        async with served(SlowAtSeatZero) as (channel, _):
            stub = async_stub(channel)
            slow_table = Table(seed=5, seat=0)
            slow = stub.Play()
            await slow.write(start_message("slow", 0, slow_table.config))
            assert slow_table.advance()
            request = slow_table.request()
            await slow.write(request)
            pending = asyncio.ensure_future(read(slow))
            assert await asyncio.to_thread(SlowAtSeatZero.entered.wait, READ_TIMEOUT_S)
            # A whole match at another table while the slow decision is held.
            decisions = await asyncio.wait_for(
                play_table(stub, Table(seed=6, seat=1), "fast"), READ_TIMEOUT_S
            )
            assert decisions > 0
            assert not pending.done(), "the slow decision finished first"
            SlowAtSeatZero.release.set()
            reply = await pending
            assert reply.request_id == request.decide.request_id
            slow.cancel()

    try:
        asyncio.run(main())
    finally:
        SlowAtSeatZero.release.set()


def test_many_concurrent_streams() -> None:
    async def main() -> list[int]:
        async with served(GreedyPolicy) as (channel, _):
            stub = async_stub(channel)
            games = (play_table(stub, Table(seed=s, seat=s % 4), f"m{s}") for s in range(24))
            return list(await asyncio.gather(*games))

    assert all(n > 0 for n in asyncio.run(main()))


class Gated(RandomPolicy):
    """Holds its first decision until the test releases it."""

    entered = threading.Event()
    release = threading.Event()

    def choose(self, obs: ab.Observation) -> ab.Action:
        if not self.entered.is_set():
            self.entered.set()
            assert self.release.wait(READ_TIMEOUT_S)
        action: ab.Action = super().choose(obs)
        return action


def test_a_request_overtaken_by_a_newer_one_is_not_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The arena sends a new request only after the old one timed out; answering the
    # old one would make the new answer late too.
    Gated.entered.clear()
    Gated.release.clear()
    read_three = asyncio.Event()
    read_ahead = Inbox._read

    async def watched(inbox: Inbox) -> Received | None:
        received = await read_ahead(inbox)
        if received is not None and received[0].decide.request_id == 3:
            read_three.set()
        return received

    monkeypatch.setattr(Inbox, "_read", watched)

    async def main() -> list[int]:
        async with served(Gated) as (channel, _):
            table = Table(seed=2, seat=0)
            call = async_stub(channel).Play()
            await call.write(start_message("m", 0, table.config))
            assert table.advance()
            await call.write(table.request())  # id 1: the policy holds on it
            assert await asyncio.to_thread(Gated.entered.wait, READ_TIMEOUT_S)
            await call.write(table.request())  # id 2: stale once id 3 arrives
            await call.write(table.request())  # id 3
            # Both reach the bot's inbox while the policy holds on to id 1.
            await asyncio.wait_for(read_three.wait(), READ_TIMEOUT_S)
            Gated.release.set()
            ids = [(await read(call)).request_id for _ in range(2)]
            await call.done_writing()
            assert await read(call) is grpc.aio.EOF
            return ids

    assert asyncio.run(main()) == [1, 3]


class Offbeat:
    """Always PASS: usually not in the legal list."""

    def choose(self, obs: ab.Observation) -> ab.Action:
        return ab.PASS


def test_an_action_outside_the_legal_list_is_spelled_out() -> None:
    async def main() -> bot_pb2.BotMessage:
        async with served(Offbeat) as (channel, _):
            table = Table(seed=4, seat=0)
            call = async_stub(channel).Play()
            await call.write(start_message("m", 0, table.config))
            assert table.advance()
            await call.write(table.request())
            reply: bot_pb2.BotMessage = await read(call)
            call.cancel()
            return reply

    reply = asyncio.run(main())
    assert reply.WhichOneof("choice") == "abluxxen"
    assert reply.abluxxen.type == abluxxen_pb2.ABLUXXEN_ACTION_TYPE_PASS
    assert reply.abluxxen.code == ab.PASS.code


class Broken:
    def choose(self, obs: ab.Observation) -> ab.Action:
        raise RuntimeError("the policy has a bug")


async def first_decision_status(
    factory: Any, messages: list[bot_pb2.ArenaMessage]
) -> tuple[grpc.StatusCode, str]:
    """Send ``messages`` (then half-close) and return the status the bot ended the call
    with. The bot may end it before every message is written: a write on the ended call
    fails, and grpc then replaces the call's status with a local INTERNAL one, so the
    status is kept as the call finishes (as the referee's seats keep it)."""
    async with served(factory) as (channel, _):
        call = async_stub(channel).Play()
        ended: list[tuple[grpc.StatusCode, str] | None] = []
        call.add_done_callback(lambda done: ended.append(_status_now(done)))
        try:
            for msg in messages:
                await call.write(msg)
            await call.done_writing()
        except (grpc.aio.AioRpcError, asyncio.InvalidStateError):
            pass  # the bot has ended the call
        with contextlib.suppress(grpc.aio.AioRpcError):  # read raises on a failed call
            while await read(call) is not grpc.aio.EOF:
                pass
        await call.code()
        assert ended, "the call's done callback ran"
        status = ended[0]
        assert status is not None
        return status


def start_and_decide() -> list[bot_pb2.ArenaMessage]:
    table = Table(seed=8, seat=0)
    assert table.advance()
    return [start_message("m", 0, table.config), table.request()]


def test_a_failing_policy_aborts_the_call_with_internal() -> None:
    code, details = asyncio.run(first_decision_status(Broken, start_and_decide()))
    assert code == grpc.StatusCode.INTERNAL
    assert "RuntimeError: the policy has a bug" in details


def test_a_failing_factory_aborts_the_call_with_internal() -> None:
    def factory() -> Policy:
        raise ValueError("no model file")

    code, details = asyncio.run(first_decision_status(factory, start_and_decide()))
    assert code == grpc.StatusCode.INTERNAL
    assert "no model file" in details


def test_a_decision_before_match_start_fails_precondition() -> None:
    code, details = asyncio.run(first_decision_status(RandomPolicy, start_and_decide()[1:]))
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    assert "MatchStart" in details


def unreadable(flaw: str) -> bot_pb2.DecideRequest:
    decide = bot_pb2.DecideRequest()
    decide.CopyFrom(start_and_decide()[1].decide)
    decide.request_id = 7
    if flaw == "no-game":
        decide.ClearField("abluxxen")
    elif flaw == "empty-legal-list":
        del decide.abluxxen.legal[:]
    elif flaw == "bad-rules":
        decide.abluxxen.observation.rules.tiebreak = "coin-toss"
    else:  # a legal action that names no action
        decide.abluxxen.legal[0].type = abluxxen_pb2.ABLUXXEN_ACTION_TYPE_PLAY
        decide.abluxxen.legal[0].value = 99
    return decide


@pytest.mark.parametrize("flaw", ["no-game", "empty-legal-list", "bad-rules", "bad-action"])
def test_an_unreadable_request_is_invalid_argument(flaw: str) -> None:
    messages = [start_and_decide()[0], bot_pb2.ArenaMessage(decide=unreadable(flaw))]
    code, details = asyncio.run(first_decision_status(RandomPolicy, messages))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert "request 7" in details


def test_match_over_without_decisions_ends_cleanly() -> None:
    made, factory = recorder_factory()
    table = Table(seed=1)
    over = bot_pb2.ArenaMessage(over=bot_pb2.MatchOver(match_id="m"))
    code, _ = asyncio.run(
        first_decision_status(factory, [start_message("m", 0, table.config), over])
    )
    assert code == grpc.StatusCode.OK
    assert len(made[0].overs) == 1


def test_pace_moves_quick_policies_inline_and_slow_ones_back_to_threads() -> None:
    pace = _Pace()
    assert not pace.inline  # a new match starts in the worker thread
    for _ in range(QUICK_STREAK):
        pace.observe(INLINE_LIMIT_S / 10)
    assert pace.inline
    pace.observe(INLINE_LIMIT_S * 5)  # one slow decision: back to the thread
    assert not pace.inline
    pinned = _Pace(threaded=True)
    for _ in range(10 * QUICK_STREAK):
        pinned.observe(0.0)
    assert not pinned.inline
