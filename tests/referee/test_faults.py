"""Every fault kind: the match completes, the fault is recorded with its kind, the
fallback is played, strikes lead to forfeits. Against a real gRPC server on loopback;
what depends on time (deadlines, the time bank, a hung bot) against the same bot over
a scripted transport on a virtual clock (``scripted.py``), so that every deadline is met
or missed exactly, whatever the machine's load."""

from __future__ import annotations

import asyncio
import random

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
from arena.referee.ending import streams_ended
from arena.referee.match import final_ranks
from arena.referee.seats import Decision
from arena.v1 import bot_pb2

from .faulty_bot import Behaviour, FaultyBot, start_faulty_bot
from .scripted import ScriptedChannel, now, run_virtual


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


def _spec(
    match_id: str = "m",
    *,
    players: int = 3,
    seed: int = 5,
    deadline_ms: int = 200,
    time_bank_ms: int = 0,
    max_strikes: int = 0,
) -> MatchSpec:
    return MatchSpec(
        match_id=match_id,
        config=ab.make_config(players, "amigo"),
        seed=seed,
        deadline_ms=deadline_ms,
        time_bank_ms=time_bank_ms,
        max_strikes=max_strikes,
        connect_timeout_s=1.0,
    )


def play_scripted(behaviour: Behaviour, **spec: int) -> tuple[MatchOutcome, float]:
    """One match of the faulty bot (seat 0, over the scripted transport) against two
    random policies, on a virtual clock; and how long it took on that clock."""

    async def scenario() -> tuple[MatchOutcome, float]:
        bot = FaultyBot(behaviour)
        seats: list[Seat] = [
            RemoteSeat("bot", ScriptedChannel(bot.play), max_reply_bytes=4096),
            LocalSeat("r1", RandomPolicy(1)),
            LocalSeat("r2", RandomPolicy(2)),
        ]
        started = now()
        outcome = await run_match(_spec("m", **spec), seats)
        took = now() - started
        await streams_ended()
        return outcome, took

    return run_virtual(scenario())


def _mine(outcome: MatchOutcome, seat: int = 0) -> list[dict[str, object]]:
    return [line for line in outcome.record if line["type"] == "decision" and line["seat"] == seat]


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
    # The bot answers each decision after its first one 500 ms late: on the virtual
    # clock each is cut exactly at the deadline (how late a real timer fires under load
    # is measured by scripts/bench/bench_referee.py and scripts/bench/bench_isolation.py).
    outcome, took = play_scripted(
        Behaviour("sleep", after=1, sleep_s=0.5), deadline_ms=100, max_strikes=3
    )
    _check_complete(outcome)
    timeouts = [line for line in outcome.record if line.get("fault", {}).get("kind") == "TIMEOUT"]
    assert len(timeouts) == 3
    assert [line["ms"] for line in timeouts] == [100.0, 100.0, 100.0]
    assert all("lag_ms" not in line for line in outcome.record)
    assert outcome.seats[0].forfeited
    assert outcome.seats[0].rank == 3  # forfeited seats rank last
    # The match waited for the three timeouts and for nothing else.
    assert took == pytest.approx(0.3)


def test_time_bank_absorbs_a_slow_answer() -> None:
    # Each answer after the first takes 150 ms against a 100 ms deadline: the overruns
    # (50 ms each) come out of the 200 ms bank, four of them; the fifth is a TIMEOUT.
    outcome, _ = play_scripted(
        Behaviour("sleep", after=1, sleep_s=0.15), deadline_ms=100, time_bank_ms=200
    )
    _check_complete(outcome)
    faults = outcome.seats[0].faults
    assert faults
    assert all(f.kind is FaultKind.TIMEOUT for f in faults)
    slow = _mine(outcome)
    assert [line["ms"] for line in slow[:5]] == [0.0, 150.0, 150.0, 150.0, 150.0]
    assert all("fault" not in line for line in slow[:5])
    assert slow[5]["ms"] == 100.0
    assert slow[5]["fault"]["kind"] == "TIMEOUT"  # type: ignore[index]


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
    outcome = play(Behaviour(mode, after=2, padding=2 << 20), max_strikes=3)
    _check_complete(outcome)
    seat = outcome.seats[0]
    assert seat.faults[0].kind is expected
    assert {f.kind for f in seat.faults[1:]} <= {FaultKind.DISCONNECTED}
    assert len(seat.faults) == 3
    assert seat.forfeited
    assert seat.rank == 3
    # Once broken, the stream is not waited for: the later faults take no time at all.
    faulted = [line for line in _mine(outcome) if "fault" in line]
    assert [line["ms"] for line in faulted[1:]] == [0.0, 0.0]
    if mode == "abort_exhausted":
        assert seat.faults[0].detail == "RESOURCE_EXHAUSTED: the bot is out of memory"
    elif mode == "abort_deadline":
        assert seat.faults[0].detail == "DEADLINE_EXCEEDED: the bot's own deadline"
    elif mode == "huge":
        assert "Received message larger than max (" in seat.faults[0].detail


def test_a_hanging_bot_cannot_stall_the_match() -> None:
    outcome, took = play_scripted(Behaviour("hang", after=0), deadline_ms=100, max_strikes=2)
    _check_complete(outcome)
    assert kinds(outcome) == {FaultKind.TIMEOUT}
    assert outcome.seats[0].forfeited
    # Two timeouts, then fallbacks without asking: the match does not wait any more.
    assert took == pytest.approx(0.2)


@pytest.mark.slow
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


@pytest.mark.slow
def test_many_matches_run_concurrently_and_a_hung_bot_does_not_slow_them() -> None:
    async def scenario() -> tuple[float, bool, list[MatchOutcome]]:
        good, hung = FaultyBot(Behaviour("ok")), FaultyBot(Behaviour("hang"))
        good_channel, hung_channel = ScriptedChannel(good.play), ScriptedChannel(hung.play)

        async def one(index: int) -> MatchOutcome:
            seats: list[Seat] = [
                RemoteSeat(
                    f"b{s}",
                    hung_channel if index == 0 and s == 0 else good_channel,
                    max_reply_bytes=4096,
                )
                for s in range(4)
            ]
            spec = _spec(f"m{index}", players=4, seed=index, deadline_ms=300)
            return await run_match(spec, seats)

        started = now()
        hung_task = asyncio.create_task(one(0))
        others = await asyncio.gather(*(one(i) for i in range(1, 16)))
        others_done = now() - started
        hung_done = hung_task.done()
        hung_task.cancel()
        await asyncio.gather(hung_task, return_exceptions=True)
        await streams_ended()
        return others_done, hung_done, others

    others_done, hung_done, others = run_virtual(scenario())
    assert all(not o.seats[0].faults for o in others)
    # The hung match needs 0.3 s per decision of its hung seat (about 40 of them); the
    # others never wait for it: they are over before its first deadline has passed.
    assert others_done < 0.3
    assert not hung_done


def test_a_stream_the_bot_ended_before_the_first_request_is_a_fault_not_a_crash() -> None:
    """Regression: writing to a call that already finished raised InvalidStateError."""

    async def scenario() -> list[FaultKind]:
        server, endpoint, _ = await start_faulty_bot(Behaviour("end_after_start"))
        pool = ChannelPool()
        try:
            seat = RemoteSeat("bot", pool.get(endpoint), max_reply_bytes=4096)
            state = ab.new_game(ab.make_config(2, "amigo"), random.Random(1))
            assert await seat.open(bot_pb2.MatchStart(match_id="m"), 2.0) is None
            assert seat._call is not None
            assert await seat._call.code() == grpc.StatusCode.OK  # the bot ended the call
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
