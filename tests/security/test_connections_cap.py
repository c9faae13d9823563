"""Idle client connections cannot use up the arena's file descriptors.

Fails on a35e272: the arena accepted every connection and kept it (gRPC's defaults: no
cap, no idle timeout, two minutes for a handshake). Started with 256 descriptors, as a
process would be with a low ``ulimit -n``, it takes the 400 connections opened here, the
descriptors run out, verifying a new bot cannot open its channel (the bot is suspended,
"verification failed: Hello: ..."), and the pooled channels to the playing bots cannot
reconnect.

Passes now: the arena caps client connections at half of what its descriptors leave
(``arena/server/connections.py``: (256 - 64) / 2 = 96 here; gRPC closes the connections
over the cap as it accepts them), so with the arena at its cap a bot submitted through a
connection opened before is verified and plays, the bot already playing stays active,
and health says SERVING; a new client meanwhile is refused until connections time out.
"""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from server.support import (
    PY,
    RANDOM_BOT,
    ROOT,
    Proc,
    Processes,
    _read_line,
    bot_named,
    submit,
    token,
    wait_status,
    wait_until,
)

from arena.v1 import arena_pb2, arena_pb2_grpc

NOFILE = 256
"""The arena's limit on open files (soft and hard) in this test."""
CAP = (NOFILE - 64) // 2
"""The cap the arena derives from it (connections.py)."""
LOCAL = [("grpc.use_local_subchannel_pool", 1)]
"""A channel with a connection of its own (not shared with other channels in this
process)."""
FLOOD = 400
"""Connections opened: more than the arena's descriptors."""
LIMITED = (
    "import os, resource, sys\n"
    "limit = int(sys.argv[1])\n"
    "resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))\n"
    "os.execv(sys.argv[2], sys.argv[2:])\n"
)
"""Runs a command with at most ``argv[1]`` open files (as ``ulimit -n`` does)."""
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes(9)[:3] + b"\x04" + bytes(5)
"""The HTTP/2 client preface and an empty SETTINGS frame: an idle client connection
whose handshake is done (so only the idle timeout, a minute by default, closes it)."""


def _serve_with_few_files(procs: Processes, db: Path, *args: str) -> Proc:
    """`arena serve` whose limit on open files is NOFILE (soft and hard: it cannot raise
    it), as a process started under `ulimit -n 256` would be. A launcher sets the limit
    and becomes the server: a ``preexec_fn`` would fork this process, gRPC's threads
    included, and gRPC's fork handlers can abort the child (the server died with SIGABRT
    before it started, once in 20 runs)."""
    serve = [PY, "-m", "arena.cli", "serve", "--db", str(db), "--port", "0", *args]
    popen = subprocess.Popen(
        [PY, "-c", LIMITED, str(NOFILE), *serve],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
    )
    procs.started.append(popen)
    return Proc(popen, _read_line(popen, "arena serving on ", 30))


@contextlib.contextmanager
def _idle_connections(address: str, count: int) -> Iterator[list[socket.socket]]:
    host, port = address.rsplit(":", 1)
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.create_connection((host, int(port)), timeout=5)
            with contextlib.suppress(OSError):  # closed at once: over the cap
                sock.sendall(PREFACE)
            sockets.append(sock)
        yield sockets
    finally:
        for sock in sockets:
            sock.close()


def _files_open(pid: int) -> int:
    """Descriptors the process has open."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def _open(sock: socket.socket) -> bool:
    """Whether the arena still holds the connection (it has not closed it)."""
    sock.setblocking(False)
    try:
        while sock.recv(4096):
            pass
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


@pytest.mark.slow
def test_at_its_connection_cap_the_arena_still_verifies_and_plays(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < FLOOD + 200:
        pytest.skip(f"this test opens {FLOOD} connections; the hard limit is {hard}")
    if soft != resource.RLIM_INFINITY and soft < FLOOD + 200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    db = tmp_path / "serve.db"
    alice = token(db, "alice")
    procs = Processes()
    try:
        server = _serve_with_few_files(
            procs, db, "--table-size", "2", "--placement-matches", "0", "--deadline-ms", "2000"
        )
        one, two, three = procs.bots([RANDOM_BOT], [RANDOM_BOT], [RANDOM_BOT])
        # Connected before the flood: one connection for the Arena and health stubs.
        with grpc.insecure_channel(server.address, options=LOCAL) as channel:
            client = arena_pb2_grpc.ArenaStub(channel)
            health = health_pb2_grpc.HealthStub(channel)
            submit(client, alice, "one", one.address)
            submit(client, alice, "two", two.address)
            wait_status(client, "one", arena_pb2.BOT_STATUS_ACTIVE, 60)
            wait_status(client, "two", arena_pb2.BOT_STATUS_ACTIVE, 60)

            with _idle_connections(server.address, FLOOD) as flood:
                # Once the arena has taken what it takes of the flood (on a35e272: all
                # its descriptors)...
                wait_until(
                    lambda: _files_open(server.pid) >= CAP + 5,
                    120,
                    "the arena to accept connections",
                )
                # ...the arena's own connections (to its bots, and the fresh channel of a
                # verification) have their descriptors.
                submit(client, alice, "three", three.address)

                def verified() -> arena_pb2.SubmittedBot | None:
                    bot = bot_named(client, "three")
                    verifying = bot is None or bot.status == arena_pb2.BOT_STATUS_VERIFYING
                    return None if verifying else bot

                three_now = wait_until(verified, 120, "bot three's verification")
                assert three_now.status == arena_pb2.BOT_STATUS_ACTIVE, three_now.status_reason

                def played_three() -> bool:
                    bot = bot_named(client, "three")
                    return bot is not None and bot.matches >= 2

                wait_until(played_three, 120, "bot three to play two ladder matches")
                for name in ("one", "two"):
                    bot = bot_named(client, name)
                    assert bot is not None
                    assert bot.status == arena_pb2.BOT_STATUS_ACTIVE, bot.status_reason
                reply = health.Check(health_pb2.HealthCheckRequest(), timeout=10)
                assert reply.status == health_pb2.HealthCheckResponse.SERVING
                # The arena keeps its cap (less the connection above) and closes the rest.
                wait_until(
                    lambda: sum(_open(s) for s in flood) <= CAP - 1 or None,
                    120,
                    "the connections over the cap to be closed",
                )
                held = sum(_open(s) for s in flood)
                assert held >= CAP - 1 - 5, held  # the arena is at its cap

                # A new client is refused while the arena is full.
                with grpc.insecure_channel(server.address, options=LOCAL) as late:
                    with pytest.raises(grpc.RpcError) as raised:
                        health_pb2_grpc.HealthStub(late).Check(
                            health_pb2.HealthCheckRequest(), timeout=3
                        )
                    assert raised.value.code() in (
                        grpc.StatusCode.UNAVAILABLE,
                        grpc.StatusCode.DEADLINE_EXCEEDED,
                    )
    finally:
        procs.kill_all()
