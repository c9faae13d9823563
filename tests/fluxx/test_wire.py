"""Fluxx's side of the bot contract (proto/arena/v1/fluxx.proto) beyond the conformance
kit: what each seat's events show on the wire, actions named by code or by fields, and
replies the referee refuses in plain words (an illegal one naming the legal set)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.games import fluxx as fx
from arena.games import get
from arena.games.fluxx import events as event_views
from arena.games.fluxx.wire import (
    MalformedObservationError,
    action_from_proto,
    action_to_proto,
    decision_from_proto,
)
from arena.games.fluxx.wire import (
    event_views as wire_event_views,
)
from arena.referee.faults import FaultKind
from arena.referee.replies import read_reply
from arena.v1 import bot_pb2, fluxx_pb2

GAME = get("fluxx")


Seen = tuple[fx.State, int, bytes, list[dict[str, Any]]]


def requests_of_a_match(seed: int, players: int) -> list[Seen]:
    """(state copy, seat, request bytes, the seat's event views) at every decision."""
    state = fx.new_game(fx.make_config(players), random.Random(seed))
    chooser = random.Random(seed)
    cursors = [0] * players
    out = []
    while not state.is_over:
        seat = state.deciding
        views = event_views.views(state.events, seat, cursors[seat])
        raw = GAME.wire.decide_request(
            7, 100, 0, fx.observe(state, seat), state.events[cursors[seat] :]
        )
        cursors[seat] = len(state.events)
        out.append((state.clone(), seat, raw, views))
        fx.apply(state, chooser.choice(state.legal), seat)
    return out


def test_each_seat_sees_on_the_wire_the_event_views_it_may_see() -> None:
    hidden = 0
    for state, seat, raw, views in requests_of_a_match(5, 4):
        decide = bot_pb2.ArenaMessage.FromString(raw).decide
        assert wire_event_views(decide.fluxx) == views
        for event in decide.fluxx.events:
            if event.hidden:
                hidden += 1
                assert not event.cards
                assert event.type in ("setup_deal", "draw", "allot", "give", "mark")
        for card in decide.fluxx.observation.hand:  # its own hand, and nobody else's
            assert card in fx.observe(state, seat).hand
    assert hidden > 0


def test_an_action_is_named_by_its_code_or_its_fields() -> None:
    for action in fx.ACTIONS.values():
        assert action_from_proto(action_to_proto(action)) is action
        assert action_from_proto(fluxx_pb2.FluxxAction(code=action.code)) is action
    by_fields = fluxx_pb2.FluxxAction(type=fluxx_pb2.FLUXX_ACTION_TYPE_EXCHANGE, card=9, other=4)
    assert action_from_proto(by_fields) is fx.exchange(9, 4)


@pytest.mark.parametrize(
    ("message", "words"),
    [
        (fluxx_pb2.FluxxAction(), "neither a type nor a code"),
        (fluxx_pb2.FluxxAction(code=99999), "is not the code of any Fluxx action"),
        (fluxx_pb2.FluxxAction(type=77), "unknown action type 77"),  # type: ignore[arg-type]
        (
            fluxx_pb2.FluxxAction(type=fluxx_pb2.FLUXX_ACTION_TYPE_PLAY, card=21),
            "cannot name card 21",
        ),
        (
            fluxx_pb2.FluxxAction(type=fluxx_pb2.FLUXX_ACTION_TYPE_PLAY, card=78, code=101),
            "disagrees with its fields",
        ),
    ],
)
def test_a_malformed_action_is_refused_in_words(message: fluxx_pb2.FluxxAction, words: str) -> None:
    with pytest.raises(fx.MalformedActionError, match=words):
        action_from_proto(message)
    reply = bot_pb2.BotMessage(request_id=3)
    reply.fluxx.CopyFrom(message)
    action, fault = read_reply(reply, [fx.play(78)], GAME.wire)
    assert action is None
    assert fault is not None
    assert fault.kind is FaultKind.MALFORMED


def test_an_illegal_action_is_refused_naming_the_legal_set() -> None:
    state = fx.new_game(fx.make_config(3), random.Random(2))
    legal = fx.observe(state, state.deciding).legal
    outside = next(a for a in fx.ACTIONS.values() if a not in legal)
    reply = bot_pb2.BotMessage(request_id=4)
    GAME.wire.fill_reply(reply, outside)
    action, fault = read_reply(reply, legal, GAME.wire)
    assert action is None
    assert fault is not None
    assert fault.kind is FaultKind.ILLEGAL
    assert fault.detail == (
        f"{outside} is not legal now; legal: {', '.join(str(a) for a in legal)}"
    )
    assert "Action" not in fault.detail.split(";")[0]  # words, not a class name


def test_a_request_no_seat_could_get_is_refused_by_the_sdk() -> None:
    state = fx.new_game(fx.make_config(4), random.Random(1))
    seat = state.deciding
    decide = bot_pb2.ArenaMessage.FromString(
        GAME.wire.decide_request(1, 100, 0, fx.observe(state, seat), state.events)
    ).decide
    assert decision_from_proto(decide.fluxx) == fx.observe(state, seat)
    for change, words in (
        (lambda m: setattr(m.observation, "deciding", (seat + 1) % 4), "is the one deciding"),
        (lambda m: m.observation.hand.append(100), "card id outside"),
        (lambda m: setattr(m.observation, "decision", 42), "decision kind 42"),
        (lambda m: m.observation.hand_sizes.pop(), "3 hand_sizes entries for 4 seats"),
    ):
        broken = fluxx_pb2.FluxxDecision()
        broken.CopyFrom(decide.fluxx)
        change(broken)
        with pytest.raises(MalformedObservationError, match=words):
            decision_from_proto(broken)
