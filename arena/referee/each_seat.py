"""Calling every seat of a match at once: opening the match, telling it the end.

A seat that may wait (a remote bot: connecting, writing MatchOver) is called
concurrently with the others, so the match waits for the slowest, not the sum. A task
per seat costs more than the call itself when the call does not wait (two turns of the
event loop and the task's own bookkeeping, twice a match: most of the referee's own work
in a two-decision kuhn_poker match, docs/BENCHMARKS.md), so a call gets a task only when
it has to:

- A seat that says it never waits (``at_once``: the in-process seats, whose ``open``
  and ``close`` return without awaiting anything) is called inline.
- Any other seat's call is started inline, in the match's own task. If it returns
  without suspending (a seat that did not need to wait this time), that is all. The
  first one that suspends goes on in the match's task (so ``asyncio.timeout`` and
  ``current_task`` inside it see the task that runs it, as they would in a task of its
  own), while the calls of the seats after it each get a task, started as the match's
  task waits: all of them run at once, as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Generator, Sequence
from typing import Any, Generic, TypeVar

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
    for index, seat in enumerate(seats):
        if at_once(seat):
            results[index] = await call(index, seat)
            continue
        coroutine = call(index, seat)
        try:
            first = coroutine.send(None)
        except StopIteration as done:  # it did not wait
            results[index] = done.value
            continue
        except BaseException:
            coroutine.close()
            raise
        # It waits: the seats after it may have to wait too, concurrently with it.
        later = range(index + 1, len(seats))
        await _concurrently(results, _Resumed(coroutine, first), index, seats, later, call)
        break
    return results


async def _concurrently(
    results: list[Any],
    waiting: _Resumed[Any],
    index: int,
    seats: Sequence[Seat],
    later: range,
    call: Callable[[int, Seat], Coroutine[Any, Any, Any]],
) -> None:
    """Finish ``waiting`` (seat ``index``'s call) in this task while the calls of the
    seats in ``later`` run as tasks (inline for a seat that says it never waits)."""
    loop = asyncio.get_running_loop()
    tasks: list[tuple[int, asyncio.Task[Any]]] = []
    try:
        for n in later:
            if at_once(seats[n]):
                results[n] = await call(n, seats[n])
            else:
                tasks.append((n, loop.create_task(call(n, seats[n]))))
        results[index] = await waiting
        # Tasks awaited in turn rather than asyncio.gather (whose future and callbacks
        # cost as much again): all run at once all the same.
        for n, task in tasks:
            results[n] = await task
    except BaseException:
        waiting.close()
        for _, task in tasks:  # as gather does when its caller is cancelled
            task.cancel()
        raise


class _Resumed(Generic[T]):
    """A coroutine whose first step has run (and yielded ``first``), to be awaited for
    the rest: ``yield from`` with the first step already taken. What the awaiting task
    sends or throws in (a cancellation) goes on to the coroutine, as it would had the
    task awaited the coroutine itself."""

    def __init__(self, coroutine: Coroutine[Any, Any, T], first: Any) -> None:
        self._coroutine = coroutine
        self._first = first

    def __await__(self) -> Generator[Any, Any, T]:
        coroutine = self._coroutine
        step = self._first
        while True:
            try:
                try:
                    sent = yield step
                except GeneratorExit:
                    coroutine.close()
                    raise
                except BaseException as error:
                    step = coroutine.throw(error)
                else:
                    step = coroutine.send(sent)
            except StopIteration as done:
                result: T = done.value
                return result

    def close(self) -> None:
        """End the coroutine if it has not ended (a no-op if it has)."""
        self._coroutine.close()
