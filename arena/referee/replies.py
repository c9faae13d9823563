"""A seat's answer, checked against the legal set: a legal action, or the fault.

The one place where the referee decides what counts as an answer: a bot's ``BotMessage``
(by index into the legal list, or spelled out in the game's own message, which the game's
wire reads) and an in-process policy's return value alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.games import GameWire
from arena.v1 import bot_pb2

from .faults import Fault, FaultKind


def read_reply(
    message: bot_pb2.BotMessage,
    legal: Sequence[Any],
    wire: GameWire[Any, Any, Any],
    request_id: int | None = None,
) -> tuple[Any, Fault | None]:
    """The legal action a bot's reply names, or (None, the fault). A fault names
    ``request_id`` (the request's number in the match; default: the reply's own id)."""
    if request_id is None:
        request_id = message.request_id
    choice = message.WhichOneof("choice")
    if choice == "legal_index":
        index = message.legal_index
        if 0 <= index < len(legal):
            return legal[index], None
        return None, Fault(
            FaultKind.MALFORMED,
            f"legal_index {index} is outside the legal list (0..{len(legal) - 1})",
            request_id,
        )
    if choice == wire.oneof:
        try:
            action = wire.action_from_reply(message)
        except ValueError as error:  # the game's MalformedActionError, and the like
            return None, Fault(FaultKind.MALFORMED, str(error), request_id)
        if action in legal:
            return action, None
        return None, Fault(
            FaultKind.ILLEGAL,
            f"{action} is not legal now; legal: {', '.join(str(a) for a in legal)}",
            request_id,
        )
    if choice is not None:
        return None, Fault(
            FaultKind.MALFORMED,
            f"the reply spells out a {choice!r} action in a {wire.oneof!r} match "
            f"(set legal_index or {wire.oneof})",
            request_id,
        )
    return None, Fault(
        FaultKind.MALFORMED,
        f"the reply chose nothing (set legal_index or {wire.oneof})",
        request_id,
    )


def checked_action(action: Any, legal: Sequence[Any], request_id: int) -> tuple[Any, Fault | None]:
    """An in-process policy's action if it is legal, else (None, an ILLEGAL fault)."""
    if action in legal:
        return action, None
    return None, Fault(FaultKind.ILLEGAL, f"{action} is not legal now", request_id)
