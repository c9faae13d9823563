"""A bot is never blamed for the arena's own exhaustion: a Hello before a
match, a match, or a verification that cannot reach a bot while the arena's process is
short of descriptors counts nothing against it; the ladder pauses and resumes by itself.

In-process on a virtual clock (``virtual_ladder.py``), the arena's headroom told by the
test (``Probe``) and its bots made unreachable by it (``Bots.unreachable``, ``Bots.cut``);
each case also run with headroom to spare, where the same failure is the bot's.
(``tests/security/test_arena_short.py`` runs out a real ``arena serve``'s descriptors.)

Fails without the change to ``arena/server/ladder.py`` and ``served.py`` that judges by
``arena/server/headroom.py``: the unreachable bot is suspended, or its forfeit recorded.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from referee.faulty_bot import Behaviour
from referee.scripted import run_virtual

from arena.server.headroom import Headroom, Shortage
from arena.server.ladder import Ladder
from arena.store.registry import BotStatus, get_bot

from .virtual_ladder import Bots, Watched, activate, ladder, status, submit

SHORT = Shortage(
    "file descriptors",
    "out of file descriptors: 1024 open, the limit is 1024",
    "raise the open files limit",
)


class Probe:
    """The arena's headroom, as the test says: short, or not."""

    def __init__(self) -> None:
        self.short = False

    def __call__(self) -> Shortage | None:
        return SHORT if self.short else None


def _streak(arena: Ladder, name: str) -> int:
    entry = get_bot(arena.store, name)
    assert entry is not None
    return entry.failing_streak


def _forfeits(arena: Ladder) -> tuple[int, int]:
    """Forfeited seats, and faults, recorded over every match."""
    seats = arena.store.read("SELECT count(*) FROM seats WHERE forfeited")[0][0]
    faults = arena.store.read("SELECT count(*) FROM faults")[0][0]
    return int(seats), int(faults)


async def _two_bots(watched: Watched, bots: Bots) -> tuple[str, str]:
    """Two active bots, the ladder running, two matches played (its first look done)."""
    arena = watched.ladder
    one, two = bots.add(Behaviour("ok"))[0], bots.add(Behaviour("ok"))[0]
    activate(arena, "one", one)
    activate(arena, "two", two)
    await watched.until(lambda: arena.rated_matches >= 2)
    return one, two


@pytest.mark.parametrize("short", [True, False], ids=["arena-short", "arena-fine"])
@pytest.mark.parametrize("where", ["hello", "match"])
def test_a_bot_the_arena_cannot_reach_while_short_is_not_blamed(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    short: bool,
    where: str,
) -> None:
    """``hello``: the Hello before a match fails; ``match``: Hello answers, but the
    match's stream to the bot cannot be opened (its seat is forfeited)."""
    bots = Bots(monkeypatch)
    probe = Probe()
    health: list[bool] = []

    async def report(serving: bool) -> None:
        health.append(serving)

    async def scenario() -> None:
        watched = ladder(
            tmp_path,
            Headroom(probe),
            table_size=2,
            concurrency=1,
            placement_matches=0,
            suspend_after=1,
        )
        arena = watched.ladder
        arena.report_health = report
        running = asyncio.create_task(arena.run())
        _, two = await _two_bots(watched, bots)
        played = arena.rated_matches
        # Between two matches: the next one's Hello (or its stream) finds two out of
        # reach, and the arena short (no timed look has seen it yet).
        (bots.unreachable if where == "hello" else bots.cut).add(two)
        probe.short = short
        if not short:  # the bot's own failure: counted, and one suspends it
            await watched.until(lambda: status(arena, "two") is BotStatus.SUSPENDED)
            if where == "hello":  # no match was played
                assert _forfeits(arena) == (0, 0)
            else:  # a match with its seat forfeited, after max_strikes faults
                assert _forfeits(arena) == (1, 3)
        else:
            await watched.until(lambda: arena.short_of is not None)
            assert arena.status.startswith("paused: the arena is short of file descriptors")
            assert status(arena, "two") is BotStatus.ACTIVE
            assert _streak(arena, "two") == 0
            assert arena.rated_matches == played
            spared = (
                "the Hello before a match failed for two"
                if where == "hello"
                else "is void (not recorded, not rated): a seat could not be reached"
            )
            assert spared in caplog.text
            # The arena recovers (and the bot is in reach again): matches resume.
            probe.short = False
            bots.unreachable.clear()
            bots.cut.clear()
            await watched.until(lambda: arena.rated_matches >= played + 3)
            assert arena.short_of is None
            assert status(arena, "two") is BotStatus.ACTIVE
            assert _streak(arena, "two") == 0
            assert _forfeits(arena) == (0, 0)
            assert health == [False, True]
        await arena.shutdown(0)
        await running

    caplog.set_level(logging.INFO, "arena.serve")
    run_virtual(scenario())


@pytest.mark.parametrize("short", [True, False], ids=["arena-short", "arena-fine"])
@pytest.mark.parametrize("where", ["hello", "games"])
def test_a_verification_that_fails_while_short_waits_for_the_arena(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, short: bool, where: str
) -> None:
    """``hello``: the bot's Hello fails; ``games``: Hello answers, but its conformance
    game's stream cannot be opened."""
    bots = Bots(monkeypatch)
    probe = Probe()

    async def scenario() -> None:
        watched = ladder(tmp_path, Headroom(probe), table_size=2, verify_games=1)
        arena = watched.ladder
        endpoint = bots.add(Behaviour("ok"))[0]
        (bots.unreachable if where == "hello" else bots.cut).add(endpoint)
        probe.short = short
        # Submitted before the ladder's first look: the verification itself finds the
        # arena short, when it fails.
        submit(arena, "new", endpoint)
        running = asyncio.create_task(arena.run())
        if not short:
            await watched.until(lambda: status(arena, "new") is BotStatus.SUSPENDED)
            entry = get_bot(arena.store, "new")
            assert entry is not None
            assert entry.status_reason.startswith("verification failed: ")
        else:
            await watched.until(lambda: arena.short_of is not None and not arena._verifying)
            entry = get_bot(arena.store, "new")
            assert entry is not None
            assert entry.status is BotStatus.VERIFYING
            assert entry.status_reason.startswith(
                "waiting: the arena is short of file descriptors (its own, not the bot's)"
            )
            assert "1 verification(s) wait" in arena.status
            probe.short = False
            bots.unreachable.clear()
            bots.cut.clear()
            await watched.until(lambda: status(arena, "new") is BotStatus.ACTIVE)
        await arena.shutdown(0)
        await running

    run_virtual(scenario())


def test_a_shortage_seen_during_an_attempt_is_remembered_for_it() -> None:
    """A failure is the arena's if a look found it short since the attempt began, even
    if it has recovered by the time the failure is judged; not if it recovered before."""
    probe = Probe()
    headroom = Headroom(probe)

    async def scenario() -> None:
        before = headroom.now()
        await asyncio.sleep(1)
        probe.short = True
        assert headroom.look() is SHORT
        probe.short = False
        await asyncio.sleep(1)
        assert headroom.blame(before) is SHORT
        assert headroom.blame(headroom.now()) is None
        assert headroom.look() is None

    run_virtual(scenario())
