"""Run a bot as a process: parse --host/--port, serve, announce the port, stop on a signal."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Final

from arena.gctune import tune_for_latency
from arena.v1 import bot_pb2_grpc

from .info import BotInfo
from .server import host_port, launch, listen_problem
from .servicer import PolicyFactory, PolicyServicer

LISTENING: Final = "arena-bot listening on {address}"
"""The one line a bot prints on stdout once it serves; the arena reads the port from it
when it starts a bot itself."""

POLICY_THREADS: Final = 64
"""Worker threads for policies: one per concurrently deciding stream. Idle threads are
not created, and the default pool (cpus + 4) would make sleeping or I/O-bound policies
of different matches wait for each other."""


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0..65535 (0: any free port)."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text} is not a port (0..65535; 0: any free port)")
    return port


def bot_arg_parser(description: str) -> argparse.ArgumentParser:
    """The common options of every bot: ``--host`` and ``--port``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument(
        "--port", type=port_number, default=0, help="port to listen on (default 0: any free port)"
    )
    return parser


def run_bot(
    factory: PolicyFactory,
    *,
    info: BotInfo,
    argv: Sequence[str] | None = None,
    grace: float = 5.0,
) -> None:
    """Serve a fresh ``factory()`` policy per match until SIGTERM/SIGINT.

    ``argv`` (default ``sys.argv[1:]``) takes ``--host`` and ``--port``. Prints exactly
    one line, ``arena-bot listening on HOST:PORT``, once the bot serves.
    """
    run_servicer(
        PolicyServicer(factory, info),
        argv=argv,
        description=f"Arena bot {info.name!r} {info.version}",
        grace=grace,
    )


def run_servicer(
    servicer: bot_pb2_grpc.BotServicer,
    *,
    argv: Sequence[str] | None = None,
    description: str = "Arena bot",
    grace: float = 5.0,
) -> None:
    """``run_bot`` for a hand-written servicer."""
    args = bot_arg_parser(description).parse_args(argv)
    logging.basicConfig(format="%(asctime)s %(name)s %(levelname)s %(message)s")
    tune_for_latency()
    try:
        asyncio.run(serve(servicer, host=args.host, port=args.port, grace=grace))
    except OSError as error:
        raise SystemExit(f"arena-bot: {error}") from None


async def serve(servicer: bot_pb2_grpc.BotServicer, *, host: str, port: int, grace: float) -> None:
    """Serve until SIGTERM or SIGINT, then let running calls finish for ``grace`` seconds."""
    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(POLICY_THREADS, thread_name_prefix="policy"))
    problem = listen_problem(host, port)
    if problem is not None:
        raise OSError(f"cannot listen on {host_port(host, port)}: {problem}")
    bot = await launch(servicer, address=host_port(host, port))
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    print(LISTENING.format(address=host_port(host, bot.port)), flush=True)
    try:
        await stop.wait()
    finally:
        await bot.health.enter_graceful_shutdown()
        await bot.server.stop(grace)
