"""In-process decisions take turns with the loop's I/O (``turns.py``): each turn of the
loop starts at most a budget of them, none is starved, and a reply's hops through the
loop wait a bounded amount of in-process work however many in-process matches run.
Time is a counter the in-process work advances: no wall clock."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchSpec, Seat, run_match
from arena.referee.turns import _TURNS, LoopTurns


class WorkClock:
    """Time that passes only when in-process work runs."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class TurnCounter:
    """Counts the loop's turns: a callback that schedules itself once per turn."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.turn = 0
        self._loop = loop
        self._stopped = False
        loop.call_soon(self._tick)

    def _tick(self) -> None:
        self.turn += 1
        if not self._stopped:
            self._loop.call_soon(self._tick)

    def stop(self) -> None:
        self._stopped = True


async def hops(n: int) -> None:
    """A reply's way through the loop: ``n`` turns, each waiting on a future another
    turn completes (gRPC's poller, the call's future, the reader, the mailbox)."""
    loop = asyncio.get_running_loop()
    for _ in range(n):
        done: asyncio.Future[None] = loop.create_future()
        loop.call_soon(done.set_result, None)
        await done


def lanes_of_work(
    turns: LoopTurns,
    clock: WorkClock,
    lanes: int,
    step_s: float,
    log: list[tuple[int, int]],
    counter: TurnCounter,
    stop: asyncio.Event,
) -> list[asyncio.Task[None]]:
    """``lanes`` tasks that each take turns for steps of ``step_s`` of work."""

    async def lane(index: int) -> None:
        while not stop.is_set():
            await turns.turn()
            log.append((counter.turn, index))
            clock.now += step_s

    return [asyncio.create_task(lane(index)) for index in range(lanes)]


def eight_lanes(step_s: float) -> list[tuple[int, int]]:
    """Eight lanes of ``step_s`` of work a step, taking turns of a 1 s budget until 400
    steps are logged: (turn, lane) per step."""

    async def scenario() -> list[tuple[int, int]]:
        loop = asyncio.get_running_loop()
        clock = WorkClock()
        turns = LoopTurns(loop, budget_s=1.0, clock=clock)
        counter = TurnCounter(loop)
        stop = asyncio.Event()
        log: list[tuple[int, int]] = []
        tasks = lanes_of_work(turns, clock, 8, step_s, log, counter, stop)
        while len(log) < 400:
            await asyncio.sleep(0)
        stop.set()
        await asyncio.gather(*tasks)
        counter.stop()
        return log

    return asyncio.run(scenario())


@pytest.mark.parametrize(("step_s", "per_turn"), [(0.4, 3), (0.25, 4), (3.0, 1)])
def test_a_turn_starts_in_process_work_only_within_its_budget(step_s: float, per_turn: int) -> None:
    log = eight_lanes(step_s)
    steps_per_turn = Counter(turn for turn, _ in log)
    assert max(steps_per_turn.values()) == per_turn  # full turns use the budget, no more
    # Round robin: nobody is starved, whatever the budget cuts off (a lane that gets a
    # turn goes on within it: a turn's worth apart at most).
    steps_per_lane = Counter(lane for _, lane in log[:400])
    assert max(steps_per_lane.values()) - min(steps_per_lane.values()) <= per_turn


def test_a_decision_started_in_a_turn_goes_on_within_it() -> None:
    """The lane that got a turn takes its next steps at once while the budget lasts: a
    turn runs one match's decisions one after the other (its state still in the CPU's
    caches), not one decision of each of many matches."""

    log = eight_lanes(0.25)[:400]  # (after that the lanes stop, mid-turn)
    lanes_per_turn: dict[int, set[int]] = {}
    for turn, lane in log:
        lanes_per_turn.setdefault(turn, set()).add(lane)
    assert all(len(lanes) == 1 for lanes in lanes_per_turn.values())
    assert Counter(turn for turn, _ in log).most_common(1)[0][1] == 4


@pytest.mark.parametrize("lanes", [1, 8, 64])
def test_a_reply_waits_a_bounded_amount_of_in_process_work(lanes: int) -> None:
    """Four hops (a gRPC reply's way to its seat) wait at most about four budgets of
    in-process work, not four turns of every in-process match."""
    step_s, budget_s = 0.0005, 0.001

    async def scenario() -> float:
        loop = asyncio.get_running_loop()
        clock = WorkClock()
        turns = LoopTurns(loop, budget_s=budget_s, clock=clock)
        counter = TurnCounter(loop)
        stop = asyncio.Event()
        tasks = lanes_of_work(turns, clock, lanes, step_s, [], counter, stop)
        for _ in range(10):
            await asyncio.sleep(0)  # the lanes are in full swing
        worst = 0.0
        for _ in range(20):
            sent = clock.now
            await hops(4)
            worst = max(worst, clock.now - sent)
        stop.set()
        await asyncio.gather(*tasks)
        counter.stop()
        return worst

    worst = asyncio.run(scenario())
    assert worst <= 5 * (budget_s + step_s)


def test_a_cancelled_decision_leaves_the_others_their_turns() -> None:
    async def scenario() -> int:
        loop = asyncio.get_running_loop()
        turns = LoopTurns(loop, budget_s=0.001, clock=WorkClock())
        waiting = [asyncio.create_task(turns.turn()) for _ in range(5)]
        await asyncio.sleep(0)  # all five wait for the release
        waiting[2].cancel()
        results = await asyncio.gather(*waiting, return_exceptions=True)
        return sum(result is None for result in results)

    assert asyncio.run(scenario()) == 4


class CountingPolicy:
    """A random policy that logs the loop turn of each decision and costs one unit of
    work clock."""

    def __init__(
        self, seed: int, counter: Callable[[], int], clock: WorkClock, log: list[int]
    ) -> None:
        self._policy = RandomPolicy(seed)
        self._counter = counter
        self._clock = clock
        self._log = log

    def choose(self, observation: Any) -> Any:
        self._log.append(self._counter())
        self._clock.now += 1.0
        return self._policy.choose(observation)


def test_in_process_matches_take_turns() -> None:
    """Eight matches of in-process seats on one loop: each turn of the loop runs at most
    the budget's worth of their decisions (here 3 units), and every match ends."""

    async def scenario() -> tuple[list[int], int]:
        loop = asyncio.get_running_loop()
        clock = WorkClock()
        _TURNS[loop] = LoopTurns(loop, budget_s=2.5, clock=clock)
        counter = TurnCounter(loop)
        log: list[int] = []

        def seats(match: int) -> list[Seat]:
            return [
                LocalSeat(
                    f"m{match}s{seat}",
                    CountingPolicy(match * 4 + seat, lambda: counter.turn, clock, log),
                )
                for seat in range(4)
            ]

        outcomes = await asyncio.gather(
            *(
                run_match(
                    MatchSpec(match_id=f"m{match}", config=ab.make_config(4, "amigo"), seed=match),
                    seats(match),
                )
                for match in range(8)
            )
        )
        counter.stop()
        return log, sum(outcome.decisions > 0 for outcome in outcomes)

    log, finished = asyncio.run(scenario())
    assert finished == 8
    assert max(Counter(log).values()) == 3


@pytest.mark.parametrize("lanes", [8, 1000])
def test_a_decision_is_woken_about_once_however_many_wait(lanes: int) -> None:
    """A release wakes about as many decisions as fit in a turn, not every one waiting:
    a decision woken only to wait again costs the loop as much as one played, and with
    a thousand waiting that was hundreds of wake-ups per decision played."""
    step_s, budget_s = 0.0004, 0.001

    async def scenario() -> tuple[int, int]:
        loop = asyncio.get_running_loop()
        clock = WorkClock()
        turns = LoopTurns(loop, budget_s=budget_s, clock=clock)
        woken = 0
        create_future = loop.create_future

        def counted() -> asyncio.Future[Any]:
            nonlocal woken
            woken += 1
            return create_future()

        loop.create_future = counted  # type: ignore[method-assign]
        counter = TurnCounter(loop)
        stop = asyncio.Event()
        log: list[tuple[int, int]] = []
        tasks = lanes_of_work(turns, clock, lanes, step_s, log, counter, stop)
        while len(log) < 3000:
            await asyncio.sleep(0)
        stop.set()
        await asyncio.gather(*tasks)
        counter.stop()
        return woken, len(log)

    woken, played = asyncio.run(scenario())
    assert woken / played < 2.0
