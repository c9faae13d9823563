"""`arena serve` that cannot listen where it is told says why: an address that is not
this machine's is a --host problem, a taken port a --port problem (no gRPC log lines,
no advice about the wrong option); the database is closed again either way."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from arena.server.app import start_arena
from arena.server.config import ServeConfig

from .support import arena_cli

NOT_HERE = "192.0.2.1"
"""TEST-NET-1 (RFC 5737): never an address of this machine."""


def _start(config: ServeConfig) -> None:
    async def main() -> None:
        arena = await start_arena(config)
        await arena.stop(0)  # only if the test is about to fail anyway

    asyncio.run(main())


def test_an_address_of_another_machine_is_a_host_problem(tmp_path: Path) -> None:
    config = ServeConfig(db=str(tmp_path / "serve.db"), host=NOT_HERE, port=0)
    with pytest.raises(OSError, match="cannot listen on ") as raised:
        _start(config)
    assert str(raised.value) == (
        f"cannot listen on {NOT_HERE}:0: {NOT_HERE} is not an address of this machine; "
        "choose another --host (127.0.0.1: this machine only, 0.0.0.0: every interface)"
    )
    # The database was let go: a server on the same --db starts.
    _start_and_stop(ServeConfig(db=str(tmp_path / "serve.db"), port=0))


def test_a_taken_port_is_a_port_problem(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        config = ServeConfig(db=str(tmp_path / "serve.db"), port=port)
        with pytest.raises(OSError, match="cannot listen on ") as raised:
            _start(config)
    assert str(raised.value) == (
        f"cannot listen on 127.0.0.1:{port}: the port is taken (another process listens "
        "there); choose another --port (0: any free port)"
    )


def test_the_command_says_so_in_one_line(tmp_path: Path) -> None:
    ended = arena_cli(
        "serve", "--db", str(tmp_path / "serve.db"), "--host", NOT_HERE, "--port", "0", "--insecure"
    )
    assert ended.returncode == 2
    assert ended.stdout == ""
    lines = ended.stderr.splitlines()
    assert len(lines) == 1, ended.stderr  # gRPC never tried, so it logged nothing
    assert lines[0].startswith(f"arena serve: cannot listen on {NOT_HERE}:0: ")
    assert f"{NOT_HERE} is not an address of this machine; choose another --host" in lines[0]


def _start_and_stop(config: ServeConfig) -> None:
    async def main() -> None:
        arena = await start_arena(config)
        assert arena.port > 0
        await arena.stop(0)

    asyncio.run(main())
