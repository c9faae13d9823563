"""Live pages: one watcher per app looks for newly recorded matches and tells every
open page (Server-Sent Events), which then fetches what changed.

The watcher asks the read pool for each shown ladder's newest match (one index seek
each) every ``poll_s`` seconds, and only while some page listens: a thousand open pages cost the
database what one does. Pages get a small event (the ladders that changed), never data,
so what they fetch goes through the same read limit and rendering as any other request.

A page says which match its leaderboard showed last (``since``): a match recorded
between the page's render and the watcher's first look would otherwise never be
announced to it. The page is told at once if its ladder has moved since, and the check
comes after the watcher's first look, so every later match is the watcher's to announce.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

from arena.store import Store
from arena.store.web_reads import Position, ladder_heads

from .source import WebSource

KEEPALIVE_S = 15.0
"""A comment line this often keeps proxies from closing a quiet stream."""
MAX_LISTENERS = 1000
"""Open live pages at once, at most (each holds a connection and a queue)."""


class Live:
    """The app's watcher and its listeners."""

    def __init__(self, source: WebSource) -> None:
        self.source = source
        self._listeners: set[asyncio.Queue[list[str]]] = set()
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self._watching = asyncio.Event()
        """Set once the running watcher has taken its first look."""

    @property
    def full(self) -> bool:
        """Whether no more pages may listen for now."""
        return len(self._listeners) >= MAX_LISTENERS

    async def listen(
        self, since: dict[str, Position | None] | None = None
    ) -> AsyncIterator[list[str]]:
        """The ladders of each batch of newly recorded matches, until the app stops;
        first, those of ``since`` (a ladder and the newest match a page showed of it,
        None: none) that have moved on since."""
        queue: asyncio.Queue[list[str]] = asyncio.Queue(maxsize=16)
        self._listeners.add(queue)
        if self._task is None or self._task.done():
            self._watching = asyncio.Event()
            self._task = asyncio.create_task(self._watch())
        try:
            if since:
                moved = await self._moved(since)
                if moved:
                    yield moved
            while not self._stopping.is_set():
                get = asyncio.ensure_future(queue.get())
                stop = asyncio.ensure_future(self._stopping.wait())
                done, _ = await asyncio.wait(
                    {get, stop}, timeout=KEEPALIVE_S, return_when=asyncio.FIRST_COMPLETED
                )
                for future in (get, stop):
                    if future not in done:
                        future.cancel()
                if get in done:
                    yield get.result()
                elif not done:
                    yield []  # keepalive
        finally:
            self._listeners.discard(queue)

    async def _moved(self, since: dict[str, Position | None]) -> list[str]:
        """The ladders of ``since`` (those shown here) whose newest match is no longer
        the one given; looked at after the watcher's first look."""
        shown = self.source.ladders
        wanted = sorted(name for name in since if shown is None or name in shown)
        if not wanted:
            return []
        await self._watching.wait()
        try:
            now = await self.source.reads.run(lambda store: ladder_heads(store, wanted))
        except RuntimeError:  # the pool was closed under us: the app is stopping
            return []
        return [name for name in wanted if now.get(name) != since[name]]

    def _heads(self, store: Store) -> dict[str, Position]:
        ladders = (
            sorted(self.source.ladders) if self.source.ladders is not None else store.ladders()
        )
        return ladder_heads(store, ladders)

    async def _watch(self) -> None:
        try:
            await self._watch_heads()
        finally:
            self._watching.set()  # ended without a look: no listener may wait for one

    async def _watch_heads(self) -> None:
        heads: dict[str, Position] | None = None
        while self._listeners and not self._stopping.is_set():
            try:
                now = await self.source.reads.run(self._heads)
            except RuntimeError:  # the pool was closed under us: the app is stopping
                return
            self._watching.set()
            if heads is not None:
                changed = sorted(name for name, head in now.items() if heads.get(name) != head)
                if changed:
                    for queue in list(self._listeners):
                        with contextlib.suppress(asyncio.QueueFull):  # a slow page skips one
                            queue.put_nowait(changed)
            heads = now
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.source.poll_s)

    def stop(self) -> None:
        """End every stream (so the server can stop without waiting for them)."""
        self._stopping.set()

    async def close(self) -> None:
        """Stop and wait for the watcher."""
        self.stop()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def event(ladders: list[str]) -> str:
    """One Server-Sent Event (or a keepalive comment for no ladders)."""
    if not ladders:
        return ": keepalive\n\n"
    return f"event: matches\ndata: {json.dumps({'ladders': ladders})}\n\n"
