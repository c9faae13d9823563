"""Answers every decision with garbage, in turn: a BotMessage with no choice at all, a
``legal_index`` past the end of the legal list, and an action that names no action of
the game (PLAY of value 0). Each reply echoes the request id, so each is MALFORMED
rather than STALE."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any, Final

from botkit import HelloServicer

from arena.sdk import run_servicer
from arena.v1 import abluxxen_pb2, bot_pb2


def no_choice(request: bot_pb2.DecideRequest) -> bot_pb2.BotMessage:
    """The ``choice`` oneof unset."""
    return bot_pb2.BotMessage(request_id=request.request_id)


def index_out_of_range(request: bot_pb2.DecideRequest) -> bot_pb2.BotMessage:
    """One past the last legal index."""
    return bot_pb2.BotMessage(
        request_id=request.request_id, legal_index=len(request.abluxxen.legal)
    )


def malformed_action(request: bot_pb2.DecideRequest) -> bot_pb2.BotMessage:
    """A PLAY of value 0 with no cards: not an action of Abluxxen."""
    action = abluxxen_pb2.AbluxxenAction(type=abluxxen_pb2.ABLUXXEN_ACTION_TYPE_PLAY, value=0)
    return bot_pb2.BotMessage(request_id=request.request_id, abluxxen=action)


GARBAGE: Final[tuple[Callable[[bot_pb2.DecideRequest], bot_pb2.BotMessage], ...]] = (
    no_choice,
    index_out_of_range,
    malformed_action,
)
"""The kinds of garbage, used in turn on each stream."""


class GarbageServicer(HelloServicer):
    """Answers promptly, never sensibly."""

    async def Play(  # noqa: N802 (the gRPC method name)
        self, request_iterator: AsyncIterator[bot_pb2.ArenaMessage], context: Any
    ) -> AsyncIterator[bot_pb2.BotMessage]:
        """One garbage answer per decision."""
        answered = 0
        async for msg in request_iterator:
            if msg.WhichOneof("kind") == "decide":
                yield GARBAGE[answered % len(GARBAGE)](msg.decide)
                answered += 1


if __name__ == "__main__":
    run_servicer(GarbageServicer("garbage"), description=__doc__ or "")
