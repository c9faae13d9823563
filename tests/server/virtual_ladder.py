"""The ladder of ``arena serve`` in-process on a virtual clock, its bots over the
scripted transport (``tests/referee/scripted.py``): how soon the ladder starts a match,
how long bots rest, in which order bots are verified, asserted exactly, with no
processes, no sleeping and no wall clock. (The gRPC service around the ladder, its
processes and its CLI are covered by the other tests here.)"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
from referee.faulty_bot import Behaviour, FaultyBot
from referee.scripted import ScriptedChannel, ScriptedContext, now

from arena.referee import channels as channels_module
from arena.server.config import ServeConfig
from arena.server.headroom import Headroom
from arena.server.ladder import Ladder
from arena.store import open_store
from arena.store.registry import BotStatus, add_bot, change_bot, get_bot
from arena.v1 import bot_pb2

VIRTUAL_LIMIT_S = 3600.0
"""The longest (virtual) time a test waits for something before it fails."""


class Bots:
    """Scripted bots by endpoint: every channel the arena opens to ``ENDPOINT`` reaches
    the FaultyBot added for it, unless the endpoint is in ``unreachable`` (then Hello
    fails UNAVAILABLE, and so does every Play call, at once) or in ``cut`` (then only
    the Play calls do)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.by_endpoint: dict[str, FaultyBot] = {}
        self.unreachable: set[str] = set()
        """Endpoints no connection reaches now (as when the arena cannot connect)."""
        self.cut: set[str] = set()
        """Endpoints whose Play calls fail UNAVAILABLE at once, though Hello answers
        (a connection that broke under a match)."""
        monkeypatch.setattr(channels_module, "open_channel", self._open)

    def _open(self, endpoint: str, **_options: object) -> ScriptedChannel:
        return _Reachable(self, endpoint)

    def add(self, behaviour: Behaviour) -> tuple[str, FaultyBot]:
        endpoint = f"127.0.0.1:{50100 + len(self.by_endpoint)}"
        bot = self.by_endpoint[endpoint] = FaultyBot(behaviour)
        return endpoint, bot


UNREACHABLE = "failed to connect to all addresses"
"""gRPC's words for a channel that cannot connect."""


class _Reachable(ScriptedChannel):
    """A scripted channel to one of ``Bots``' bots, reachable or not as ``Bots`` says at
    each call."""

    def __init__(self, bots: Bots, endpoint: str) -> None:
        super().__init__(self._play_or_fail, hello=self._hello_or_fail)
        self._bots = bots
        self._endpoint = endpoint

    @property
    def _down(self) -> bool:
        return self._endpoint in self._bots.unreachable

    def get_state(self, try_to_connect: bool = False) -> grpc.ChannelConnectivity:
        if self._down:
            return grpc.ChannelConnectivity.TRANSIENT_FAILURE
        return grpc.ChannelConnectivity.READY

    async def _hello_or_fail(self, request: bot_pb2.HelloRequest, context: Any) -> Any:
        if self._down:
            raise grpc.aio.AioRpcError(
                grpc.StatusCode.UNAVAILABLE,
                grpc.aio.Metadata(),
                grpc.aio.Metadata(),
                details=UNREACHABLE,
            )
        return await self._bots.by_endpoint[self._endpoint].hello(request, context)

    def _play_or_fail(
        self, requests: AsyncIterator[bot_pb2.ArenaMessage], context: ScriptedContext
    ) -> AsyncIterator[bytes]:
        if self._down or self._endpoint in self._bots.cut:
            return _refused(context)
        return self._bots.by_endpoint[self._endpoint].play(requests, context)


async def _refused(context: ScriptedContext) -> AsyncIterator[bytes]:
    await context.abort(grpc.StatusCode.UNAVAILABLE, UNREACHABLE)
    yield b""  # never reached: an async generator, as a Play handler is


class Watched:
    """A ladder, and a wait for it to change: whatever the ladder does that matters
    (a match ends, a verification ends) calls its ``wake``, which this wraps, so waiting
    needs neither polling nor time to pass."""

    def __init__(self, ladder: Ladder) -> None:
        self.ladder = ladder
        self._changed = asyncio.Event()
        wake = ladder.wake

        def woken() -> None:
            wake()
            self._changed.set()

        ladder.wake = woken  # type: ignore[method-assign]

    async def until(self, condition: Callable[[], object]) -> float:
        """Wait until ``condition()`` holds (checked whenever the ladder wakes); the
        virtual time it held at."""
        deadline = now() + VIRTUAL_LIMIT_S
        while not condition():
            if now() > deadline:
                raise AssertionError(f"not so after {VIRTUAL_LIMIT_S:g} virtual seconds")
            self._changed.clear()
            async with asyncio.timeout(VIRTUAL_LIMIT_S):
                await self._changed.wait()
        return now()


def ladder(tmp_path: Path, headroom: Headroom | None = None, **settings: object) -> Watched:
    """A ladder on a new database (no verification games unless asked), looking at its
    headroom with ``headroom`` (default: the real one)."""
    db = tmp_path / "serve.db"
    config = ServeConfig(db=str(db), **{"verify_games": 0, **settings})  # type: ignore[arg-type]
    return Watched(Ladder(config, open_store(db), headroom=headroom))


def submit(ladder: Ladder, name: str, endpoint: str, owner: str = "alice") -> None:
    """Store a bot as submitted (VERIFYING) and start verifying it."""
    add_bot(ladder.store, name, owner, endpoint, "")
    ladder.verify(name)


def activate(ladder: Ladder, name: str, endpoint: str, owner: str = "alice") -> None:
    """Store a bot as already verified and active."""
    add_bot(ladder.store, name, owner, endpoint, "")
    change_bot(ladder.store, name, status=BotStatus.ACTIVE, status_reason="", placement_left=0)
    ladder.wake()


def status(ladder: Ladder, name: str) -> BotStatus:
    entry = get_bot(ladder.store, name)
    assert entry is not None
    return entry.status
