"""Answers ``--after N`` decisions of each Play stream (default 5) with random legal
actions, then ends the call normally (status OK) while the match is still running."""

from __future__ import annotations

import argparse
import random
from collections.abc import AsyncIterator
from typing import Any

from botkit import HelloServicer, random_answer, split_args

from arena.sdk import run_servicer
from arena.v1 import bot_pb2


class CloseServicer(HelloServicer):
    """Leaves every match early."""

    def __init__(self, after: int) -> None:
        super().__init__("close")
        self._after = after

    async def Play(  # noqa: N802 (the gRPC method name)
        self, request_iterator: AsyncIterator[bot_pb2.ArenaMessage], context: Any
    ) -> AsyncIterator[bot_pb2.BotMessage]:
        """Answer ``after`` decisions, then return."""
        rng = random.Random()
        answered = 0
        async for msg in request_iterator:
            if msg.WhichOneof("kind") != "decide":
                continue
            if answered >= self._after:
                return
            yield random_answer(msg.decide, rng)
            answered += 1


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--after", type=int, default=5, help="decisions answered per stream")


if __name__ == "__main__":
    args, rest = split_args(__doc__ or "", _options)
    run_servicer(CloseServicer(args.after), argv=rest, description=__doc__ or "")
