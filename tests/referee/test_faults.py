"""Every fault kind against a real gRPC server on loopback: the match completes, the
fault is recorded with its kind, the fallback is played, strikes lead to forfeits."""

from __future__ import annotations

import asyncio
import random
import time

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
from arena.referee.match import final_ranks
from arena.referee.seats import Decision
from arena.v1 import bot_pb2

from .faulty_bot import Behaviour, start_faulty_bot


async def _play(
    behaviour: Behaviour,
    *,
    deadline_ms: int = 200,
    max_strikes: int = 0,
    time_bank_ms: int = 0,
    seed: int = 5,
    endpoint: str | None = None,
) -> MatchOutcome:
    server = None
    if endpoint is None:
        server, endpoint, _ = await start_faulty_bot(behaviour)
    pool = ChannelPool()
    try:
        seats: list[Seat] = [
            RemoteSeat("bot", pool.get(endpoint), max_reply_bytes=4096),
            LocalSeat("r1", RandomPolicy(1)),
            LocalSeat("r2", RandomPolicy(2)),
        ]
        spec = MatchSpec(
            match_id="m",
            config=ab.make_config(3, "amigo"),
            seed=seed,
            deadline_ms=deadline_ms,
            time_bank_ms=time_bank_ms,
            max_strikes=max_strikes,
            connect_timeout_s=1.0,
        )
        return await run_match(spec, seats)
    finally:
        await pool.close()
        if server is not None:
            await server.stop(None)


def play(behaviour: Behaviour, **kwargs: object) -> MatchOutcome:
    return asyncio.run(_play(behaviour, **kwargs))  # type: ignore[arg-type]


def kinds(outcome: MatchOutcome, seat: int = 0) -> set[FaultKind]:
    return {f.kind for f in outcome.seats[seat].faults}


def _check_complete(outcome: MatchOutcome) -> None:
    """The match ended by the rules and its record replays to the same result."""
    assert outcome.result.end_reason in ("hand_empty", "supply_exhausted", "turn_cap")
    record = outcome.record[-1]["game_record"]
    assert ab.replay(ab.GameRecord.from_json(record)).result == outcome.result
    decisions = [line for line in outcome.record if line["type"] == "decision"]
    assert len(decisions) == outcome.decisions


def test_a_good_bot_has_no_faults() -> None:
    outcome = play(Behaviour("ok"))
    _check_complete(outcome)
    assert outcome.seats[0].faults == []
    assert outcome.seats[0].decisions > 10


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("garbage_none", FaultKind.MALFORMED),
        ("garbage_index", FaultKind.MALFORMED),
        ("garbage_action", FaultKind.MALFORMED),
        ("illegal", FaultKind.ILLEGAL),
        ("oversized", FaultKind.OVERSIZED),
        ("wrong_id", FaultKind.STALE),
    ],
)
def test_bad_replies_get_a_strike_each_and_the_fallback(mode: str, expected: FaultKind) -> None:
    outcome = play(Behaviour(mode, after=2))
    _check_complete(outcome)
    seat = outcome.seats[0]
    assert kinds(outcome) == {expected}
    # Every decision after the first two faulted; each one got the fallback.
    assert len(seat.faults) == seat.decisions - 2
    faulted = [line for line in outcome.record if "fault" in line]
    assert all(line["seat"] == 0 for line in faulted)
    assert not seat.forfeited  # max_strikes=0: never forfeited


def test_timeouts_are_cut_at_the_deadline() -> None:
    outcome = play(Behaviour("sleep", after=1, sleep_s=0.5), deadline_ms=100, max_strikes=3)
    _check_complete(outcome)
    timeouts = [line for line in outcome.record if line.get("fault", {}).get("kind") == "TIMEOUT"]
    assert len(timeouts) == 3
    for line in timeouts:
        # Cut by the arena's own timer (the benchmark measures the lateness; here only a
        # generous bound, so a loaded CI machine does not make the test flaky).
        assert 100 <= line["ms"] < 100 + 150
    assert outcome.seats[0].forfeited
    assert outcome.seats[0].rank == 3  # forfeited seats rank last


def test_time_bank_absorbs_a_slow_answer() -> None:
    outcome = play(Behaviour("sleep", after=1, sleep_s=0.15), deadline_ms=100, time_bank_ms=200)
    _check_complete(outcome)
    faults = outcome.seats[0].faults
    # The first slow answer fits in the bank; the bank is then mostly spent.
    assert faults
    assert all(f.kind is FaultKind.TIMEOUT for f in faults)
    slow = [line for line in outcome.record if line["type"] == "decision" and line["seat"] == 0]
    assert "fault" not in slow[1]
    assert slow[1]["ms"] >= 150


