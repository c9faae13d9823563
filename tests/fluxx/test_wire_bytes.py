"""The referee's Fluxx requests, written directly as bytes, equal the protobuf messages'
serialization on every decision (and on every seat's final observation) of random games
of every preset and table size."""

from __future__ import annotations

import random

import pytest

from arena.games import fluxx as fx
from arena.games.fluxx.events import is_private
from arena.games.fluxx.state import Event
from arena.games.fluxx.wire import action_to_proto, event_to_proto, observation_to_proto
from arena.games.fluxx.wire_bytes import decide_request_bytes, observation_bytes
from arena.v1 import bot_pb2, fluxx_pb2


def _message(obs: fx.Observation, events: list[Event]) -> bytes:
    decision = fluxx_pb2.FluxxDecision(
        observation=observation_to_proto(obs),
        legal=[action_to_proto(a) for a in obs.legal],
        events=[event_to_proto(e, is_private(e, obs.seat)) for e in events],
    )
    request = bot_pb2.DecideRequest(request_id=9, deadline_ms=750, time_bank_ms=120, fluxx=decision)
    return bot_pb2.ArenaMessage(decide=request).SerializeToString()


@pytest.mark.parametrize("preset", sorted(fx.PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_fast_bytes_equal_the_codec(preset: str, players: int) -> None:
    kinds = set()
    for seed in range(2):
        state = fx.new_game(fx.make_config(players, preset), random.Random(seed))
        chooser = random.Random(seed + 1)
        cursors = [0] * players
        while not state.is_over:
            seat = state.deciding
            obs = fx.observe(state, seat)
            kinds.add(obs.decision)
            events = list(state.events[cursors[seat] :])
            assert decide_request_bytes(9, 750, 120, obs, events) == _message(obs, events)
            cursors[seat] = len(state.events)
            fx.apply(state, chooser.choice(state.legal), seat)
        for seat in range(players):  # over: the result is in the observation
            final = fx.observe(state, seat)
            assert final.result is not None
            assert observation_bytes(final) == observation_to_proto(final).SerializeToString()
    assert fx.DecisionKind.PLAY in kinds
