"""A worker's side of the frames: starts the referee a recipe builds, plays the jobs
the head sends (many at once), and answers each with its result.

The same for a local worker process (over its stdin and stdout) and a Ray actor (over
a TCP connection from the head), so both executors speak one protocol.
"""

from __future__ import annotations

import asyncio
import time
import traceback
from functools import partial
from typing import Any

from . import frames
from .base import Referee
from .live_relay import RELAY_EVERY_S, LiveRelay


class FrameServer:
    """Serves the head's frames until it says stop or goes away."""

    def __init__(self, reader: asyncio.StreamReader, out: asyncio.WriteTransport) -> None:
        self.reader = reader
        self.out = out
        self.referee: Referee | None = None
        self.tasks: dict[int, asyncio.Task[None]] = {}
        """The jobs in play, by the head's number."""
        self.relay = LiveRelay()
        """The logs of the watched jobs in play (``live_relay``)."""
        self._relaying: asyncio.Task[None] | None = None

    def send(self, message: Any) -> None:
        if not self.out.is_closing():  # the head is gone: nobody to tell
            self.out.write(frames.encode(message))

    async def serve(self) -> None:
        while (message := await frames.read(self.reader)) is not None:
            kind = message[0]
            if kind == "start":
                self.referee = message[1].build()
                self.send(("started", await self.referee.start()))
            elif kind == "play":
                number = message[1]
                task = asyncio.create_task(self._play(number, message[2], message[3]))
                self.tasks[number] = task
                task.add_done_callback(partial(self._forget, number))
            elif kind == "cancel" and message[1] in self.tasks:
                self.tasks[message[1]].cancel()
            elif kind == "stop":
                break
        await self._stop()

    async def drain(self) -> None:
        """Wait until the last frames are written (before the transport is closed)."""
        while self.out.get_write_buffer_size() and not self.out.is_closing():
            await asyncio.sleep(0.001)

    def _forget(self, number: int, task: asyncio.Task[None]) -> None:
        if self.tasks.get(number) is task:
            del self.tasks[number]

    async def _play(self, number: int, job: Any, watched: bool) -> None:
        assert self.referee is not None
        live = self.relay.watch(number) if watched else None
        if live is not None and self._relaying is None:
            self._relaying = asyncio.create_task(self._relay())
        try:
            result = await self.referee.play(job, live)
        except Exception:
            self.send(("failed", number, traceback.format_exc()))
        else:
            self.send(("done", number, result))
        finally:
            self.relay.forget(number)

    async def _relay(self) -> None:
        """Send the watched jobs' new actions every RELAY_EVERY_S while any is in play."""
        try:
            while self.relay:
                await asyncio.sleep(RELAY_EVERY_S)
                batch = self.relay.batch(time.monotonic())
                if batch:
                    self.send(("live", batch))
        finally:
            self._relaying = None

    async def _stop(self) -> None:
        if self._relaying is not None:
            self._relaying.cancel()
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        report = None
        if self.referee is not None:
            report = self.referee.report()
            await self.referee.stop()
        self.send(("stopped", report))
