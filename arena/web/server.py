"""Serving the app with uvicorn: on its own (``arena web``) or beside the gRPC server on
``arena serve``'s event loop (``--web-port``).

What a client may hold of the server (uvicorn has no cap on connections it accepts, and
its timeouts run only between requests, reset by any byte received):

- connections at once: ``WebOptions.max_connections``, but never more than an eighth of
  the descriptors the process may open (``web_connection_cap``; the gRPC side keeps its
  half). ``Listener`` counts them as it accepts them, a TLS connection still in its
  handshake included, and closes one over the cap at once (plain HTTP: after a 503).
  uvicorn's ``limit_concurrency`` is no substitute: it answers 503 only once a request
  has arrived, on a connection already holding its descriptor;
- time: a connection has ``idle_timeout_s`` from when it opens (after the TLS handshake,
  which asyncio bounds at 60 s) or its last answer ends to send a whole request, head and
  body (``GuardedH11``), however it spreads the bytes: a client sending one byte a second
  is closed as an idle one is;
- a request's head is at most ``MAX_HEAD_BYTES`` (h11's own limit); its body, the app's
  ``guards.BodyLimit``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import math
import socket
import ssl
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import Any, ClassVar, Final

import uvicorn
from starlette.applications import Starlette
from uvicorn.protocols.http.h11_impl import H11Protocol

from arena.server.app import host_port
from arena.server.connections import raise_fd_limit, web_connection_cap

LOOPBACK = "127.0.0.1"
"""Where the app listens unless told otherwise."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


GRACE_S = 2.0
"""How long a stop waits for requests under way."""
MAX_HEAD_BYTES: Final = 16 * 1024
"""A request's line and headers, at most (h11 answers 400 past it)."""
BACKLOG: Final = 128
"""Connections the kernel queues before the server accepts them (they hold no
descriptor of the process)."""


@dataclass(frozen=True)
class WebOptions:
    """How the app is served."""

    max_connections: int
    """Connections at once (capped by the open-files limit: ``web_connection_cap``)."""
    idle_timeout_s: float
    """Time a connection has to send a whole request (``GuardedH11``)."""
    tls_cert: str | None = None
    """PEM certificate chain: serve HTTPS (with ``tls_key``)."""
    tls_key: str | None = None

    @property
    def tls(self) -> bool:
        """Whether the app is served over TLS."""
        return self.tls_cert is not None


def options_problem(options: WebOptions, prefix: str = "") -> str | None:
    """What is wrong with ``options``, in words naming the options (``--PREFIXmax-...``;
    the TLS ones have no prefix); None: nothing."""
    if options.max_connections < 1:
        return f"--{prefix}max-connections must be at least 1"
    if not (options.idle_timeout_s > 0 and math.isfinite(options.idle_timeout_s)):
        return f"--{prefix}idle-timeout-s must be a positive number"
    if (options.tls_cert is None) != (options.tls_key is None):
        return "give both --tls-cert and --tls-key, or neither"
    if options.tls_cert is not None and options.tls_key is not None:
        try:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(options.tls_cert, options.tls_key)
        except FileNotFoundError as error:
            return f"no file {error.filename}"
        except (ssl.SSLError, OSError) as error:
            return f"cannot use --tls-cert and --tls-key: {error}"
    return None


def plain_http_problem(host: str, tls: bool, insecure: bool, flag: str = "--host") -> str | None:
    """Why the app must not listen on ``host`` (None: it may): beyond loopback, plain HTTP
    carries the play token (in the address and a cookie) and owners' tokens in clear,
    so it takes TLS or an explicit ``--insecure``."""
    if tls or insecure or is_loopback(host):
        return None
    return (
        f"{flag} {host} takes requests from other machines, and without TLS the play token "
        "would cross the network in clear: serve HTTPS (--tls-cert FILE --tls-key FILE), "
        "or add --insecure if the network is one you trust (or a TLS proxy on this machine "
        "is in front: then listen on 127.0.0.1)"
    )


class Listener(socket.socket):
    """A listening socket that holds at most ``cap`` accepted connections at once (None:
    no cap); one over it is closed as it is accepted, after ``refusal`` is sent.

    asyncio's loop accepts with ``sock.accept()`` and drops a connection whose accept
    raises ConnectionAbortedError without a word."""

    def __init__(self, family: int, kind: int) -> None:
        super().__init__(family, kind)
        self.cap: int | None = None
        self.refusal = b""
        self.held: list[socket.socket] = []
        """The connections accepted and not yet closed."""

    def accept(self) -> tuple[socket.socket, Any]:
        """The next connection, if the cap leaves room for it."""
        conn, address = super().accept()
        if self.cap is None:
            return conn, address
        # The server closes a connection's socket when it ends: its descriptor is back.
        held = self.held = [c for c in self.held if c.fileno() != -1]
        if len(held) >= self.cap:
            with contextlib.suppress(OSError):
                conn.setblocking(False)
                conn.send(self.refusal)
            conn.close()
            raise ConnectionAbortedError("over the web app's connection cap")
        held.append(conn)
        return conn, address


