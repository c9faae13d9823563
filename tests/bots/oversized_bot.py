"""Answers every decision correctly (a random legal index) but pads each reply with an
unknown field of ``--bytes`` bytes (default 2 MiB): a well-formed, OVERSIZED message.

The padding is a length-delimited field number that BotMessage does not define; the
protobuf runtime keeps unknown fields when it parses, and writes them back out."""

from __future__ import annotations

import argparse
import random
from collections.abc import AsyncIterator
from typing import Any, Final

from botkit import HelloServicer, random_answer, split_args

from arena.sdk import run_servicer
from arena.v1 import bot_pb2

PAD_FIELD: Final = 1000
"""An unused field number; wire type 2 (length-delimited)."""


def varint(n: int) -> bytes:
    """Protobuf's base-128 varint encoding of ``n`` >= 0."""
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def padded(msg: bot_pb2.BotMessage, size: int) -> bot_pb2.BotMessage:
    """``msg`` plus an unknown field of ``size`` bytes."""
    pad = varint(PAD_FIELD << 3 | 2) + varint(size) + b"\0" * size
    return bot_pb2.BotMessage.FromString(msg.SerializeToString() + pad)


class OversizedServicer(HelloServicer):
    """Right answers in huge envelopes."""

    def __init__(self, size: int) -> None:
        super().__init__("oversized")
        self._size = size

    async def Play(  # noqa: N802 (the gRPC method name)
        self, request_iterator: AsyncIterator[bot_pb2.ArenaMessage], context: Any
    ) -> AsyncIterator[bot_pb2.BotMessage]:
        """One padded answer per decision."""
        rng = random.Random()
        async for msg in request_iterator:
            if msg.WhichOneof("kind") == "decide":
                yield padded(random_answer(msg.decide, rng), self._size)


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bytes", type=int, default=2 * 1024 * 1024, help="padding per reply")


if __name__ == "__main__":
    args, rest = split_args(__doc__ or "", _options)
    run_servicer(OversizedServicer(args.bytes), argv=rest, description=__doc__ or "")
