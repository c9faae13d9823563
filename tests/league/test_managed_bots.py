"""Managed bots (``cmd:``) are started without forking the arena's Python: a launcher sets
the parent-death signal and becomes the bot, so a league killed with SIGKILL leaves no
bot running, and a command that cannot run says why."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import grpc
import pytest

from arena.league.processes import BotStartError, ManagedBot

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = ROOT / "sample_bots" / "random_bot.py"

PARENT = textwrap.dedent(
    """
    import asyncio, sys
    from arena.league.processes import ManagedBot

    async def main() -> None:
        bot = ManagedBot("r", sys.argv[1])
        await bot.start()
        print(bot.pid, flush=True)
        await asyncio.Event().wait()

    asyncio.run(main())
    """
)
"""An arena stand-in: starts one managed bot, prints its pid, and waits to be killed."""


def _exits_within(pid: int, timeout_s: float) -> bool:
    """Whether process ``pid`` (not our child) exits within ``timeout_s``: a pidfd turns
    readable when it does."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        readable, _, _ = select.select([pidfd], [], [], timeout_s)
        return bool(readable)
    finally:
        os.close(pidfd)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux parent-death signal")
def test_a_managed_bot_dies_with_an_arena_killed_by_sigkill() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, f"python {RANDOM_BOT}"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert parent.stdout is not None
        bot_pid = int(parent.stdout.readline())
        assert (
            Path(f"/proc/{bot_pid}/cmdline").read_bytes().split(b"\0")[1].endswith(b"random_bot.py")
        ), "the launcher became the bot (same pid)"
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=30)
        assert _exits_within(bot_pid, 30), "the bot outlived the arena"
    finally:
        parent.kill()
        parent.wait(timeout=30)


def test_a_command_that_cannot_run_is_named_with_the_reason(tmp_path: Path) -> None:
    async def start() -> str:
        bot = ManagedBot("ghost", str(tmp_path / "no-such-bot"))
        with pytest.raises(BotStartError) as raised:
            await bot.start(timeout_s=30)
        return str(raised.value)

    message = asyncio.run(start())
    assert "bot 'ghost'" in message
    assert "cannot run" in message
    assert "No such file or directory" in message


LISTENING_BOT = (
    "python -c \"import signal; print('arena-bot listening on 127.0.0.1:9', flush=True); "
    'signal.pause()"'
)
"""A bot command that only says where it listens, then waits for the arena's SIGTERM."""


async def _echo_traffic(stop: asyncio.Event) -> None:
    """gRPC busy in this process, as in an arena while matches run: a server and 8
    streams echoing as fast as they can."""

    async def echo(requests: Any, context: grpc.aio.ServicerContext) -> Any:
        async for message in requests:
            yield message

    server = grpc.aio.server()
    handler = grpc.method_handlers_generic_handler(
        "test.Echo", {"Echo": grpc.stream_stream_rpc_method_handler(echo)}
    )
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            calls = [channel.stream_stream("/test.Echo/Echo")() for _ in range(8)]
            while not stop.is_set():
                for call in calls:
                    await call.write(b"x")
                    await call.read()
            for call in calls:
                call.cancel()
    finally:
        await server.stop(None)


def test_bots_start_while_grpc_is_busy_in_the_arena() -> None:
    """Started with a ``preexec_fn``, about one bot in seven died at start (SIGSEGV or
    SIGABRT in gRPC's fork handlers) while the arena's gRPC threads were busy."""

    async def start_all(count: int) -> list[str]:
        stop = asyncio.Event()
        traffic = asyncio.create_task(_echo_traffic(stop))
        failures = []
        try:
            for index in range(count):
                bot = ManagedBot(f"b{index}", LISTENING_BOT)
                try:
                    await bot.start(timeout_s=30)
                except BotStartError as error:
                    failures.append(str(error))
                finally:
                    await bot.stop()
        finally:
            stop.set()
            await traffic
        return failures

    assert asyncio.run(start_all(30)) == []
