"""How long a bot's reply, already on the wire, waits for the arena's loop while in-process
work shares it (what made good bots time out spuriously; ``arena/referee/turns.py``).

A bot process answers each request on a gRPC stream with the time it sent the answer
(CLOCK_MONOTONIC, shared by the processes of one machine). The arena's side reads the
answers on a ``grpc.aio`` stream while ``--lanes`` tasks each run steps of ``--step-ms``
of CPU work, as in-process matches do, yielding between steps in one of two ways:
``sleep0`` (once per step: every lane runs a step in every turn of the loop) or
``turns`` (``LoopTurns``: at most its budget of steps per turn). Printed per setting:
the delay from the bot's send to the arena's read (p50/p90/p99/max ms) and the share of
the wall time the lanes got to work; the last line is JSON.

    .venv/bin/python scripts/bench/bench_reply_delivery.py [--replies 300] [--lanes 8]
        [--step-ms 0.2,0.5,1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc

from arena.referee.turns import LoopTurns

SERVICE = "bench.Delivery"
METHOD = f"/{SERVICE}/Talk"


async def serve(port_file: Path) -> None:
    """The bot: each request is answered at once with the time of sending."""

    async def talk(requests: Any, context: grpc.aio.ServicerContext) -> Any:
        async for _ in requests:
            yield struct.pack("d", time.monotonic())

    server = grpc.aio.server()
    handler = grpc.method_handlers_generic_handler(
        SERVICE, {"Talk": grpc.stream_stream_rpc_method_handler(talk)}
    )
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    port_file.write_text(str(port))
    await server.wait_for_termination()


def spin(seconds: float) -> None:
    """CPU work, as an in-process decision is."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


async def measure(port: int, lanes: int, step_s: float, gate: str, replies: int) -> dict[str, Any]:
    """Read ``replies`` answers while the lanes work; the delays and the lanes' share."""
    loop = asyncio.get_running_loop()
    turns = LoopTurns(loop)
    stopping = False
    steps = 0

    async def lane() -> None:
        nonlocal steps
        while not stopping:
            if gate == "turns":
                await turns.turn()
            else:
                await asyncio.sleep(0)
            spin(step_s)
            steps += 1

    tasks = [asyncio.create_task(lane()) for _ in range(lanes)]
    delays: list[float] = []
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.stream_stream(METHOD)()
        started = time.perf_counter()
        for _ in range(replies):
            await call.write(b"?")
            answer = await call.read()
            delays.append((time.monotonic() - struct.unpack("d", answer)[0]) * 1000)
            await asyncio.sleep(0.002)  # a bot that thinks a little
        wall = time.perf_counter() - started
        stopping = True
        await asyncio.gather(*tasks)
        await call.done_writing()
    delays.sort()

    def at(share: float) -> float:
        return round(delays[min(len(delays) - 1, int(share * len(delays)))], 2)

    return {
        "gate": gate,
        "lanes": lanes,
        "step_ms": step_s * 1000,
        "delay_ms_p50": at(0.5),
        "delay_ms_p90": at(0.9),
        "delay_ms_p99": at(0.99),
        "delay_ms_max": round(delays[-1], 2),
        "lanes_work_share": round(steps * step_s / wall, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replies", type=int, default=300)
    parser.add_argument("--lanes", type=int, default=8)
    parser.add_argument("--step-ms", default="0.2,0.5,1", help="comma-separated step lengths")
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve))
        return
    with tempfile.TemporaryDirectory() as folder:
        port_file = Path(folder) / "port"
        bot = subprocess.Popen([sys.executable, __file__, "--serve", str(port_file)])
        try:
            deadline = time.monotonic() + 30
            while not (port_file.exists() and port_file.read_text()):
                if bot.poll() is not None or time.monotonic() > deadline:
                    sys.exit("the bot process did not start")
                time.sleep(0.05)
            port = int(port_file.read_text())
            results = [asyncio.run(measure(port, 0, 0.0, "sleep0", args.replies))]
            for step_ms in (float(step) for step in args.step_ms.split(",")):
                for gate in ("sleep0", "turns"):
                    results.append(
                        asyncio.run(measure(port, args.lanes, step_ms / 1000, gate, args.replies))
                    )
            for result in results:
                print(
                    f"{result['gate']:>6} lanes {result['lanes']} step {result['step_ms']:.1f} ms: "
                    f"delay p50 {result['delay_ms_p50']} p90 {result['delay_ms_p90']} "
                    f"p99 {result['delay_ms_p99']} max {result['delay_ms_max']} ms, "
                    f"lanes' share {result['lanes_work_share']}"
                )
            summary = {
                "load_average": os.getloadavg()[0],
                "results": results,
            }
            print(json.dumps(summary))
        finally:
            bot.kill()
            bot.wait()


if __name__ == "__main__":
    main()
