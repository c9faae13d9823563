"""No client can hold the arena's connections for ever.

Fails on a35e272: `arena serve` had no connection cap, no idle or age timeout and no
limit of calls per address (none of the options used here existed, so the arena does not
even start with them; with gRPC's defaults an idle connection stays open for good and a
health Watch keeps its connection as long as it likes).

Passes now: connections over ``--max-connections`` are closed as they are accepted, idle
ones after ``--idle-timeout-s`` (which frees the cap for the next client), any after
``--max-connection-age-s`` (a Watch stream ends UNAVAILABLE and the client reconnects),
and one address gets at most ``--max-calls-per-address`` calls at once.
"""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from server.support import Processes, wait_until

LOCAL = [("grpc.use_local_subchannel_pool", 1)]
"""A channel with a connection of its own."""
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04" + bytes(5)
"""The HTTP/2 client preface and an empty SETTINGS frame: a client that connected and
then does nothing."""


def _open(sock: socket.socket) -> bool:
    """Whether the arena still holds the connection."""
    sock.setblocking(False)
    try:
        while sock.recv(4096):
            pass
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


@contextlib.contextmanager
def _idle(address: str, count: int) -> Iterator[list[socket.socket]]:
    host, port = address.rsplit(":", 1)
    sockets = [socket.create_connection((host, int(port)), timeout=5) for _ in range(count)]
    try:
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.sendall(PREFACE)
        yield sockets
    finally:
        for sock in sockets:
            sock.close()


def _check(address: str) -> int:
    with grpc.insecure_channel(address, options=LOCAL) as channel:
        reply = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(), timeout=3
        )
        status: int = reply.status
        return status


def _refused(address: str) -> bool:
    try:
        _check(address)
    except grpc.RpcError as error:
        return error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
    return False


@pytest.mark.slow
def test_idle_connections_are_capped_and_closed(tmp_path: Path) -> None:
    procs = Processes()
    try:
        server = procs.serve(
            tmp_path / "serve.db", "--max-connections", "8", "--idle-timeout-s", "1"
        )
        with _idle(server.address, 12) as idle:
            wait_until(
                lambda: sum(_open(s) for s in idle) <= 8 or None, 30, "the cap to be applied"
            )
            # Idle connections (handshake done, no call) are closed after the timeout...
            wait_until(lambda: not any(_open(s) for s in idle), 30, "idle connections to be closed")
            # ...and the next client is served.
            assert _check(server.address) == health_pb2.HealthCheckResponse.SERVING
    finally:
        procs.kill_all()


@pytest.mark.slow
def test_a_connection_that_stays_busy_is_closed_by_age(tmp_path: Path) -> None:
    procs = Processes()
    try:
        server = procs.serve(
            tmp_path / "serve.db", "--max-connection-age-s", "1", "--max-calls-per-address", "2"
        )
        ends: queue.Queue[grpc.StatusCode] = queue.Queue()
        with grpc.insecure_channel(server.address, options=LOCAL) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            watches = [health.Watch(health_pb2.HealthCheckRequest()) for _ in range(2)]
            for watch in watches:
                assert next(watch).status == health_pb2.HealthCheckResponse.SERVING

            # Two calls at once from this address: a third is refused, before any work.
            with pytest.raises(grpc.RpcError) as raised:
                health.Check(health_pb2.HealthCheckRequest(), timeout=5)
            assert raised.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "at most 2 calls at once from one address" in (raised.value.details() or "")

            def drain(watch: object) -> None:
                try:
                    for _ in watch:  # type: ignore[attr-defined]
                        pass
                except grpc.RpcError as error:
                    ends.put(error.code())
                else:
                    ends.put(grpc.StatusCode.OK)

            for watch in watches:
                threading.Thread(target=drain, args=(watch,), daemon=True).start()
            # The Watch streams would last for ever; the connection's age ends them.
            codes = [ends.get(timeout=60) for _ in watches]
            assert codes == [grpc.StatusCode.UNAVAILABLE] * 2
            # Their calls no longer count against the address.
            reply = health.Check(health_pb2.HealthCheckRequest(), timeout=10)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
    finally:
        procs.kill_all()
