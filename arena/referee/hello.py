"""Hello: ask a bot who it is, with a timeout, turning every failure into words."""

from __future__ import annotations

from dataclasses import dataclass

import grpc

from arena import __version__
from arena.v1 import bot_pb2, bot_pb2_grpc

PROTOCOL = "arena.v1"


@dataclass(frozen=True, slots=True)
class HelloResult:
    """A bot's Hello answer, or why there is none."""

    reply: bot_pb2.HelloReply | None
    """The answer, if any."""
    error: str = ""
    """What went wrong, in words a user can act on."""


async def hello(channel: grpc.aio.Channel, endpoint: str, timeout_s: float = 5.0) -> HelloResult:
    """Call Hello on a bot."""
    stub = bot_pb2_grpc.BotStub(channel)
    try:
        reply = await stub.Hello(
            bot_pb2.HelloRequest(arena_version=__version__, protocol=PROTOCOL),
            timeout=timeout_s,
            wait_for_ready=True,
        )
    except grpc.aio.AioRpcError as error:
        code = error.code()
        if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
            return HelloResult(
                None,
                f"no bot answers at {endpoint} (within {timeout_s:g} s: {code.name}). "
                "Is the bot running and listening on that port?",
            )
        if code == grpc.StatusCode.UNIMPLEMENTED:
            return HelloResult(
                None,
                f"the server at {endpoint} does not implement arena.v1.Bot/Hello; "
                "is it an arena bot?",
            )
        return HelloResult(None, f"Hello to {endpoint} failed: {code.name}: {error.details()}")
    if not isinstance(reply, bot_pb2.HelloReply):
        # grpc.aio hands back None when the reply's bytes do not parse.
        return HelloResult(
            None,
            f"the bot at {endpoint} answered Hello with bytes that are not an "
            "arena.v1.HelloReply; is it an arena bot, built from proto/arena/v1/bot.proto?",
        )
    if reply.games and "abluxxen" not in reply.games:
        return HelloResult(
            reply, f"the bot at {endpoint} plays {list(reply.games)}, not 'abluxxen'"
        )
    return HelloResult(reply)
