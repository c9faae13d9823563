"""A bot is charged only for time it had: the deadline logic of RemoteSeat against
scripted bots on a virtual clock, with the arena's loop stalled on purpose (``stall``:
what many busy matches do to the referee's loop). No wall clock, no sleeping."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchOutcome, MatchSpec, RemoteSeat, Seat, run_match
from arena.referee.clock import TICK_S, LoopLag, Timer
from arena.referee.ending import streams_ended
from arena.referee.runqueue import RunQueueWaits
from arena.referee.seats import LAG_ALLOWANCE_S
from arena.v1 import bot_pb2

from .scripted import ScriptedChannel, ScriptedContext, run_virtual, stall

DEADLINE_MS = 30


def lagging_bot(*, stall_s: float, think_s: float, on: int = 1) -> ScriptedChannel:
    """A bot over the scripted transport whose decision number ``on`` (from 1) is
    received while the arena's loop stalls for ``stall_s``; it answers every decision
    (legal_index 0) ``think_s`` after receiving it."""

    async def play(
        requests: AsyncIterator[bot_pb2.ArenaMessage], context: ScriptedContext
    ) -> AsyncIterator[bytes]:
        decided = 0
        async for message in requests:
            if not message.HasField("decide"):
                continue
            decided += 1
            if decided == on:
                stall(stall_s)
            await asyncio.sleep(think_s)
            yield bot_pb2.BotMessage(
                request_id=message.decide.request_id, legal_index=0
            ).SerializeToString()

    return ScriptedChannel(play)


def play(
    channel: ScriptedChannel,
    *,
    waits: RunQueueWaits | None = None,
    clock_type: type[LoopLag] = LoopLag,
    **spec: int,
) -> MatchOutcome:
    """A 2-player match of the scripted bot against a random policy; ``waits``: the
    run-queue waits the arena's clock sees (None: none, as on every virtual loop)."""

    async def scenario() -> MatchOutcome:
        clock = clock_type(asyncio.get_running_loop(), waits=waits)
        seats: list[Seat] = [
            RemoteSeat("bot", channel, max_reply_bytes=4096, clock=clock),
            LocalSeat("r1", RandomPolicy(1)),
        ]
        outcome = await run_match(
            MatchSpec(
                match_id="m",
                config=ab.make_config(2, "amigo"),
                seed=3,
                deadline_ms=spec.get("deadline_ms", DEADLINE_MS),
                time_bank_ms=spec.get("time_bank_ms", 0),
                max_strikes=0,
            ),
            seats,
        )
        await streams_ended()
        return outcome

    return run_virtual(scenario())


def first_decision(outcome: MatchOutcome) -> dict[str, object]:
    return next(line for line in outcome.record if line["type"] == "decision" and line["seat"] == 0)


def test_a_reply_that_arrived_while_the_arena_lagged_is_taken() -> None:
    # The bot answers in 1 ms; the arena's loop is stalled 60 ms meanwhile, so the
    # deadline's timer and the reply are due together when it runs again.
    outcome = play(lagging_bot(stall_s=0.060, think_s=0.001))
    line = first_decision(outcome)
    assert outcome.seats[0].faults == []
    assert outcome.seats[0].arena_lags == 0
    # Charged: the bot's millisecond, and at most one tick of the lag the watch cannot
    # see (the stall began between two ticks).
    assert line["ms"] <= 1 + TICK_S * 1000  # type: ignore[operator]
    assert line["lag_ms"] >= 60 - TICK_S * 1000  # type: ignore[operator]


def test_a_slow_bot_is_cut_after_its_own_time_not_the_arenas() -> None:
    # The bot needs 100 ms against a 30 ms deadline: a TIMEOUT, charged 30 ms of its own
    # time although 60 ms more passed while the arena lagged.
    outcome = play(lagging_bot(stall_s=0.060, think_s=0.100))
    line = first_decision(outcome)
    assert line["fault"]["kind"] == "TIMEOUT"  # type: ignore[index]
    assert line["ms"] == pytest.approx(DEADLINE_MS)
    assert line["lag_ms"] >= 60 - TICK_S * 1000  # type: ignore[operator]


