"""Decisions whose request bytes were recorded before: the floor and gap benchmarks
replay the referee's exact requests through ``RemoteSeat`` without any game work."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.games import GameWire
from arena.referee.seats import Decision
from arena.v1 import bot_pb2


class _Canned:
    """An observation whose only legal action is 0 (what the replayed bots answer)."""

    seat = 0
    legal = (0,)
    decision = None


class CannedWire(GameWire[Any, Any, Any]):
    """A wire that sends given bytes, under the request id the seat sends it with, and
    reads any ``legal_index`` reply. A remote seat sends each request under an id of
    its own (arena/referee/request_ids.py), and takes a reply to any other id as STALE.
    The id goes on as a second ``decide`` holding only it: a protobuf parser merges
    repeated occurrences of a message field, the last scalar winning, so the recorded
    bytes are sent as they are, with a few bytes appended and no parse on the way."""

    oneof = "canned"

    def __init__(self, message: bytes) -> None:
        self.message = message

    def decide_request(
        self,
        request_id: int,
        deadline_ms: int,
        time_bank_ms: int,
        obs: Any,
        events: Sequence[object],
    ) -> bytes:
        request = bot_pb2.DecideRequest(request_id=request_id)
        return self.message + bot_pb2.ArenaMessage(decide=request).SerializeToString()

    def fill_start(self, start: bot_pb2.MatchStart, config: Any) -> None:
        raise NotImplementedError

    def action_from_reply(self, reply: bot_pb2.BotMessage) -> Any:
        raise ValueError("canned decisions are answered by legal_index")

    def fill_over(self, over: bot_pb2.MatchOver, result: Any) -> None:
        raise NotImplementedError

    def config_from_start(self, start: bot_pb2.MatchStart) -> Any:
        raise NotImplementedError

    def observation_from_request(self, request: bot_pb2.DecideRequest) -> Any:
        raise NotImplementedError

    def fill_reply(self, reply: bot_pb2.BotMessage, action: Any) -> None:
        raise NotImplementedError

    def result_from_over(self, over: bot_pb2.MatchOver) -> Any:
        raise NotImplementedError


def canned_decision(request_id: int, message: bytes, deadline_ms: int) -> Decision:
    """A decision that sends ``message`` as its request."""
    return Decision(
        request_id, _Canned(), (), CannedWire(message), deadline_ms, deadline_ms / 1000, 0.0
    )