def test_late_answers_to_old_requests_are_dropped() -> None:
    outcome = play(Behaviour("late", after=1))
    _check_complete(outcome)
    assert outcome.seats[0].faults == []


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("close", FaultKind.DISCONNECTED),
        ("error", FaultKind.ERROR),
        ("huge", FaultKind.OVERSIZED),
        # Statuses the bot sends itself: only the arena's own receive cap is OVERSIZED,
        # and the arena sets no gRPC deadline.
        ("abort_exhausted", FaultKind.ERROR),
        ("abort_deadline", FaultKind.ERROR),
    ],
)
def test_a_broken_stream_stays_broken_and_the_seat_is_forfeited(
    mode: str, expected: FaultKind
) -> None:
    started = time.monotonic()
    outcome = play(Behaviour(mode, after=2, padding=2 << 20), max_strikes=3)
    _check_complete(outcome)
    seat = outcome.seats[0]
    assert seat.faults[0].kind is expected
    assert {f.kind for f in seat.faults[1:]} <= {FaultKind.DISCONNECTED}
    assert len(seat.faults) == 3
    assert seat.forfeited
    assert seat.rank == 3
    assert time.monotonic() - started < 10
    if mode == "abort_exhausted":
        assert seat.faults[0].detail == "RESOURCE_EXHAUSTED: the bot is out of memory"
    elif mode == "abort_deadline":
        assert seat.faults[0].detail == "DEADLINE_EXCEEDED: the bot's own deadline"
    elif mode == "huge":
        assert "Received message larger than max (" in seat.faults[0].detail


def test_a_hanging_bot_cannot_stall_the_match() -> None:
    started = time.monotonic()
    outcome = play(Behaviour("hang", after=0), deadline_ms=100, max_strikes=2)
    _check_complete(outcome)
    assert kinds(outcome) == {FaultKind.TIMEOUT}
    assert outcome.seats[0].forfeited
    # Two timeouts, then fallbacks without asking: the match does not wait any more.
    assert time.monotonic() - started < 5


def test_a_bot_that_is_not_there_is_disconnected_and_forfeited() -> None:
    outcome = play(Behaviour(), endpoint="127.0.0.1:9", max_strikes=2)
    _check_complete(outcome)
    assert kinds(outcome) == {FaultKind.DISCONNECTED}
    assert outcome.seats[0].forfeited


def test_final_ranks_put_forfeited_seats_last() -> None:
    assert final_ranks([1, 2, 3, 4], [False, False, False, False]) == [1, 2, 3, 4]
    assert final_ranks([1, 2, 3, 4], [True, False, False, False]) == [4, 1, 2, 3]
    assert final_ranks([1, 1, 3, 4], [False, False, True, True]) == [1, 1, 3, 3]
    assert final_ranks([2, 1, 2, 4], [False, True, False, False]) == [1, 4, 1, 3]


def test_many_matches_run_concurrently_and_a_hung_bot_does_not_slow_them() -> None:
    async def scenario() -> tuple[float, list[MatchOutcome]]:
        good_server, good, _ = await start_faulty_bot(Behaviour("ok"))
        hung_server, hung, _ = await start_faulty_bot(Behaviour("hang"))
        pool = ChannelPool()
        try:

            async def one(index: int) -> MatchOutcome:
                endpoint = hung if index == 0 else good
                seats: list[Seat] = [
                    RemoteSeat(
                        f"b{s}", pool.get(endpoint if s == 0 else good), max_reply_bytes=4096
                    )
                    for s in range(4)
                ]
                spec = MatchSpec(
                    match_id=f"m{index}",
                    config=ab.make_config(4, "amigo"),
                    seed=index,
                    deadline_ms=300,
                    max_strikes=0,
                )
                return await run_match(spec, seats)

            started = time.monotonic()
            hung_task = asyncio.create_task(one(0))
            others = await asyncio.gather(*(one(i) for i in range(1, 16)))
            others_done = time.monotonic() - started
            hung_task.cancel()
            return others_done, others
        finally:
            await pool.close()
            await good_server.stop(None)
            await hung_server.stop(None)

    others_done, others = asyncio.run(scenario())
    assert all(not o.seats[0].faults for o in others)
    # The hung match needs ~0.3 s per decision of its hung seat (about 40 of them);
    # the others finish long before it could.
    assert others_done < 8


def test_a_stream_the_bot_ended_before_the_first_request_is_a_fault_not_a_crash() -> None:
    """Regression: writing to a call that already finished raised InvalidStateError."""

    async def scenario() -> list[FaultKind]:
        server, endpoint, _ = await start_faulty_bot(Behaviour("end_after_start"))
        pool = ChannelPool()
        try:
            seat = RemoteSeat("bot", pool.get(endpoint), max_reply_bytes=4096)
            state = ab.new_game(ab.make_config(2, "amigo"), random.Random(1))
            assert await seat.open(bot_pb2.MatchStart(match_id="m"), 2.0) is None
            await asyncio.sleep(0.3)  # the bot ends the call meanwhile
            kinds = []
            for request_id in (1, 2):
                obs = ab.observe(state, state.deciding)
                reply = await seat.decide(
                    Decision(request_id, obs, [], get_game("abluxxen").wire, 500, 0.5, 0.0)
                )
                assert reply.fault is not None
                kinds.append(reply.fault.kind)
            await seat.close(bot_pb2.MatchOver(match_id="m"), 0.5)
            return kinds
        finally:
            await pool.close()
            await server.stop(None)

    assert asyncio.run(scenario()) == [FaultKind.DISCONNECTED, FaultKind.DISCONNECTED]
