"""Hello against a real gRPC server whose answer does not decode as a HelloReply: a plain
"Hello failed" result, never an exception (every caller, from `arena match` to the
ladder, relies on ``HelloResult.error``)."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from arena.games import get as get_game
from arena.referee.channels import ChannelPool
from arena.referee.conformance import check_bot
from arena.referee.hello import hello
from arena.v1 import bot_pb2

from .faulty_bot import serve_handler

GARBAGE = {
    "not protobuf": b"\xff\xff\xff",
    "truncated field": b"\x0a\x10abc",
    "bad utf-8 name": b"\x0a\x02\xc3\x28",
}
"""Hello answers that are no HelloReply."""


async def start_garbage_hello_bot(answer: bytes) -> tuple[grpc.aio.Server, str]:
    """A server whose Hello answers ``answer`` as its raw bytes; 127.0.0.1:0."""

    async def garbage(request: bot_pb2.HelloRequest, context: grpc.aio.ServicerContext) -> bytes:
        return answer

    handler = grpc.method_handlers_generic_handler(
        "arena.v1.Bot",
        {
            "Hello": grpc.unary_unary_rpc_method_handler(
                garbage,
                request_deserializer=bot_pb2.HelloRequest.FromString,
                response_serializer=lambda raw: raw,
            )
        },
    )
    return await serve_handler(handler)


@pytest.mark.parametrize("answer", sorted(GARBAGE), ids=str)
def test_an_undecodable_hello_answer_is_a_plain_failure(answer: str) -> None:
    async def scenario() -> tuple[bot_pb2.HelloReply | None, str, str]:
        server, endpoint = await start_garbage_hello_bot(GARBAGE[answer])
        pool = ChannelPool()
        try:
            result = await hello(pool.get(endpoint), endpoint, timeout_s=5.0)
            return result.reply, result.error, endpoint
        finally:
            await pool.close()
            await server.stop(None)

    reply, error, endpoint = asyncio.run(scenario())
    assert reply is None
    assert error == (
        f"the bot at {endpoint} answered Hello with bytes that are not an arena.v1.HelloReply; "
        "is it an arena bot, built from proto/arena/v1/bot.proto?"
    )


def test_check_bot_reports_an_undecodable_hello_instead_of_crashing() -> None:
    async def scenario() -> tuple[str, bool, int]:
        server, endpoint = await start_garbage_hello_bot(GARBAGE["not protobuf"])
        try:
            report = await check_bot(
                get_game("abluxxen"), endpoint, games=1, deadline_ms=200, seed=1
            )
            return report.hello_error, report.passed, report.games
        finally:
            await server.stop(None)

    hello_error, passed, games = asyncio.run(scenario())
    assert "answered Hello with bytes that are not an arena.v1.HelloReply" in hello_error
    assert not passed
    assert games == 0
