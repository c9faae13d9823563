"""A bot whose streams keep breaking is backed off by the channel pool (channels.py),
on the arena's clock: here a virtual one, with the bot over a scripted transport."""

from __future__ import annotations

import asyncio

import pytest

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import FaultKind, LocalSeat, MatchOutcome, MatchSpec, RemoteSeat, Seat, run_match
from arena.referee import channels as channels_module
from arena.referee.channels import BACKOFF_AFTER, BACKOFF_FIRST_S, BACKOFF_MAX_S, ChannelPool
from arena.referee.ending import streams_ended

from .faulty_bot import Behaviour, FaultyBot
from .scripted import ScriptedChannel, now, run_virtual

ENDPOINT = "127.0.0.1:50999"


@pytest.fixture
def bot(monkeypatch: pytest.MonkeyPatch) -> FaultyBot:
    """A faulty bot every channel of a pool reaches (over the scripted transport)."""
    faulty = FaultyBot(Behaviour("end_after_start"))
    channel = ScriptedChannel(faulty.play)
    monkeypatch.setattr(channels_module, "open_channel", lambda endpoint, **_: channel)
    return faulty


async def one_match(pool: ChannelPool, index: int = 0) -> MatchOutcome:
    seats: list[Seat] = [
        RemoteSeat("bot", pool.get(ENDPOINT), max_reply_bytes=4096),
        LocalSeat("r1", RandomPolicy(1)),
    ]
    spec = MatchSpec(
        match_id=f"m{index}", config=ab.make_config(2, "amigo"), seed=index, max_strikes=1
    )
    outcome = await run_match(spec, seats)
    await streams_ended()
    return outcome


def test_the_backoff_doubles_while_the_bot_fails_and_ends_when_it_plays(bot: FaultyBot) -> None:
    async def scenario() -> None:
        pool = ChannelPool()
        for index in range(BACKOFF_AFTER):
            outcome = await one_match(pool, index)
            assert "backing off" not in outcome.seats[0].faults[0].detail
        assert bot.streams == BACKOFF_AFTER
        assert pool.backoff_s(ENDPOINT, now()) == pytest.approx(BACKOFF_FIRST_S)

        refused = await one_match(pool)
        assert bot.streams == BACKOFF_AFTER
        first = refused.seats[0].faults[0]
        assert first.kind is FaultKind.DISCONNECTED
        assert first.detail.startswith("the arena is backing off from this bot for 1.0 s more")
        assert "the last: DISCONNECTED: the bot closed the stream" in first.detail

        # Once the backoff is over, one more stream is tried; it breaks: twice as long.
        await asyncio.sleep(BACKOFF_FIRST_S)
        await one_match(pool)
        assert bot.streams == BACKOFF_AFTER + 1
        assert pool.backoff_s(ENDPOINT, now()) == pytest.approx(2 * BACKOFF_FIRST_S)

        # The bot is mended: the next stream after the backoff plays, and all is forgotten.
        bot.behaviour = Behaviour("ok")
        await asyncio.sleep(2 * BACKOFF_FIRST_S)
        played = await one_match(pool)
        assert played.seats[0].faults == []
        assert pool.backoff_s(ENDPOINT, now()) == 0.0
        await pool.close()

    run_virtual(scenario())


def test_the_backoff_is_capped(bot: FaultyBot) -> None:
    async def scenario() -> list[float]:
        pool = ChannelPool()
        waits = []
        for index in range(BACKOFF_AFTER + 10):
            await one_match(pool, index)
            waits.append(pool.backoff_s(ENDPOINT, now()))
            await asyncio.sleep(waits[-1])
        await pool.close()
        return waits

    waits = run_virtual(scenario())
    assert waits[BACKOFF_AFTER - 1 :] == pytest.approx(
        [
            1.0,
            2.0,
            4.0,
            8.0,
            16.0,
            32.0,
            BACKOFF_MAX_S,
            BACKOFF_MAX_S,
            BACKOFF_MAX_S,
            BACKOFF_MAX_S,
            BACKOFF_MAX_S,
        ]
    )


def test_a_stream_that_times_out_is_no_failure(bot: FaultyBot) -> None:
    # A slow bot is there: its timeouts are strikes, not a reason to stop reaching it.
    bot.behaviour = Behaviour("hang")

    async def scenario() -> int:
        pool = ChannelPool()
        for index in range(2 * BACKOFF_AFTER):
            outcome = await one_match(pool, index)
            assert {f.kind for f in outcome.seats[0].faults} == {FaultKind.TIMEOUT}
        await pool.close()
        return bot.streams

    assert run_virtual(scenario()) == 2 * BACKOFF_AFTER


def test_discarding_the_channel_forgets_the_failures(bot: FaultyBot) -> None:
    async def scenario() -> float:
        pool = ChannelPool()
        for index in range(BACKOFF_AFTER):
            await one_match(pool, index)
        assert pool.backoff_s(ENDPOINT, now()) > 0
        await pool.discard(ENDPOINT)  # e.g. the bot was fixed and verified again
        return pool.backoff_s(ENDPOINT, now())

    assert run_virtual(scenario()) == 0.0
