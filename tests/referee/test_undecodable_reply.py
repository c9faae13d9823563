"""A Play reply whose bytes are not a BotMessage (grpc.aio hands the reader None for it,
and the call goes on) is a MALFORMED fault of the decision it answers, not a closed
stream: the stream stays open, and the bot's next good reply counts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
import pytest

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import FaultKind, LocalSeat, MatchOutcome, MatchSpec, RemoteSeat, Seat, run_match
from arena.referee.channels import ChannelPool
from arena.v1 import bot_pb2

from .faulty_bot import serve_handler

UNDECODABLE = b"\xff\xff\xff"
"""Field number 0 in a varint that never ends: no protobuf parser takes it."""
DETAIL = "the reply's bytes are not an arena.v1.BotMessage"


async def start_undecodable_bot(bad: set[int]) -> tuple[grpc.aio.Server, str]:
    """A bot that answers its decisions number ``bad`` (1-based, per stream) with
    undecodable bytes, and every other one with a good reply; 127.0.0.1:0."""

    async def play(
        requests: AsyncIterator[bot_pb2.ArenaMessage], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[bytes]:
        decided = 0
        async for message in requests:
            if not message.HasField("decide"):
                continue
            decided += 1
            if decided in bad:
                yield UNDECODABLE
            else:
                request_id = message.decide.request_id
                yield bot_pb2.BotMessage(request_id=request_id, legal_index=0).SerializeToString()

    async def hello(
        request: bot_pb2.HelloRequest, context: grpc.aio.ServicerContext
    ) -> bot_pb2.HelloReply:
        return bot_pb2.HelloReply(name="undecodable", games=["abluxxen"])

    handler = grpc.method_handlers_generic_handler(
        "arena.v1.Bot",
        {
            "Hello": grpc.unary_unary_rpc_method_handler(
                hello,
                request_deserializer=bot_pb2.HelloRequest.FromString,
                response_serializer=bot_pb2.HelloReply.SerializeToString,
            ),
            "Play": grpc.stream_stream_rpc_method_handler(
                play,
                request_deserializer=bot_pb2.ArenaMessage.FromString,
                response_serializer=lambda raw: raw,
            ),
        },
    )
    return await serve_handler(handler)


def play(bad: set[int], max_strikes: int = 0) -> MatchOutcome:
    async def main() -> MatchOutcome:
        server, endpoint = await start_undecodable_bot(bad)
        pool = ChannelPool()
        try:
            seats: list[Seat] = [
                RemoteSeat("bot", pool.get(endpoint), max_reply_bytes=4096),
                LocalSeat("r1", RandomPolicy(1)),
                LocalSeat("r2", RandomPolicy(2)),
            ]
            spec = MatchSpec(
                match_id="m",
                config=ab.make_config(3, "amigo"),
                seed=5,
                deadline_ms=500,
                max_strikes=max_strikes,
                connect_timeout_s=2.0,
            )
            return await run_match(spec, seats)
        finally:
            await pool.close()
            await server.stop(None)

    return asyncio.run(main())


def test_an_undecodable_reply_is_malformed_and_the_stream_goes_on() -> None:
    outcome = play({3, 5})
    seat = outcome.seats[0]
    assert [(f.kind, f.detail) for f in seat.faults] == [(FaultKind.MALFORMED, DETAIL)] * 2
    # The faults are those of the bot's decisions 3 and 5, the ones it garbled.
    mine = [line for line in outcome.record if line["type"] == "decision" and line["seat"] == 0]
    assert [i for i, line in enumerate(mine, start=1) if "fault" in line] == [3, 5]
    assert seat.decisions > 10  # every other decision was the bot's own good reply
    assert not seat.forfeited


@pytest.mark.parametrize("max_strikes", [0, 3])
def test_a_bot_that_only_sends_garbage_is_malformed_every_time(max_strikes: int) -> None:
    outcome = play(set(range(1, 1000)), max_strikes=max_strikes)
    seat = outcome.seats[0]
    assert {f.kind for f in seat.faults} == {FaultKind.MALFORMED}
    assert all(f.detail == DETAIL for f in seat.faults)
    assert seat.forfeited == (max_strikes > 0)
    if max_strikes:
        assert len(seat.faults) == max_strikes
    else:
        assert len(seat.faults) == seat.decisions
