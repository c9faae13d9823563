"""The web app's connections: idle and slow clients could take every descriptor.

Fails on cf034a7: uvicorn accepted every connection and kept one that sent nothing, or a
byte now and then, for good (its keep-alive timeout runs only between requests and
restarts at every byte); 1,100 idle connections at ``ulimit -n 1024`` took every
descriptor of ``arena serve --web-port``, and its gRPC calls timed out. (Neither
``--max-connections`` nor ``--idle-timeout-s`` existed for ``arena web``.)

Passes now (``arena/web/server.py``): connections over the cap are answered 503 and
closed as they are accepted, the cap is at most an eighth of the descriptors, and a
connection that has not sent a whole request (head and body) ``--idle-timeout-s`` after
it opened or its last answer is closed, however it spreads its bytes.
"""

from __future__ import annotations

import contextlib
import http.client
import resource
import select
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from server.support import PY, ROOT, Processes, _read_line, wait_until

from security.test_connections_cap import LIMITED

from .web_support import (
    PATIENCE_S,
    closed_by_server,
    connect,
    empty_db,
    files_open,
    read_to_eof,
    request,
    start_web,
)

CAP = 4


@contextlib.contextmanager
def _connections(port: int, count: int) -> Iterator[list[socket.socket]]:
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sockets.append(connect(port))
        yield sockets
    finally:
        for sock in sockets:
            sock.close()


def test_connections_over_the_cap_are_refused_and_the_app_serves_on(tmp_path: Path) -> None:
    procs = Processes()
    try:
        web = start_web(
            procs,
            empty_db(tmp_path / "arena.db"),
            "--max-connections", str(CAP), "--idle-timeout-s", "600",
        )  # fmt: skip
        held = [http.client.HTTPConnection("127.0.0.1", web.port) for _ in range(CAP)]
        try:
            for conn in held:  # each served, and kept open (HTTP/1.1 keep-alive)
                conn.request("GET", "/")
                assert conn.getresponse().read()
            before = files_open(web.pid)
            with _connections(web.port, 3 * CAP) as over:
                for sock in over:  # each answered and closed as it is accepted
                    answer = read_to_eof(sock)
                    assert answer.startswith(b"HTTP/1.1 503 "), answer[:80]
                    assert b"as many as it holds" in answer
                    assert b"x-content-type-options: nosniff" in answer.lower()
                assert files_open(web.pid) <= before
            for conn in held:  # still open, and served
                assert conn.sock is not None
                assert not closed_by_server(conn.sock)
                conn.request("GET", "/")
                assert conn.getresponse().status == 200
        finally:
            for conn in held:
                conn.close()
        # Once those close, their descriptors are back and a new client is served.
        wait_until(lambda: _served(web.port), PATIENCE_S, "a new client to be served")
    finally:
        procs.kill_all()


def _served(port: int) -> bool:
    try:
        return request(port, "/").status == 200
    except (ConnectionError, OSError):
        return False


@pytest.mark.slow
def test_idle_and_slow_connections_are_closed_after_the_timeout(tmp_path: Path) -> None:
    procs = Processes()
    try:
        web = start_web(procs, empty_db(tmp_path / "arena.db"), "--idle-timeout-s", "1")
        # Nothing sent: closed without an answer.
        with contextlib.closing(connect(web.port)) as idle:
            assert read_to_eof(idle) == b""
        # A head sent a byte at a time (slowloris), the next byte only once the last
        # one is in: closed before it is whole.
        head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 4000 + b"\r\n\r\n"
        with contextlib.closing(connect(web.port)) as slow:
            assert _cut_off(slow, head), "the server waited for the slow head"
            assert read_to_eof(slow) == b""
        # A whole head, then a body a byte at a time: closed as well.
        post = (
            b"POST /play HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\n"
        )
        with contextlib.closing(connect(web.port)) as slow:
            slow.sendall(post)
            assert _cut_off(slow, b"a" * 4000), "the server waited for the slow body"
        # After an answer, a kept-alive connection has the same time for its next request.
        with contextlib.closing(connect(web.port)) as kept:
            kept.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert read_to_eof(kept).startswith(b"HTTP/1.1 200 ")
        assert request(web.port, "/").status == 200
    finally:
        procs.kill_all()


def _cut_off(sock: socket.socket, data: bytes) -> bool:
    """Send ``data`` a byte at a time, each after waiting a tenth of a second for the
    server to close the connection; whether it did before the last byte (within
    PATIENCE_S)."""
    deadline = time.monotonic() + PATIENCE_S
    for at in range(len(data) - 1):
        if time.monotonic() > deadline:
            return False
        try:
            sock.sendall(data[at : at + 1])
        except (BrokenPipeError, ConnectionResetError):
            return True
        readable, _, _ = select.select([sock], [], [], 0.1)
        if readable and closed_by_server(sock):
            return True
    return False


NOFILE = 256
"""The limit on open files of ``arena serve`` in the last test (soft and hard)."""
WEB_CAP = (NOFILE - 64) // 8
"""The web app's cap that limit leaves (``web_connection_cap``)."""
FLOOD = 400


@pytest.mark.slow
def test_a_flood_of_web_connections_leaves_the_grpc_side_its_descriptors(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < FLOOD + 200:
        pytest.skip(f"this test opens {FLOOD} connections; the hard limit is {hard}")
    if soft != resource.RLIM_INFINITY and soft < FLOOD + 200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    db = empty_db(tmp_path / "serve.db")
    log = tmp_path / "serve.log"
    procs = Processes()
    try:
        serve = [PY, "-m", "arena.cli", "serve", "--db", str(db), "--port", "0", "--web-port", "0"]
        with log.open("w") as err:
            popen = subprocess.Popen(
                [PY, "-c", LIMITED, str(NOFILE), *serve],
                stdout=subprocess.PIPE,
                stderr=err,
                stdin=subprocess.DEVNULL,
                text=True,
                cwd=ROOT,
            )
        procs.started.append(popen)
        address = _read_line(popen, "arena serving on ", PATIENCE_S)
        assert popen.stdout is not None  # the next line (select() would not see it buffered)
        url = next(line for line in popen.stdout if line.startswith("arena web serving on "))
        port = int(url.strip().rsplit(":", 1)[1])
        with _connections(port, FLOOD) as flood:
            # Every connection over the cap is answered and closed as it is accepted.
            wait_until(
                lambda: sum(closed_by_server(s) for s in flood) >= FLOOD - WEB_CAP,
                PATIENCE_S,
                "the web connections over the cap to be closed",
            )
            assert files_open(popen.pid) < NOFILE - 64
            with grpc.insecure_channel(address) as channel:
                reply = health_pb2_grpc.HealthStub(channel).Check(
                    health_pb2.HealthCheckRequest(), timeout=10
                )
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        wait_until(lambda: _served(port), PATIENCE_S, "the web app to serve again")
        assert "out of system resource" not in log.read_text()
    finally:
        procs.kill_all()
