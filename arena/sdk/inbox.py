"""Reads a Play stream in the background so that a slow policy never answers a stale
request: a DecideRequest overtaken by a newer one is dropped unanswered."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator

from arena.v1 import bot_pb2

log = logging.getLogger("arena.sdk")


def _is_decide(msg: bot_pb2.ArenaMessage) -> bool:
    return msg.WhichOneof("kind") == "decide"


class Inbox:
    """The messages of one Play stream, newest decision first in line.

    The arena sends a new DecideRequest only after the previous one was answered or
    timed out (and settled by the fallback action). So when a newer request is already
    waiting, the older one is stale: answering it would only waste the policy's time and
    make the newer answer late too.
    """

    def __init__(self, source: AsyncIterator[bot_pb2.ArenaMessage]) -> None:
        self._queue: deque[bot_pb2.ArenaMessage] = deque()
        self._ready = asyncio.Event()
        self._ended = False
        self.skipped = 0
        """Stale decision requests dropped so far."""
        self._task = asyncio.create_task(self._pump(source))

    async def _pump(self, source: AsyncIterator[bot_pb2.ArenaMessage]) -> None:
        try:
            async for msg in source:
                self._queue.append(msg)
                self._ready.set()
        except Exception as error:  # the call broke or was cancelled: no more messages
            log.debug("Play stream read failed: %r", error)
        finally:
            self._ended = True
            self._ready.set()

    async def next(self) -> bot_pb2.ArenaMessage | None:
        """The next message to handle, or None once the arena half-closed the stream."""
        while True:
            while not self._queue:
                if self._ended:
                    return None
                self._ready.clear()
                await self._ready.wait()
            msg = self._queue.popleft()
            if _is_decide(msg) and any(_is_decide(m) for m in self._queue):
                self.skipped += 1
                # Worth a warning: the policy is slower than the arena's deadline.
                log.warning(
                    "skipped request %d: the arena sent a newer one while the policy was "
                    "still thinking (it timed out)",
                    msg.decide.request_id,
                )
                continue
            return msg

    async def close(self) -> None:
        """Stop reading (the call is over)."""
        if not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
