"""With concurrency 1 the ladder starts the next match as soon as one ends (it used to
count the ending match as still in play and wait for its next timed look, 2 s later).
In-process on a virtual clock (``virtual_ladder.py``): the bots answer at once, so ten
matches take no time at all, where the old wait made them take 18 s."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from referee.faulty_bot import Behaviour
from referee.scripted import run_virtual

from arena.server.ladder import IDLE_POLL_S

from .virtual_ladder import Bots, activate, ladder


def test_matches_follow_each_other_without_a_pause(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bots = Bots(monkeypatch)

    async def scenario() -> float:
        watched = ladder(tmp_path, table_size=2, concurrency=1, placement_matches=0)
        arena = watched.ladder
        for name in ("one", "two"):
            activate(arena, name, bots.add(Behaviour("ok"))[0])
        running = asyncio.create_task(arena.run())
        first = await watched.until(lambda: arena.rated_matches >= 1)
        tenth = await watched.until(lambda: arena.rated_matches >= 10)
        await arena.shutdown(0)
        await running
        return tenth - first

    took = run_virtual(scenario())
    # Nine more matches, each started the moment the one before ended: no timed look
    # (every IDLE_POLL_S) was waited for.
    assert took < IDLE_POLL_S
    assert took == pytest.approx(0.0, abs=0.01)
