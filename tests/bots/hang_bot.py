"""Never answers a decision and never ends the Play call, not even after the arena
half-closes: only cancellation (or the arena's own deadline) ends it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from botkit import HelloServicer

from arena.sdk import run_servicer
from arena.v1 import bot_pb2


class HangServicer(HelloServicer):
    """Reads every message and says nothing."""

    async def Play(  # noqa: N802 (the gRPC method name)
        self, request_iterator: AsyncIterator[bot_pb2.ArenaMessage], context: Any
    ) -> AsyncIterator[bot_pb2.BotMessage]:
        """Swallow the requests, then wait for ever."""
        async for _ in request_iterator:
            pass
        await asyncio.Event().wait()  # never set
        return
        yield  # unreachable; makes Play a streaming handler that never writes


if __name__ == "__main__":
    run_servicer(HangServicer("hang"), description=__doc__ or "")
