"""Reads a Play stream so that a slow policy never answers a stale request: a
DecideRequest overtaken by a newer one is dropped unanswered."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable
from typing import TypeVar

from arena.v1 import bot_pb2

log = logging.getLogger("arena.sdk")

T = TypeVar("T")

Received = tuple[bot_pb2.ArenaMessage, float]
"""A message and when it was read (``time.perf_counter()``)."""


def _is_decide(msg: bot_pb2.ArenaMessage) -> bool:
    return msg.WhichOneof("kind") == "decide"


class Inbox:
    """The messages of one Play stream, newest decision first in line.

    The arena sends a new DecideRequest only after the previous one was answered or
    timed out (and settled by the fallback action). So when a newer request is already
    waiting, the older one is stale: answering it would only waste the policy's time and
    make the newer answer late too.

    Requests pile up only while the policy thinks in a worker thread, so only then does
    the inbox read ahead (``run``). Otherwise ``next`` reads the stream directly in the
    caller's task: a background reader would cost every message a task switch, more than
    a quick policy's whole decision.
    """

    def __init__(self, source: AsyncIterator[bot_pb2.ArenaMessage]) -> None:
        self._source = source
        self._queue: deque[Received] = deque()
        """Messages read ahead, oldest first."""
        self._reading: asyncio.Task[Received | None] | None = None
        """A read started by ``run`` that may still be waiting for a message."""
        self._ended = False
        self.skipped = 0
        """Stale decision requests dropped so far."""
        self.received = 0.0
        """When the message ``next`` returned last was read (``time.perf_counter()``):
        a request read ahead waited in the queue, and its time counts."""

    async def _read(self) -> Received | None:
        """The stream's next message and when it came; None once it ended (half-closed,
        broken or cancelled: either way there are no more messages)."""
        try:
            msg = await anext(self._source)
        except StopAsyncIteration:
            return None
        except Exception as error:
            log.debug("Play stream read failed: %r", error)
            return None
        return msg, time.perf_counter()

    def _collect(self) -> None:
        """Queue the message of a finished read-ahead."""
        if self._reading is not None and self._reading.done():
            got = self._reading.result()
            self._reading = None
            if got is None:
                self._ended = True
            else:
                self._queue.append(got)

    async def next(self) -> bot_pb2.ArenaMessage | None:
        """The next message to handle, or None once the arena half-closed the stream."""
        while True:
            self._collect()
            got: Received | None
            if self._queue:
                got = self._queue.popleft()
            elif self._ended:
                return None
            elif self._reading is not None:
                got = await self._reading
                self._reading = None
            else:
                got = await self._read()
            if got is None:
                self._ended = True
                return None
            msg, self.received = got
            if _is_decide(msg) and any(_is_decide(m) for m, _ in self._queue):
                self.skipped += 1
                # Worth a warning: the policy is slower than the arena's deadline.
                log.warning(
                    "skipped request %d: the arena sent a newer one while the policy was "
                    "still thinking (it timed out)",
                    msg.decide.request_id,
                )
                continue
            return msg

    async def run(self, work: Awaitable[T]) -> T:
        """Await ``work`` (a decision in a worker thread) while reading ahead, so that the
        requests that arrive meanwhile are seen by ``next`` before it answers one."""
        task = asyncio.ensure_future(work)
        while not self._ended:
            if self._reading is None:
                self._reading = asyncio.ensure_future(self._read())
            await asyncio.wait((task, self._reading), return_when=asyncio.FIRST_COMPLETED)
            self._collect()
            if task.done():
                break
        # A read still waiting is kept, not cancelled (that could lose its message):
        # ``next`` takes it over.
        return await task

    async def close(self) -> None:
        """Stop reading (the call is over)."""
        if self._reading is not None and not self._reading.done():
            self._reading.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reading