def refusal(max_connections: int) -> bytes:
    """The answer of a plain HTTP connection over the cap."""
    body = (
        f"this arena's web app has {max_connections} connections open, as many as it "
        "holds; try again in a few seconds\n"
    ).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        "Retry-After: 5\r\n"
        "Connection: close\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection that has not sent a whole
    request (head and body) ``request_timeout_s`` after it opened or its last answer
    ended. uvicorn's own keep-alive timeout restarts at every byte received and does not
    run before the first request, so a client sending a byte now and then, or nothing,
    would hold its connection for good."""

    request_timeout_s: ClassVar[float]
    """Set by ``guarded_protocol``."""
    _timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """As uvicorn, and the first request's deadline starts."""
        super().connection_made(transport)
        self._await_request()

    def on_response_complete(self) -> None:
        """As uvicorn, and the next request's deadline starts (before uvicorn goes on to
        a request already received: that one has arrived in time)."""
        self._await_request()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        """As uvicorn, without the deadline."""
        if self._timer is not None:
            self._timer.cancel()
        super().connection_lost(exc)

    def _await_request(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        answered = self.cycle
        self._timer = self.loop.call_later(self.request_timeout_s, self._expire, answered)

    def _expire(self, answered: object) -> None:
        arrived = self.cycle is not answered and self.cycle is not None
        if arrived and not self.cycle.more_body:
            return  # a whole request came in time; its answer restarts the clock
        if not self.transport.is_closing():
            self.transport.close()


def guarded_protocol(request_timeout_s: float) -> type[GuardedH11]:
    """``GuardedH11`` with this deadline."""
    return type("GuardedH11", (GuardedH11,), {"request_timeout_s": request_timeout_s})


def bind(host: str, port: int) -> Listener:
    """A listening socket (port 0: any free port); OSError in words if it cannot."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = Listener(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError as error:
        sock.close()
        raise OSError(
            f"cannot listen on {host_port(host, port)}: {error.strerror or error}; "
            "give another --web-port (or --port), or 0 for any free one"
        ) from None
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket, options: WebOptions) -> str:
    """The app's address, as a person types it."""
    host, port = sock.getsockname()[:2]
    return f"{'https' if options.tls else 'http'}://{host_port(host, port)}"


class WebServer(uvicorn.Server):
    """uvicorn, serving on a ``Listener`` under ``options``, and ending the live pages'
    streams first when told to stop (otherwise a stop would wait for pages that never
    close)."""

    def __init__(
        self, app: Starlette, sock: Listener, options: WebOptions, *, own_signals: bool
    ) -> None:
        fds = raise_fd_limit()  # arena serve has raised it already; arena web has not
        cap = web_connection_cap(options.max_connections, fds.soft)
        sock.cap = cap
        sock.refusal = b"" if options.tls else refusal(cap)
        super().__init__(
            uvicorn.Config(
                app,
                http=guarded_protocol(options.idle_timeout_s),
                h11_max_incomplete_event_size=MAX_HEAD_BYTES,
                # GuardedH11's deadline covers the time between requests too.
                timeout_keep_alive=math.ceil(options.idle_timeout_s),
                backlog=BACKLOG,
                ssl_certfile=options.tls_cert,
                ssl_keyfile=options.tls_key,
                log_level="warning",
                timeout_graceful_shutdown=int(GRACE_S),
                lifespan="on",
                access_log=False,
            )
        )
        self.app = app
        self.sock = sock
        self.own_signals = own_signals

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Inside ``arena serve`` the arena handles signals itself."""
        if self.own_signals:
            with super().capture_signals():
                yield
        else:
            yield

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """Stop: end the live streams, then as uvicorn does."""
        self.app.state.live.stop()
        super().handle_exit(sig, frame)

    async def stop(self) -> None:
        """Stop serving (from the same loop) and wait until it has."""
        self.app.state.live.stop()
        self.should_exit = True


def run(
    app: Starlette,
    sock: Listener,
    on_ready: Callable[[str], Awaitable[None] | None],
    options: WebOptions,
) -> None:
    """Serve ``app`` on ``sock`` until SIGINT or SIGTERM (``arena web``); ``on_ready``
    gets the address once the app serves (a coroutine is awaited, on the app's loop; if
    it raises, the app stops and ``run`` raises that)."""
    server = WebServer(app, sock, options, own_signals=True)

    async def main() -> None:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.01)
        if server.started:
            ready = on_ready(url_of(sock, options))
            if ready is not None:
                try:
                    await ready
                except BaseException:
                    await server.stop()  # what made it fail reaches run()'s caller
                    await task
                    raise
        await task

    asyncio.run(main())


async def start(
    app: Starlette, sock: Listener, options: WebOptions
) -> tuple[WebServer, asyncio.Task[None]]:
    """Serve ``app`` on ``sock`` on the running loop (``arena serve --web-port``); stop
    it with ``server.stop()`` then await the task."""
    server = WebServer(app, sock, options, own_signals=False)
    task = asyncio.create_task(server.serve(sockets=[sock]), name="web")
    while not server.started and not task.done():
        await asyncio.sleep(0.01)
    if task.done():
        await task  # raises why it could not start
    return server, task
