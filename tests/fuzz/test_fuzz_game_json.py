"""Fuzzing the game's JSON loaders through the Game interface (``arena.games.get``):
``config_from_json``, ``state_from_json`` and ``replay_record`` on valid documents of
real matches with a few places changed (keys dropped or added, values of other types,
numbers off by one or huge, lists cut or grown). The result is the object, usable, or
a ValueError (the game's own subclasses included) with a message in plain words; never
a KeyError, TypeError, IndexError or AttributeError."""

from __future__ import annotations

import functools
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.v1 import bot_pb2

from .jsonmut import JSON_VALUES, mutated, renumbered
from .matches import GAME, finished_states, middle_state
from .plain import FUZZ, assert_plain


@functools.cache
def _states() -> tuple[dict[str, Any], ...]:
    states = [*finished_states(), *(middle_state(seed) for seed in range(6))]
    return tuple(GAME.state_to_json(s) for s in states)


@functools.cache
def _records() -> tuple[dict[str, Any], ...]:
    return tuple(GAME.record_json(s) for s in finished_states())


def _refused(error: ValueError, what: str) -> None:
    assert_plain(str(error), where=f"{what}: {type(error).__name__}")


def _assert_config(config: Any) -> None:
    """A configuration the arena can use: JSON round trip, a MatchStart."""
    data = GAME.config_to_json(config)
    assert GAME.config_from_json(json.loads(json.dumps(data))) == config
    assert GAME.players_of(config) in GAME.table_sizes
    GAME.wire.fill_start(bot_pb2.MatchStart(), config)


@settings(FUZZ, max_examples=200)
@given(
    data=st.one_of(
        st.sampled_from([s["config"] for s in _states()]).flatmap(mutated),
        JSON_VALUES,
    )
)
def test_configurations(data: Any) -> None:
    try:
        config = GAME.config_from_json(data)
    except ValueError as error:
        _refused(error, "config_from_json")
        return
    _assert_config(config)


@settings(FUZZ, max_examples=200)
@given(
    data=st.one_of(
        st.sampled_from(_states()).flatmap(mutated),
        st.sampled_from(_states()).flatmap(renumbered),
    )
)
def test_states(data: Any) -> None:
    try:
        state = GAME.state_from_json(data)
    except ValueError as error:
        _refused(error, "state_from_json")
        return
    # The state is what its JSON says, and the referee can work with it.
    again = GAME.state_to_json(state)
    assert GAME.state_to_json(GAME.state_from_json(json.loads(json.dumps(again)))) == again
    _assert_config(state.config)
    seat = GAME.deciding(state)
    for s in range(GAME.players_of(state.config)):
        obs = GAME.observe(state, s)
        if s == seat:
            assert obs.legal
            GAME.wire.decide_request(1, 1000, 0, obs, GAME.events(state))


@settings(FUZZ, max_examples=100)
@given(
    data=st.one_of(
        st.sampled_from(_records()).flatmap(mutated),
        st.sampled_from(_records()).flatmap(renumbered),
    )
)
def test_records(data: Any) -> None:
    try:
        state = GAME.replay_record(data)
    except ValueError as error:
        _refused(error, "replay_record")
        return
    # Replayed: the record is the match's own (its actions, events and result).
    again = GAME.record_json(state)
    assert again["events"] == data["events"]
    assert GAME.replay_record(json.loads(json.dumps(again))) is not None
