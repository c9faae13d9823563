"""Answers every decision with a random legal index but the wrong request id
(``request_id + 1000``): every reply is STALE."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any, Final

from botkit import HelloServicer, random_answer

from arena.sdk import run_servicer
from arena.v1 import bot_pb2

ID_OFFSET: Final = 1000


class WrongIdServicer(HelloServicer):
    """Right answers, wrong addresses."""

    async def Play(  # noqa: N802 (the gRPC method name)
        self, request_iterator: AsyncIterator[bot_pb2.ArenaMessage], context: Any
    ) -> AsyncIterator[bot_pb2.BotMessage]:
        """One misaddressed answer per decision."""
        rng = random.Random()
        async for msg in request_iterator:
            if msg.WhichOneof("kind") == "decide":
                reply = random_answer(msg.decide, rng)
                reply.request_id += ID_OFFSET
                yield reply


if __name__ == "__main__":
    run_servicer(WrongIdServicer("wrong-id"), description=__doc__ or "")
