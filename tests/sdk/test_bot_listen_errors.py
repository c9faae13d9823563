"""A bot that cannot listen where it is told says so in one line and exits non-zero:
a --port outside 0..65535 is a usage error (status 2, before gRPC sees it), a taken
port or an address that is not this machine's is one clear line (status 1), never a
traceback, gRPC's own log lines or a listening line for some other port."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass

import pytest
from sdk_support import REPO

from arena.sdk import bot_arg_parser

RANDOM_BOT = "sample_bots/random_bot.py"


@dataclass
class Ended:
    status: int
    stdout: str
    stderr: str


def run_bot_briefly(*args: str, timeout: float = 120.0) -> Ended:
    """Run the random bot with ``args``; it must exit by itself within ``timeout`` (a bot
    that serves instead is killed by its pid, and the test fails)."""
    proc = subprocess.Popen(
        [sys.executable, RANDOM_BOT, *args],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
        raise AssertionError(f"the bot kept running: {stdout!r} {stderr!r}") from None
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    return Ended(proc.returncode, stdout, stderr)


@pytest.mark.parametrize("port", ["99999", "65536", "-1"])
@pytest.mark.slow
def test_a_port_out_of_range_is_a_usage_error(port: str) -> None:
    ended = run_bot_briefly("--port", port)
    assert ended.status == 2
    assert ended.stdout == ""  # no listening line
    assert ended.stderr.startswith("usage: ")
    assert ended.stderr.rstrip().endswith(
        f"error: argument --port: {port} is not a port (0..65535; 0: any free port)"
    )


def test_the_parser_takes_the_whole_port_range() -> None:
    parser = bot_arg_parser("test")
    assert parser.parse_args(["--port", "0"]).port == 0
    assert parser.parse_args(["--port", "65535"]).port == 65535
    with pytest.raises(SystemExit) as exited:
        parser.parse_args(["--port", "http"])
    assert exited.value.code == 2


def test_a_taken_port_is_one_clear_line() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        ended = run_bot_briefly("--port", str(port))
    assert ended.status == 1
    assert ended.stdout == ""
    assert ended.stderr == (
        f"arena-bot: cannot listen on 127.0.0.1:{port}: the port is taken (another process "
        "listens there); choose another --port (0: any free port)\n"
    )


@pytest.mark.slow
def test_an_address_of_another_machine_is_one_clear_line() -> None:
    # TEST-NET-1 (RFC 5737): never an address of this machine.
    ended = run_bot_briefly("--host", "192.0.2.1", "--port", "0")
    assert ended.status == 1
    assert ended.stdout == ""
    assert ended.stderr == (
        "arena-bot: cannot listen on 192.0.2.1:0: 192.0.2.1 is not an address of this "
        "machine; choose another --host (127.0.0.1: this machine only, 0.0.0.0: every "
        "interface)\n"
    )
