"""Calling every seat of a match at once: opening the match, telling it the end.

A seat that may wait (a remote bot: connecting, writing MatchOver) is called
concurrently with the others, so the match waits for the slowest, not the sum. One that
says it never waits (``at_once``: the in-process seats, whose ``open`` and ``close``
return without awaiting anything) is called inline. Tasks cost more than such a call: a
task per seat and two turns of the event loop per call, twice a match, were most of the
referee's own work in a two-decision kuhn_poker match (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar

from .seats import Seat

T = TypeVar("T")


def at_once(seat: Seat) -> bool:
    """Whether the seat says its ``open`` and ``close`` never wait (a class attribute)."""
    return bool(getattr(seat, "at_once", False))


async def each_seat(
    seats: Sequence[Seat], call: Callable[[int, Seat], Coroutine[Any, Any, T]]
) -> list[T]:
    """``call(index, seat)`` for every seat; the results by seat."""
    results: list[Any] = [None] * len(seats)
    waiting = []
    for index, seat in enumerate(seats):
        if at_once(seat):
            results[index] = await call(index, seat)
        else:
            waiting.append(index)
    if len(waiting) == 1:  # nothing to wait for concurrently
        results[waiting[0]] = await call(waiting[0], seats[waiting[0]])
    elif waiting:
        # Tasks awaited in turn rather than asyncio.gather (whose future and callbacks
        # cost as much again): all run at once all the same.
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(call(index, seats[index])) for index in waiting]
        try:
            for index, task in zip(waiting, tasks, strict=True):
                results[index] = await task
        except BaseException:
            for task in tasks:  # as gather does when its caller is cancelled
                task.cancel()
            raise
    return results
