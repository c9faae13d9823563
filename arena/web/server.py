"""Serving the app with uvicorn: on its own (``arena web``) or beside the gRPC server on
``arena serve``'s event loop (``--web-port``)."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Iterator
from types import FrameType

import uvicorn
from starlette.applications import Starlette

from arena.server.app import host_port

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


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: any free port); OSError in words if it cannot."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise OSError(
            f"cannot listen on {host_port(host, port)}: {error.strerror or error}; "
            "give another --web-port (or --port), or 0 for any free one"
        ) from None
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    """The app's address, as a person types it."""
    host, port = sock.getsockname()[:2]
    return f"http://{host_port(host, port)}"


class WebServer(uvicorn.Server):
    """uvicorn, ending the live pages' streams first when told to stop (otherwise a
    stop would wait for pages that never close)."""

    def __init__(self, app: Starlette, *, own_signals: bool) -> None:
        super().__init__(
            uvicorn.Config(
                app,
                log_level="warning",
                timeout_graceful_shutdown=int(GRACE_S),
                lifespan="on",
                access_log=False,
            )
        )
        self.app = app
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
    app: Starlette, sock: socket.socket, on_ready: Callable[[str], Awaitable[None] | None]
) -> None:
    """Serve ``app`` on ``sock`` until SIGINT or SIGTERM (``arena web``); ``on_ready``
    gets the address once the app serves (a coroutine is awaited, on the app's loop; if
    it raises, the app stops and ``run`` raises that)."""
    server = WebServer(app, own_signals=True)

    async def main() -> None:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.01)
        if server.started:
            ready = on_ready(url_of(sock))
            if ready is not None:
                try:
                    await ready
                except BaseException:
                    await server.stop()  # what made it fail reaches run()'s caller
                    await task
                    raise
        await task

    asyncio.run(main())


async def start(app: Starlette, sock: socket.socket) -> tuple[WebServer, asyncio.Task[None]]:
    """Serve ``app`` on ``sock`` on the running loop (``arena serve --web-port``); stop
    it with ``server.stop()`` then await the task."""
    server = WebServer(app, own_signals=False)
    task = asyncio.create_task(server.serve(sockets=[sock]), name="web")
    while not server.started and not task.done():
        await asyncio.sleep(0.01)
    if task.done():
        await task  # raises why it could not start
    return server, task
