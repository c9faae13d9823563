"""A match is over once MatchOver is sent: waiting for each bot to end its stream
happens in the background, and closing the channel pool waits for it, so every bot
still sees a clean end of its call. ``seats_ended`` waits for it too: a bot with a cap on
its matches at once is free only then."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import grpc

from arena.games import abluxxen as ab
from arena.referee import MatchSpec, RemoteSeat, Seat, run_match, seats_ended
from arena.referee.channels import ChannelPool
from arena.v1 import bot_pb2, bot_pb2_grpc


class LingeringBot(bot_pb2_grpc.BotServicer):
    """Answers legal_index 0; after MatchOver it keeps its stream open until released."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.ended_cleanly = 0
        self.cancelled = 0

    async def Hello(  # noqa: N802 - gRPC method name
        self, request: bot_pb2.HelloRequest, context: Any
    ) -> bot_pb2.HelloReply:
        return bot_pb2.HelloReply(name="lingering", games=["abluxxen"])

    async def Play(  # noqa: N802 - gRPC method name
        self, request_iterator: AsyncIterator[bot_pb2.ArenaMessage], context: Any
    ) -> AsyncIterator[bot_pb2.BotMessage]:
        try:
            async for message in request_iterator:
                if message.HasField("decide"):
                    yield bot_pb2.BotMessage(request_id=message.decide.request_id, legal_index=0)
                elif message.HasField("over"):
                    await self.release.wait()
            self.ended_cleanly += 1
        except asyncio.CancelledError:
            self.cancelled += 1
            raise


@contextlib.asynccontextmanager
async def _played(
    bot: LingeringBot,
) -> AsyncIterator[tuple[ChannelPool, grpc.aio.Channel, list[Seat]]]:
    """A 2-player match of ``bot`` against itself, played; its streams still open."""
    server = grpc.aio.server()
    bot_pb2_grpc.add_BotServicer_to_server(bot, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    pool = ChannelPool()
    try:
        channel = pool.get(f"127.0.0.1:{port}")
        seats: list[Seat] = [RemoteSeat(f"b{s}", channel, max_reply_bytes=4096) for s in range(2)]
        spec = MatchSpec(match_id="m", config=ab.make_config(2, "amigo"), seed=3)
        outcome = await asyncio.wait_for(run_match(spec, seats), timeout=30)
        assert not any(s.faults for s in outcome.seats)
        yield pool, channel, seats
    finally:
        await pool.close()
        await server.stop(None)


async def _scenario() -> None:
    bot = LingeringBot()
    async with _played(bot) as (pool, channel, _):
        # The match is over although both bots still hold their streams open.
        assert bot.ended_cleanly == 0
        close = channel.close
        closed: list[bool] = []

        async def watched_close(grace: float | None = None) -> None:
            closed.append(True)
            await close(grace)

        channel.close = watched_close
        closing = asyncio.create_task(pool.close())
        for _ in range(20):  # the close gets every chance to go on; the bots hold on
            await asyncio.sleep(0)
        assert not closed, "the pool closed channels under streams still ending"
        assert not closing.done()
        bot.release.set()
        await asyncio.wait_for(closing, timeout=60)  # a guard: it takes milliseconds
        assert bot.ended_cleanly == 2
        assert bot.cancelled == 0


def test_match_returns_before_bots_end_and_pool_close_waits_for_them() -> None:
    asyncio.run(_scenario())


async def _ended_scenario() -> None:
    bot = LingeringBot()
    async with _played(bot) as (_, _, seats):
        ended = asyncio.create_task(seats_ended(seats))
        for _ in range(20):  # every chance to go on; the bots still hold their streams
            await asyncio.sleep(0)
        assert not ended.done(), "the seats were called ended while the bots still played"
        bot.release.set()
        await asyncio.wait_for(ended, timeout=60)  # a guard: it takes milliseconds
        assert bot.ended_cleanly == 2


def test_seats_ended_waits_until_every_bot_has_ended_its_stream() -> None:
    asyncio.run(_ended_scenario())
