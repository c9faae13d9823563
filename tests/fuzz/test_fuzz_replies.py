"""Fuzzing the referee's reading of a bot's reply: arbitrary bytes through the
RemoteSeat's parser, then any well-formed ``arena.v1.BotMessage`` (any oneof case, huge
and negative indices and fields, unknown action types, the game's real actions spelled
out by its wire and then mutated) through ``_checked`` and ``read_reply``. The answer is
always a legal action, or a fault with a kind and a detail in plain words; nothing
raises."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.referee.faults import Fault, FaultKind
from arena.referee.replies import read_reply
from arena.referee.seats import UNDECODABLE, Decision, RemoteSeat, _parse_reply
from arena.v1 import bot_pb2

from .matches import ACTIONS, GAME, INT32, NUMBERS, UINT64, Point, decision_points, spelled
from .plain import FUZZ, assert_plain

WIRE = GAME.wire
_FIELDS = WIRE.oneof
_ACTION_TYPES = sorted({spelled(action).type for action in ACTIONS} | {0})
"""The action types the game's actions use, and 0 (unspecified)."""


@st.composite
def spelled_out(draw: st.DrawFn, message: bot_pb2.BotMessage) -> None:
    """One of the game's actions spelled out by its wire, then perhaps mutated."""
    WIRE.fill_reply(message, draw(st.sampled_from(ACTIONS)))
    action = getattr(message, _FIELDS)
    how = draw(st.sampled_from(["as is", "no code", "code only", "field", "code"]))
    if how == "no code":
        action.ClearField("code")
    elif how == "code only":
        action.ClearField("type")
    elif how == "field":
        name = draw(st.sampled_from(["type", "value", "naturals", "jokers", "slot"]))
        setattr(action, name, draw(NUMBERS))
    elif how == "code":
        action.code = draw(NUMBERS)


@st.composite
def bot_messages(draw: st.DrawFn) -> bot_pb2.BotMessage:
    """Any BotMessage: no choice, an index, arbitrary action fields, or a real action."""
    message = bot_pb2.BotMessage(request_id=draw(UINT64))
    case = draw(st.sampled_from(["nothing", "index", "fields", "action"]))
    if case == "index":
        message.legal_index = draw(st.one_of(st.integers(-2, 12), INT32))
    elif case == "fields":
        action = getattr(message, _FIELDS)
        action.SetInParent()
        action.type = draw(st.one_of(st.sampled_from(_ACTION_TYPES), INT32))
        for name in ("value", "naturals", "jokers", "slot", "code"):
            if draw(st.booleans()):
                setattr(action, name, draw(NUMBERS))
    elif case == "action":
        draw(spelled_out(message))
    return message


@st.composite
def reply_bytes(draw: st.DrawFn) -> bytes:
    """Bytes on the wire: random, or a real reply's bytes cut, spliced or flipped."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=64))
    data = bytearray(draw(bot_messages()).SerializeToString())
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["cut", "insert", "flip"]))
        at = draw(st.integers(0, len(data)))
        if how == "cut":
            del data[at:]
        elif how == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif data:
            data[min(at, len(data) - 1)] ^= draw(st.integers(1, 255))
    return bytes(data)


class _NoChannel:
    """Enough of a channel to build a RemoteSeat whose stream is never opened."""

    def stream_stream(self, *args: Any, **kwargs: Any) -> None:
        return None


def _seat(max_reply_bytes: int) -> RemoteSeat:
    channel: Any = _NoChannel()
    return RemoteSeat("fuzzed", channel, max_reply_bytes=max_reply_bytes)


def _decision(point: Point, request_id: int) -> Decision:
    return Decision(
        request_id=request_id,
        observation=point.observation,
        events=point.events,
        wire=WIRE,
        deadline_ms=1000,
        deadline_s=1.0,
        bank_s=0.0,
    )


def _assert_answer(action: Any, fault: Fault | None, legal: Any, request_id: int) -> None:
    """Exactly one of: a legal action, or a fault with a kind and a plain detail."""
    if fault is None:
        assert action is not None
        assert action in legal
        return
    assert action is None
    assert isinstance(fault.kind, FaultKind)
    assert fault.kind in (FaultKind.MALFORMED, FaultKind.ILLEGAL, FaultKind.OVERSIZED)
    assert fault.request_id == request_id
    assert_plain(fault.detail, where=f"{fault.kind} fault")


POINTS = st.sampled_from(decision_points())


@settings(FUZZ, max_examples=300)
@given(data=reply_bytes(), point=POINTS, cap=st.sampled_from([4096, 16, 3]))
def test_any_bytes_are_a_reply_or_undecodable(data: bytes, point: Point, cap: int) -> None:
    message = _parse_reply(data)
    if message is None:
        assert_plain(UNDECODABLE)
        return
    assert isinstance(message, bot_pb2.BotMessage)
    decision = _decision(point, message.request_id)
    reply = _seat(cap)._checked(message, decision, 0.0, 0.001)
    _assert_answer(reply.action, reply.fault, point.observation.legal, message.request_id)


@settings(FUZZ, max_examples=500)
@given(message=bot_messages(), point=POINTS)
def test_any_bot_message_is_a_legal_action_or_a_fault(
    message: bot_pb2.BotMessage, point: Point
) -> None:
    legal = point.observation.legal
    action, fault = read_reply(message, legal, WIRE)
    _assert_answer(action, fault, legal, message.request_id)
    if message.WhichOneof("choice") == "legal_index" and 0 <= message.legal_index < len(legal):
        assert action == legal[message.legal_index]
    # Through the seat too, with the arena's cap (every such reply is far below it).
    reply = _seat(4096)._checked(message, _decision(point, message.request_id), 0.0, 0.0)
    assert (reply.action, reply.fault) == (action, fault)


@settings(FUZZ, max_examples=200)
@given(point=POINTS, data=st.data())
def test_a_legal_action_spelled_out_is_that_action(point: Point, data: st.DataObject) -> None:
    legal = point.observation.legal
    chosen = data.draw(st.sampled_from(list(legal)))
    message = bot_pb2.BotMessage(request_id=data.draw(UINT64))
    WIRE.fill_reply(message, chosen)
    if data.draw(st.booleans()):
        getattr(message, _FIELDS).ClearField("type")  # named by its code alone
    assert read_reply(message, legal, WIRE) == (chosen, None)