def test_the_bank_is_charged_only_the_bots_own_time() -> None:
    # 40 ms of its own time against a 30 ms deadline: 10 ms out of the bank, not 70.
    outcome = play(lagging_bot(stall_s=0.060, think_s=0.040), time_bank_ms=500)
    line = first_decision(outcome)
    assert "fault" not in line
    assert line["ms"] <= 40 + TICK_S * 1000  # type: ignore[operator]


def test_a_decision_the_arena_could_not_give_its_time_is_the_arenas_not_a_strike() -> None:
    # The loop stalls longer than any decision may wait: the bot never had its 30 ms,
    # so the fallback is played without a strike and the record says why.
    stalled = LAG_ALLOWANCE_S + 1.0
    outcome = play(lagging_bot(stall_s=stalled, think_s=0.001))
    line = first_decision(outcome)
    assert "fault" not in line
    assert line["fallback"] == "arena_lag"
    assert line["lag_ms"] >= stalled * 1000 - TICK_S * 1000  # type: ignore[operator]
    assert outcome.seats[0].faults == []
    assert outcome.seats[0].arena_lags == 1
    assert not outcome.seats[0].forfeited


LAG_SEEN_LATE_S = 0.005


class LagSeenLate(LoopLag):
    """The arena's clock, on which LAG_SEEN_LATE_S of every span shows up as lag only
    once a deadline's timer has fired: as on a real loop, where the kernel's run-queue
    waits come with the watch's next tick, and a stall is counted once its tick runs."""

    def __init__(self, loop: asyncio.AbstractEventLoop, waits: RunQueueWaits | None) -> None:
        super().__init__(loop, waits=waits)
        self.fired = False

    def call_at(self, when: float, callback: Callable[[], object]) -> Timer:
        def fire() -> None:
            callback()
            self.fired = True

        return super().call_at(when, fire)

    def lag(self, since: float, until: float) -> float:
        return super().lag(since, until) + (LAG_SEEN_LATE_S if self.fired else 0.0)


def test_lag_seen_after_the_deadline_fired_moves_it_on_too() -> None:
    # The timer finds the bot's 30 ms up; a few loop turns later the same span holds
    # 5 ms more of the arena's lag: the bot has had 25 ms, so the decision waits 5 ms
    # more (not cut as the arena's lag, which only the last call may do), and the bot,
    # 10 ms over its own deadline, times out with its whole 30 ms charged.
    outcome = play(lagging_bot(stall_s=0.0, think_s=0.040), clock_type=LagSeenLate)
    line = first_decision(outcome)
    assert line["fault"]["kind"] == "TIMEOUT"  # type: ignore[index]
    assert line["ms"] == pytest.approx(DEADLINE_MS)
    assert "fallback" not in line
    assert outcome.seats[0].arena_lags == 0


def test_without_lag_nothing_is_moved() -> None:
    outcome = play(lagging_bot(stall_s=0.0, think_s=0.031))
    timeouts = [line for line in outcome.record if line.get("fault", {}).get("kind") == "TIMEOUT"]
    assert timeouts
    assert all(line["ms"] == pytest.approx(DEADLINE_MS) for line in timeouts)
    assert all("lag_ms" not in line for line in outcome.record)


def test_the_deadline_counts_from_when_the_request_has_left() -> None:
    # Writing the first request holds the arena's loop for 60 ms (the write completes
    # late): the bot's 30 ms start once it has.
    channel = lagging_bot(stall_s=0.0, think_s=0.001)
    writes = 0

    def on_write(data: bytes) -> None:
        nonlocal writes
        writes += 1
        if writes == 2:  # MatchStart, then the first request
            stall(0.060)

    channel.on_write = on_write
    outcome = play(channel)
    line = first_decision(outcome)
    assert outcome.seats[0].faults == []
    assert line["ms"] <= 1 + TICK_S * 1000  # type: ignore[operator]


