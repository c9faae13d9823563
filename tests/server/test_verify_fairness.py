"""One owner's slow bots cannot hold every verification slot: an owner's bots are
verified one at a time, so another owner's bot goes through meanwhile. In-process on a
virtual clock (``virtual_ladder.py``): mallory's bots take 300 ms per decision, so each
of their verifications lasts many (virtual) seconds; alice's bot answers at once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from referee.faulty_bot import Behaviour
from referee.scripted import now, run_virtual

from arena.server.ladder import VERIFY_AT_ONCE
from arena.store.registry import BotStatus

from .virtual_ladder import Bots, ladder, status, submit


def test_a_slow_owner_does_not_stall_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bots = Bots(monkeypatch)
    slow = Behaviour("sleep", after=0, sleep_s=0.3)

    async def scenario() -> tuple[float, float, dict[str, BotStatus]]:
        watched = ladder(tmp_path, table_size=2, verify_games=1)
        arena = watched.ladder
        for name in ("slow-a", "slow-b"):  # as many as there are slots, queued first
            submit(arena, name, bots.add(slow)[0], owner="mallory")
        for _ in range(20):
            await asyncio.sleep(0)
        started = now()
        submit(arena, "quick", bots.add(Behaviour("ok"))[0], owner="alice")
        quick = await watched.until(lambda: status(arena, "quick") is BotStatus.ACTIVE)
        statuses = {name: status(arena, name) for name in ("slow-a", "slow-b")}
        first_slow = await watched.until(
            lambda: (
                status(arena, "slow-a") is not BotStatus.VERIFYING
                or status(arena, "slow-b") is not BotStatus.VERIFYING
            )
        )
        await arena.shutdown(0)
        return quick - started, first_slow - started, statuses

    assert VERIFY_AT_ONCE == 2
    waited, slow_took, statuses = run_virtual(scenario())
    # Alice's bot was verified while both of mallory's were still being verified (one
    # of them waits its turn behind the other and holds no slot), not after one of them.
    assert statuses == {"slow-a": BotStatus.VERIFYING, "slow-b": BotStatus.VERIFYING}
    assert waited < slow_took
    assert waited == pytest.approx(0.0, abs=0.01)
