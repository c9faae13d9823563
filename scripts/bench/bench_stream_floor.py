"""The memory floor of a gRPC stream in grpcio's asyncio API, with no arena code at all
(the memory per match's floor: how much of a match's memory is the library's own).

A bare echo server (a ``grpc.aio`` bidirectional stream handler, its own process) and a
bare client in this process. The client opens ``--streams`` streams on one channel, as
the arena's channel pool does; on each it writes one 200-byte message, reads the echo,
and leaves a read pending (as a seat's reader does between decisions). Both processes'
resident memory (``VmRSS``) before and while the streams are held gives the kB per stream
on each side; ``tracemalloc`` (``--trace``, a second run) gives the client's share
allocated by Python. Compare with ``bench_streams.py`` (the arena and the SDK bot holding
the same number of streams) and ``bench_scale.py`` (kB per 4-player match in flight).
Last line JSON.

    .venv/bin/python scripts/bench/bench_stream_floor.py [--streams 2000] [--trace] \\
        [--option KEY=INT ...]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import grpc

SERVICE = "bench.Floor"
METHOD = f"/{SERVICE}/Echo"
BATCH = 100
"""Streams opened at once (all at once, a few thousand opens can time out)."""


def rss_kb(pid: int | str = "self") -> int:
    """Resident memory of a process, in kB (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


async def serve() -> None:
    """The echo server; prints its port, then serves until killed."""

    async def echo(requests: Any, context: grpc.aio.ServicerContext) -> Any:
        async for message in requests:
            yield message

    server = grpc.aio.server(options=[("grpc.max_concurrent_streams", 1 << 20)])
    handler = grpc.method_handlers_generic_handler(
        SERVICE, {"Echo": grpc.stream_stream_rpc_method_handler(echo)}
    )
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(port, flush=True)
    await server.wait_for_termination()


async def hold(
    port: int, server_pid: int, streams: int, trace: bool, options: list[tuple[str, int]]
) -> dict[str, Any]:
    """Open and hold the streams; the memory per stream on each side."""
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=options) as channel:
        echo = channel.stream_stream(METHOD)

        async def opened() -> tuple[Any, asyncio.Future[Any]]:
            call = echo()
            await call.write(b"x" * 200)
            await call.read()
            return call, asyncio.ensure_future(call.read())

        warm = [await opened() for _ in range(10)]
        gc.collect()
        client_before, server_before = rss_kb(), rss_kb(server_pid)
        if trace:
            tracemalloc.start()
            traced_before = tracemalloc.take_snapshot()
        held: list[tuple[Any, asyncio.Future[Any]]] = []
        for first in range(0, streams, BATCH):
            held += await asyncio.gather(*(opened() for _ in range(min(BATCH, streams - first))))
        gc.collect()
        figures: dict[str, Any] = {
            "streams": streams,
            "kb_per_stream_client": round((rss_kb() - client_before) / streams, 1),
            "kb_per_stream_server": round((rss_kb(server_pid) - server_before) / streams, 1),
        }
        if trace:
            traced = tracemalloc.take_snapshot().compare_to(traced_before, "filename")
            figures["python_kb_per_stream_client"] = round(
                sum(stat.size_diff for stat in traced) / streams / 1024, 1
            )
            tracemalloc.stop()
        for call, pending in warm + held:
            pending.cancel()
            call.cancel()
        return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--trace", action="store_true", help="also count Python's share")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=INT",
        help="a client channel option, e.g. grpc.http2.bdp_probe=0 (repeatable)",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve())
        return
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        options = [(key, int(value)) for key, value in (o.split("=", 1) for o in args.option)]
        figures = asyncio.run(hold(port, server.pid, args.streams, args.trace, options))
    finally:
        server.kill()
        server.wait()
    figures["options"] = args.option
    figures["grpcio"] = grpc.__version__
    print(
        f"{figures['streams']} streams: {figures['kb_per_stream_client']} kB per stream in "
        f"the client, {figures['kb_per_stream_server']} kB in the server"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
