"""Shared parts of the misbehaving test bots (run as ``python tests/bots/NAME.py``,
which puts this directory on sys.path)."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence
from typing import Any

from arena.sdk import BotInfo
from arena.v1 import bot_pb2, bot_pb2_grpc


def bot_info(name: str) -> BotInfo:
    """The Hello answer of test bot ``name``."""
    return BotInfo(name=name, version="test", author="tests/bots: misbehaves on purpose")


def split_args(
    description: str,
    add_options: Callable[[argparse.ArgumentParser], None],
    argv: Sequence[str] | None = None,
) -> tuple[argparse.Namespace, list[str]]:
    """This bot's own options, and the rest (``--host``, ``--port``) for the SDK runner."""
    parser = argparse.ArgumentParser(description=description, add_help=False)
    add_options(parser)
    return parser.parse_known_args(argv)


def random_answer(request: bot_pb2.DecideRequest, rng: random.Random) -> bot_pb2.BotMessage:
    """A correct answer: a random index into the request's legal list."""
    legal = request.abluxxen.legal
    return bot_pb2.BotMessage(request_id=request.request_id, legal_index=rng.randrange(len(legal)))


class HelloServicer(bot_pb2_grpc.BotServicer):
    """A raw servicer that answers Hello; subclasses write Play to misbehave in ways the
    SDK would not allow."""

    def __init__(self, name: str) -> None:
        self._hello = bot_info(name).to_proto()

    async def Hello(  # noqa: N802 (the gRPC method name)
        self, request: bot_pb2.HelloRequest, context: Any
    ) -> bot_pb2.HelloReply:
        """The bot's identity."""
        return self._hello
