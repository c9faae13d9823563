"""The web app inside ``arena serve`` (``--web-port``): the same app over the arena's own
read pool, showing only the arena's ladder and never a match it is still playing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from arena.server.app import RunningArena

from .app import create_app
from .server import bind, start, url_of
from .source import WebSource


async def start_web(
    arena: RunningArena, host: str, port: int
) -> tuple[str, Callable[[], Awaitable[None]]]:
    """Serve the web app for ``arena`` on ``host:port``; its address, and how to stop it.
    OSError in words if it cannot listen."""
    config = arena.ladder.config
    ladder = arena.ladder
    source = WebSource(
        arena.reads,
        ladders=frozenset({config.ladder}),
        running=lambda: ladder.running.keys(),
        read_rate=config.read_rate,
        read_burst=config.read_burst,
        title="Arena",
    )
    sock = bind(host, port)
    server, task = await start(create_app(source), sock)

    async def stop() -> None:
        await server.stop()
        await task
        sock.close()

    return url_of(sock), stop
