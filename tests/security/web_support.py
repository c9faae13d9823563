"""Raw HTTP over real sockets to a real ``arena web`` (a subprocess on port 0, killed by
its pid by the test's ``Processes``); only loopback is ever connected to."""

from __future__ import annotations

import http.client
import os
import socket
import ssl
from pathlib import Path
from typing import NamedTuple

from server.support import PY, Processes, _read_line

from arena.store import open_store

READY = "arena web serving on "
PATIENCE_S = 60.0
"""How long a test waits for the server to answer or close: far above every timeout the
tests give the server, so a server that keeps a connection fails the test, never a slow
machine."""


class Web(NamedTuple):
    """A started ``arena web``."""

    pid: int
    url: str
    port: int


def empty_db(path: Path) -> Path:
    """An arena database with nothing in it."""
    open_store(path).close()
    return path


def start_web(procs: Processes, db: Path, *args: str, prefix: tuple[str, ...] = ()) -> Web:
    """``arena web --db DB --port 0 ARGS`` (run through ``prefix``, a launcher, if given)."""
    argv = [PY, "-m", "arena.cli", "web", "--db", str(db), "--port", "0", *args]
    popen = procs.spawn([*prefix, *argv])
    url = _read_line(popen, READY, PATIENCE_S)
    return Web(popen.pid, url, int(url.rsplit(":", 1)[1]))


def connect(port: int) -> socket.socket:
    """A fresh connection to the app."""
    return socket.create_connection(("127.0.0.1", port), timeout=PATIENCE_S)


def read_to_eof(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a reset counts as a
    close); TimeoutError if it keeps it open for PATIENCE_S."""
    sock.settimeout(PATIENCE_S)
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    return received


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` (what it sent before is read and dropped;
    nothing is waited for)."""
    timeout = sock.gettimeout()
    sock.setblocking(False)
    try:
        while sock.recv(65536):
            pass
        return True
    except BlockingIOError:
        return False
    except OSError:  # reset
        return True
    finally:
        sock.settimeout(timeout)


class Answer(NamedTuple):
    """A response, read whole."""

    status: int
    headers: http.client.HTTPMessage
    body: bytes


def request(
    port: int,
    path: str,
    *,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
    tls: ssl.SSLContext | None = None,
) -> Answer:
    """One request on its own connection (``Host: 127.0.0.1:PORT`` unless ``headers``
    name another)."""
    if tls is None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE_S)
    else:
        conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=PATIENCE_S, context=tls)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return Answer(response.status, response.headers, response.read())
    finally:
        conn.close()


def files_open(pid: int) -> int:
    """Descriptors the process has open."""
    return len(os.listdir(f"/proc/{pid}/fd"))
