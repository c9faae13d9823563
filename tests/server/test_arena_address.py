"""`--arena` is HOST:PORT (or tls://HOST:PORT): a missing port is a usage error (exit
status 2) found before anything is dialled, not a silent try of port 443; a tls://
address means --tls. The refusals run the command in the test's process; the address
from the environment, on a real one."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from in_process import run_arena

from .support import PY, ROOT, Processes, arena_cli, self_signed

COMMANDS = [
    ("submit", "--token", "t", "--name", "me", "--endpoint", "127.0.0.1:50061"),
    ("update", "--token", "t", "--name", "me"),
    ("retire", "--token", "t", "--name", "me"),
    ("bots",),
    ("leaderboard",),
    ("matches",),
    ("replay", "LADDER/000001"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_an_arena_without_a_port_is_refused_before_dialling(command: tuple[str, ...]) -> None:
    # The usage message alone, and nothing else, shows no call was made: a call would
    # have ended in a connection error (or its 15 s timeout) with other words. (This test
    # once also bounded its time; a loaded machine took 20 s to start the command.)
    ended = run_arena(command[0], "--arena", "localhost", *command[1:])
    assert ended.returncode == 2, ended.stderr
    assert ended.stdout == ""
    assert ended.stderr == (
        f"arena {command[0]}: --arena 'localhost' has no port; write HOST:PORT (e.g. "
        "localhost:50050, where `arena serve` listens by default), or tls://HOST:PORT for "
        "an arena serving TLS\n"
    )


def test_the_address_from_the_environment_is_checked_too() -> None:
    env = {**os.environ, "ARENA_ADDRESS": "arena.invalid"}
    ended = subprocess.run(
        [PY, "-m", "arena.cli", "leaderboard"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env=env,
    )
    assert ended.returncode == 2
    assert ended.stderr.startswith("arena leaderboard: --arena 'arena.invalid' has no port")


@pytest.mark.parametrize("address", ["localhost:99999", "http://localhost:50050", ":50050"])
def test_other_addresses_that_are_not_host_port(address: str) -> None:
    ended = run_arena("bots", "--arena", address)
    assert ended.returncode == 2
    assert ended.stderr.startswith(f"arena bots: --arena {address!r} ")
    assert "HOST:PORT" in ended.stderr


@pytest.mark.slow
def test_a_tls_address_means_tls(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    procs = Processes()
    try:
        server = procs.serve(tmp_path / "serve.db", "--tls-cert", str(cert), "--tls-key", str(key))
        port = server.address.rsplit(":", 1)[1]
        listed = arena_cli("bots", "--arena", f"tls://localhost:{port}", "--ca", str(cert))
        assert listed.returncode == 0, listed.stderr
        assert "no bots yet" in listed.stdout
        untrusted = arena_cli("leaderboard", "--arena", f"tls://localhost:{port}")
        assert untrusted.returncode == 1
        assert "--ca" in untrusted.stderr
        assert "add --tls" not in untrusted.stderr  # it is TLS already
    finally:
        procs.kill_all()
