"""A local worker process: ``python -m arena.league.executors.process_worker``.

It reads tables from stdin and writes finished matches to stdout (``frame_server``),
playing many at once on one asyncio referee (``MatchWorker``). Its own prints and logs go to
stderr, so they never corrupt a frame. It dies with the head (a parent-death signal set
by the head), and its managed bots die with it.
"""

from __future__ import annotations

import asyncio
import os
import sys

from arena.gctune import tune_for_latency
from arena.referee.policy_processes import stop_policy_processes

from ..processes import die_with_parent
from .frame_server import FrameServer


async def _main(out_fd: int) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    out, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(out_fd, "wb", buffering=0))
    server = FrameServer(reader, out)
    await server.serve()
    await server.drain()  # the last frames, before the loop ends
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
    try:
        asyncio.run(_main(out_fd))
    finally:
        stop_policy_processes()  # its built-ins' workers


if __name__ == "__main__":
    main()
