"""`arena serve --rest-s`: a bot rests after each ladder match before it is seated
again, so a small ladder does not play hundreds of matches a minute. In-process on a
virtual clock (``virtual_ladder.py``): the bots answer at once, so every gap between two
matches of a bot is its rest, exactly."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest
from referee.faulty_bot import Behaviour
from referee.scripted import run_virtual

from .virtual_ladder import Bots, activate, ladder

REST_S = 1.5


def test_bots_rest_between_ladder_matches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bots = Bots(monkeypatch)

    async def scenario() -> list[float]:
        watched = ladder(tmp_path, table_size=2, placement_matches=0, rest_s=REST_S)
        arena = watched.ladder
        for name in ("one", "two"):
            activate(arena, name, bots.add(Behaviour("ok"))[0])
        running = asyncio.create_task(arena.run())
        ends = []
        for n in range(1, 8):
            ends.append(await watched.until(lambda: arena.rated_matches >= n))  # noqa: B023
        await arena.shutdown(0)
        await running
        return ends

    ends = run_virtual(scenario())
    # A match between two bots that answer at once takes no time: without rests there
    # would be no gap at all; with them, each gap is the rest (not the ladder's 2 s look).
    gaps = [b - a for a, b in itertools.pairwise(ends)]
    assert gaps == pytest.approx([REST_S] * 6)
