"""Opening and closing a match's seats (``each_seat.py``): seats that may wait are
called concurrently (one waiting for another's call does not deadlock), and cancelled
with the match; in-process seats that say they never wait are called inline, in the
match's own task, and a match of them plays as before."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from arena.games import get
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchSpec, run_match
from arena.referee.each_seat import each_seat
from arena.v1 import bot_pb2


class _Rendezvous:
    """A remote-like seat whose ``open`` waits until every seat's ``open`` has begun:
    only concurrent calls get past it."""

    def __init__(self, name: str, arrived: list[str], everyone: asyncio.Event, count: int):
        self.name = name
        self._arrived = arrived
        self._everyone = everyone
        self._count = count

    async def open(self, start: Any, timeout_s: float) -> None:
        self._arrived.append(self.name)
        if len(self._arrived) == self._count:
            self._everyone.set()
        await self._everyone.wait()


def test_seats_that_may_wait_are_opened_concurrently() -> None:
    async def main() -> list[str]:
        arrived: list[str] = []
        everyone = asyncio.Event()
        seats: list[Any] = [_Rendezvous(f"s{n}", arrived, everyone, 3) for n in range(3)]
        async with asyncio.timeout(10):  # sequential calls would never return
            await each_seat(seats, lambda index, seat: seat.open(bot_pb2.MatchStart(), 1.0))
        return arrived

    assert asyncio.run(main()) == ["s0", "s1", "s2"]


def test_cancelling_the_caller_cancels_the_seats_calls() -> None:
    cancelled: list[str] = []

    class Hanging:
        def __init__(self, name: str) -> None:
            self.name = name

        async def open(self, start: Any, timeout_s: float) -> None:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.append(self.name)
                raise

    async def main() -> None:
        seats: list[Any] = [Hanging("a"), Hanging("b")]
        start = bot_pb2.MatchStart()
        opening = asyncio.ensure_future(each_seat(seats, lambda i, s: s.open(start, 1.0)))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        opening.cancel()
        with pytest.raises(asyncio.CancelledError):
            await opening

    asyncio.run(main())
    assert sorted(cancelled) == ["a", "b"]


class _Inline(LocalSeat):
    """A LocalSeat that notes the task its open and close ran in."""

    tasks: list[asyncio.Task[Any] | None]

    async def open(self, start: Any, timeout_s: float) -> None:
        self.tasks.append(asyncio.current_task())

    async def close(self, over: Any, timeout_s: float) -> None:
        self.tasks.append(asyncio.current_task())


def test_in_process_seats_are_opened_and_closed_in_the_match_task() -> None:
    game = get("abluxxen")
    tasks: list[asyncio.Task[Any] | None] = []

    async def main() -> tuple[asyncio.Task[Any] | None, int]:
        seats = []
        for n in range(3):
            seat = _Inline(f"p{n}", RandomPolicy(n))
            seat.tasks = tasks
            seats.append(seat)
        spec = MatchSpec("m/1", game.make_config(3), seed=2, game=game)
        outcome = await run_match(spec, seats)
        return asyncio.current_task(), outcome.decisions

    match_task, decisions = asyncio.run(main())
    assert decisions > 0
    assert tasks == [match_task] * 6  # three opens, three closes: no task of their own


def _open(index: int, seat: Any) -> Any:
    return seat.open(bot_pb2.MatchStart(), 1.0)


class _NeverWaits:
    """A remote-like seat (it says nothing about waiting) whose open returns at once."""

    def __init__(self, name: str, tasks: list[asyncio.Task[Any] | None]) -> None:
        self.name = name
        self._tasks = tasks

    async def open(self, start: Any, timeout_s: float) -> str:
        self._tasks.append(asyncio.current_task())
        return self.name


def test_a_call_that_does_not_wait_gets_no_task_of_its_own() -> None:
    async def main() -> tuple[list[Any], asyncio.Task[Any] | None, list[Any]]:
        tasks: list[asyncio.Task[Any] | None] = []
        seats: list[Any] = [_NeverWaits(f"s{n}", tasks) for n in range(3)]
        results = await each_seat(seats, _open)
        return results, asyncio.current_task(), tasks

    results, caller, tasks = asyncio.run(main())
    assert results == ["s0", "s1", "s2"]
    assert tasks == [caller] * 3


def test_seats_after_one_that_did_not_wait_still_run_concurrently() -> None:
    async def main() -> tuple[list[Any], list[str]]:
        arrived: list[str] = []
        everyone = asyncio.Event()
        seats: list[Any] = [_NeverWaits("first", [])]
        seats += [_Rendezvous(f"s{n}", arrived, everyone, 3) for n in range(3)]
        async with asyncio.timeout(10):  # sequential calls would never return
            results = await each_seat(seats, _open)
        return results, arrived

    results, arrived = asyncio.run(main())
    assert results == ["first", None, None, None]
    assert arrived == ["s0", "s1", "s2"]


def test_a_timeout_inside_a_seat_s_call_ends_that_call_alone() -> None:
    """The first seat that waits goes on in the caller's task: its own ``asyncio.timeout``
    must still cut only its call (not the caller's, nor the other seats')."""

    class TimesOut:
        name = "slow"

        async def open(self, start: Any, timeout_s: float) -> str:
            try:
                async with asyncio.timeout(0):
                    await asyncio.Event().wait()
            except TimeoutError:
                return "timed out"
            return "not cut"

    class Yields:
        name = "yields"

        async def open(self, start: Any, timeout_s: float) -> str:
            await asyncio.sleep(0)
            return "answered"

    async def main() -> list[Any]:
        seats: list[Any] = [_NeverWaits("first", []), TimesOut(), Yields(), TimesOut()]
        results = await each_seat(seats, _open)
        await asyncio.sleep(0)  # the caller is not cancelled afterwards either
        return results

    assert asyncio.run(main()) == ["first", "timed out", "answered", "timed out"]
