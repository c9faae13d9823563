"""A local worker process: ``python -m arena.league.executors.process_worker``.

It reads tables from stdin and writes finished matches to stdout (``frames``), playing
many at once on one asyncio referee (``MatchWorker``). Its own prints and logs go to
stderr, so they never corrupt a frame. It dies with the head (a parent-death signal set
by the head), and its managed bots die with it.
"""

from __future__ import annotations

import asyncio
import os
import sys
import traceback
from functools import partial
from typing import Any

from arena.gctune import tune_for_latency

from ..processes import die_with_parent
from . import frames
from .base import Referee


class _Server:
    """The worker's side of the frames."""

    def __init__(self, reader: asyncio.StreamReader, out: asyncio.WriteTransport) -> None:
        self.reader = reader
        self.out = out
        self.referee: Referee | None = None
        self.tasks: dict[int, asyncio.Task[None]] = {}
        """The jobs in play, by the head's number."""

    def send(self, message: Any) -> None:
        self.out.write(frames.encode(message))

    async def serve(self) -> None:
        while (message := await frames.read(self.reader)) is not None:
            kind = message[0]
            if kind == "start":
                self.referee = message[1].build()
                self.send(("started", await self.referee.start()))
            elif kind == "play":
                number = message[1]
                task = asyncio.create_task(self._play(number, message[2]))
                self.tasks[number] = task
                task.add_done_callback(partial(self._forget, number))
            elif kind == "cancel" and message[1] in self.tasks:
                self.tasks[message[1]].cancel()
            elif kind == "stop":
                break
        await self._stop()

    def _forget(self, number: int, task: asyncio.Task[None]) -> None:
        if self.tasks.get(number) is task:
            del self.tasks[number]

    async def _play(self, number: int, job: Any) -> None:
        assert self.referee is not None
        try:
            result = await self.referee.play(job)
        except Exception:
            self.send(("failed", number, traceback.format_exc()))
        else:
            self.send(("done", number, result))

    async def _stop(self) -> None:
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        report = None
        if self.referee is not None:
            report = self.referee.report()
            await self.referee.stop()
        self.send(("stopped", report))


async def _main(out_fd: int) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    out, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(out_fd, "wb", buffering=0))
    await _Server(reader, out).serve()
    while out.get_write_buffer_size():  # the last frames, before the loop ends
        await asyncio.sleep(0.001)
    out.close()


def main() -> None:
    """Frames go to the original stdout; anything else printed goes to stderr. The
    worker dies with the head (its pid is the first argument): a parent-death signal,
    set here, and checked against a head that died before it was set."""
    die_with_parent()
    if len(sys.argv) > 1 and os.getppid() != int(sys.argv[1]):
        sys.exit("arena worker: the head is gone")
    out_fd = os.dup(1)
    os.dup2(2, 1)
    tune_for_latency()
    asyncio.run(_main(out_fd))


if __name__ == "__main__":
    main()
