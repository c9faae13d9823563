"""Streams still ending after their match: a bot ends its ``Play`` call only after it has
read MatchOver, a round trip the next match should not have to wait for.

``RemoteSeat.close`` sends MatchOver, half-closes, and leaves the wait for the bot's end
of the call (bounded by its timeout) to a task registered here; ``ChannelPool`` waits
for these tasks before it closes a channel, so every bot still sees a clean end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

_ENDING: set[asyncio.Task[None]] = set()
"""Strong references (the loop keeps only weak ones); a task drops out when done."""


def end_in_background(ending: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
    """Run ``ending`` (it must bound its own time) without waiting for it; its task, for
    whoever must know when the stream has ended."""
    task = asyncio.get_running_loop().create_task(ending)
    _ENDING.add(task)
    task.add_done_callback(_ENDING.discard)
    return task


async def streams_ended() -> None:
    """Wait until every stream handed to ``end_in_background`` on this loop has ended."""
    loop = asyncio.get_running_loop()
    while pending := [t for t in _ENDING if t.get_loop() is loop and not t.done()]:
        await asyncio.gather(*pending, return_exceptions=True)