def test_a_write_the_arena_completes_late_is_not_the_bots_time() -> None:
    # Each write takes 60 ms to complete (the arena's process is busy; the loop is
    # not stalled, so no lag is seen): the bot's 30 ms start when it has.
    channel = lagging_bot(stall_s=0.0, think_s=0.001)
    channel.write_delay_s = 0.060
    outcome = play(channel)
    assert outcome.seats[0].faults == []
    assert all(line["ms"] <= 1 for line in outcome.record if line.get("seat") == 0)


def test_a_write_stuck_past_the_last_call_is_a_timeout() -> None:
    # A bot that takes no message (flow control holds the write) times out, once the
    # write has been stuck for the deadline and the lag allowance.
    channel = lagging_bot(stall_s=0.0, think_s=0.001)
    channel.write_delay_s = DEADLINE_MS / 1000 + LAG_ALLOWANCE_S + 1.0
    outcome = play(channel)
    line = first_decision(outcome)
    assert line["fault"]["kind"] == "TIMEOUT"  # type: ignore[index]
    assert "the bot stopped reading its stream" in line["fault"]["detail"]  # type: ignore[index]
    assert line["ms"] == pytest.approx(DEADLINE_MS + LAG_ALLOWANCE_S * 1000)


def test_a_loop_that_is_only_busy_is_not_lagging() -> None:
    # The loop turns every millisecond (a neighbour holds it 1 ms at a time): its
    # ordinary pace, not a stall. A bot 10 ms over its deadline is a TIMEOUT, not let
    # off by the loop's busyness.
    async def scenario() -> MatchOutcome:
        done = asyncio.Event()

        async def busy() -> None:
            while not done.is_set():
                stall(0.001)
                await asyncio.sleep(0)

        neighbour = asyncio.create_task(busy())
        seats: list[Seat] = [
            RemoteSeat("bot", lagging_bot(stall_s=0.0, think_s=0.040), max_reply_bytes=4096),
            LocalSeat("r1", RandomPolicy(1)),
        ]
        outcome = await run_match(
            MatchSpec(match_id="m", config=ab.make_config(2, "amigo"), seed=3, deadline_ms=30),
            seats,
        )
        done.set()
        await neighbour
        await streams_ended()
        return outcome

    outcome = run_virtual(scenario())
    line = first_decision(outcome)
    assert line["fault"]["kind"] == "TIMEOUT"  # type: ignore[index]
    # Cut at the deadline (plus the few loop turns given to the reader), before the
    # bot's late answer: the busy loop was not counted as lag.
    assert DEADLINE_MS <= line["ms"] < 40  # type: ignore[operator]
    assert "lag_ms" not in line


class HalfTheTimeWaiting:
    """Run-queue waits as the kernel would report them for an arena whose threads wait
    for a CPU half of the time (``loop`` or ``io`` threads): a machine with more
    runnable threads than cores."""

    def __init__(self, threads: str) -> None:
        self.threads = threads
        self.start: float | None = None

    def read(self, now: float) -> tuple[float, float]:
        if self.start is None:
            self.start = now
        waited = (now - self.start) / 2
        return (waited, 0.0) if self.threads == "loop" else (0.0, waited)


@pytest.mark.parametrize("threads", ["loop", "io"])
def test_time_the_arenas_threads_waited_for_a_cpu_is_not_the_bots(threads: str) -> None:
    # 40 ms of wall time against a 30 ms deadline, but the arena's threads (its loop's,
    # or gRPC's that hand the reply on) waited for a CPU half of it: the bot had 20 ms.
    line = first_decision(play(lagging_bot(stall_s=0.0, think_s=0.040)))
    assert line["fault"]["kind"] == "TIMEOUT"  # type: ignore[index]
    outcome = play(lagging_bot(stall_s=0.0, think_s=0.040), waits=HalfTheTimeWaiting(threads))
    line = first_decision(outcome)
    assert "fault" not in line
    assert outcome.seats[0].faults == []
    # Charged the bot's own half, give or take the tick between two samples.
    assert 20 - TICK_S * 1000 <= line["ms"] <= 20 + TICK_S * 1000  # type: ignore[operator]
