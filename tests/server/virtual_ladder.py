"""The ladder of ``arena serve`` in-process on a virtual clock, its bots over the
scripted transport (``tests/referee/scripted.py``): how soon the ladder starts a match,
how long bots rest, in which order bots are verified, asserted exactly, with no
processes, no sleeping and no wall clock. (The gRPC service around the ladder, its
processes and its CLI are covered by the other tests here.)"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from referee.faulty_bot import Behaviour, FaultyBot
from referee.scripted import ScriptedChannel, now

from arena.referee import channels as channels_module
from arena.server.config import ServeConfig
from arena.server.ladder import Ladder
from arena.store import open_store
from arena.store.registry import BotStatus, add_bot, change_bot, get_bot

VIRTUAL_LIMIT_S = 3600.0
"""The longest (virtual) time a test waits for something before it fails."""


class Bots:
    """Scripted bots by endpoint: every channel the arena opens to ``ENDPOINT`` reaches
    the FaultyBot added for it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.by_endpoint: dict[str, FaultyBot] = {}
        monkeypatch.setattr(channels_module, "open_channel", self._open)

    def _open(self, endpoint: str, **_options: object) -> ScriptedChannel:
        bot = self.by_endpoint[endpoint]
        return ScriptedChannel(bot.play, hello=bot.hello)

    def add(self, behaviour: Behaviour) -> tuple[str, FaultyBot]:
        endpoint = f"127.0.0.1:{50100 + len(self.by_endpoint)}"
        bot = self.by_endpoint[endpoint] = FaultyBot(behaviour)
        return endpoint, bot


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


def ladder(tmp_path: Path, **settings: object) -> Watched:
    """A ladder on a new database (no verification games unless asked)."""
    db = tmp_path / "serve.db"
    config = ServeConfig(db=str(db), **{"verify_games": 0, **settings})  # type: ignore[arg-type]
    return Watched(Ladder(config, open_store(db)))


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
