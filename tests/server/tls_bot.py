"""A random bot that serves TLS (the SDK serves plain gRPC): ``--cert``/``--key`` PEM
files; prints ``arena-bot listening on localhost:PORT`` like every bot."""

from __future__ import annotations

import argparse
import asyncio
import signal
from pathlib import Path

import grpc

from arena.policies import RandomPolicy
from arena.sdk import BotInfo, PolicyServicer
from arena.v1 import bot_pb2_grpc


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    server = grpc.aio.server()
    bot_pb2_grpc.add_BotServicer_to_server(
        PolicyServicer(RandomPolicy, BotInfo(name="tls-random", version="test")), server
    )
    credentials = grpc.ssl_server_credentials(
        [(Path(args.key).read_bytes(), Path(args.cert).read_bytes())]
    )
    port = server.add_secure_port(f"127.0.0.1:{args.port}", credentials)
    await server.start()
    print(f"arena-bot listening on localhost:{port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop(1)


if __name__ == "__main__":
    asyncio.run(main())
