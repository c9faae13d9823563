"""Every sample bot, run as a process the way users run it, passes the same checks:
the listening line, Hello, a whole game over a Play stream, a clean exit on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sys

import grpc
import pytest
from sdk_support import REPO, Table, async_stub, bot_process, play_table, python_bot

from arena.v1 import bot_pb2

# Found, not listed: a new sample bot is checked without anyone remembering to add it.
PYTHON_BOTS = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "sample_bots").glob("*.py"))


async def hello_and_game(port: int) -> tuple[bot_pb2.HelloReply, int]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = async_stub(channel)
        hello = await stub.Hello(bot_pb2.HelloRequest(protocol="arena.v1"), timeout=10)
        decisions = await asyncio.wait_for(play_table(stub, Table(seed=21, seat=2), "m"), 60)
        return hello, decisions


def test_the_sample_bots_are_found() -> None:
    assert {"sample_bots/random_bot.py", "sample_bots/greedy_bot.py"} <= set(PYTHON_BOTS)
    assert set(PYTHON_BOTS) >= SEARCH_BOTS


SEARCH_BOTS = {"sample_bots/ismcts_bot.py"}
"""Bots that think for up to most of a second per decision: a whole game is a slow test."""


@pytest.mark.parametrize(
    "script",
    [pytest.param(p, marks=pytest.mark.slow) if p in SEARCH_BOTS else p for p in PYTHON_BOTS],
)
def test_python_sample_bot(script: str) -> None:
    with bot_process(python_bot(script)) as bot:
        assert bot.line == f"arena-bot listening on 127.0.0.1:{bot.port}"
        hello, decisions = asyncio.run(hello_and_game(bot.port))
        assert hello.name
        # Every game with its policy (the search bot: every game that can determinize,
        # and the OpenSpiel games, refusing at the start those without a witness).
        games = ["abluxxen", "fluxx"]
        if script.endswith(("random_bot.py", "ismcts_bot.py")):
            games.append("openspiel:*")
        assert list(hello.games) == games
        assert decisions > 0
        # Stopped by its pid: a graceful shutdown exits with status 0.
        os.kill(bot.proc.pid, signal.SIGTERM)
        assert bot.proc.wait(timeout=10) == 0


@pytest.mark.slow
def test_random_bot_honours_host_and_port() -> None:
    with bot_process(python_bot("sample_bots/random_bot.py")) as first:
        port = first.port
    # The port is free again once the first bot is gone; ask for it explicitly.
    command = [sys.executable, "sample_bots/random_bot.py", "--host", "127.0.0.1", "--port"]
    with bot_process([*command, str(port)]) as second:
        assert second.port == port
        hello, _ = asyncio.run(hello_and_game(port))
        assert hello.name == "random"


NODE_BOT = REPO / "sample_bots" / "node"


@pytest.mark.skipif(
    not (NODE_BOT / "node_modules").is_dir(),
    reason="sample_bots/node/node_modules is missing: run `npm ci` in sample_bots/node",
)
def test_node_random_bot() -> None:
    with bot_process(["node", "sample_bots/node/random_bot.js", "--port", "0"]) as bot:
        assert bot.line == f"arena-bot listening on 127.0.0.1:{bot.port}"
        hello, decisions = asyncio.run(hello_and_game(bot.port))
        # it answers by index: any game
        assert list(hello.games) == ["abluxxen", "fluxx", "openspiel:*"]
        assert decisions > 0
