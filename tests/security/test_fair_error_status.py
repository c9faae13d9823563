"""Fault kinds are exact: a bot that ends its stream with an error status right after
MatchStart is an ERROR with the bot's own message, whatever the timing.

The arena's next write used to race the reader: when the write saw the finished call
first, the fault was DISCONNECTED ("RPC already finished") instead of ERROR. Failed on
a35e272 (about 2 runs in 3 were DISCONNECTED); passes now. 200 matches against an
in-process gRPC server on port 0, some asked at once, some after a few loop turns.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
import pytest

from arena.games import abluxxen as ab
from arena.policies import RandomPolicy
from arena.referee import FaultKind, LocalSeat, MatchSpec, RemoteSeat, Seat, run_match
from arena.referee.channels import open_channel
from arena.referee.ending import streams_ended
from arena.v1 import bot_pb2

RUNS = 200
MESSAGE = "the bot gave up at once"


async def _abort_after_start(
    requests: AsyncIterator[bot_pb2.ArenaMessage], context: grpc.aio.ServicerContext
) -> AsyncIterator[bytes]:
    async for message in requests:
        if message.HasField("start"):
            await context.abort(grpc.StatusCode.INTERNAL, MESSAGE)
    if False:  # an async generator that never yields
        yield b""


async def _server() -> tuple[grpc.aio.Server, str]:
    handler = grpc.method_handlers_generic_handler(
        "arena.v1.Bot",
        {
            "Play": grpc.stream_stream_rpc_method_handler(
                _abort_after_start,
                request_deserializer=bot_pb2.ArenaMessage.FromString,
                response_serializer=lambda raw: raw,
            )
        },
    )
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return server, f"127.0.0.1:{port}"


class _Yielding(LocalSeat):
    """A local seat that first lets the loop turn ``turns`` times: it shifts when the
    bot's first request is written relative to the bot's error status arriving."""

    def __init__(self, name: str, turns: int) -> None:
        super().__init__(name, RandomPolicy(1))
        self._turns = turns

    async def open(self, start: bot_pb2.MatchStart, timeout_s: float) -> None:
        for _ in range(self._turns):
            await asyncio.sleep(0)


@pytest.mark.slow
def test_an_error_status_right_after_match_start_is_an_error_with_its_message() -> None:
    async def scenario() -> list[tuple[str, str]]:
        server, endpoint = await _server()
        # A channel outside any pool: a ChannelPool backs off from a bot whose streams
        # keep breaking, and every run here must open its stream.
        channel = open_channel(endpoint)
        seen = []
        try:
            for run in range(RUNS):
                seats: list[Seat] = [
                    RemoteSeat("bot", channel, max_reply_bytes=4096),
                    _Yielding("r", run % 5),
                ]
                spec = MatchSpec(
                    match_id=f"m{run}",
                    config=ab.make_config(2, "amigo"),
                    seed=run,
                    max_strikes=1,
                    connect_timeout_s=5.0,
                )
                outcome = await run_match(spec, seats)
                first = outcome.seats[0].faults[0]
                seen.append((str(first.kind), first.detail))
        finally:
            await streams_ended()
            await channel.close()
            await server.stop(None)
        return seen

    seen = asyncio.run(scenario())
    wrong = [s for s in seen if s != (str(FaultKind.ERROR), f"INTERNAL: {MESSAGE}")]
    assert not wrong, f"{len(wrong)} of {RUNS} runs: {sorted(set(wrong))}"
