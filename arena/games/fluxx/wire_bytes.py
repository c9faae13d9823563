"""Fast serialization of Fluxx DecideRequests (see ``arena/wire/encoding.py`` for why).

``decide_request_bytes`` returns exactly
``ArenaMessage(decide=DecideRequest(..., fluxx=FluxxDecision(observation_to_proto(obs),
legal, events))).SerializeToString()``, built from the same inputs: the seat's
observation and the events since its last decision, each as ``events.is_private``
lets the seat see it. The observation is written field by field in field-number order
(as ``SerializeToString`` writes it); the parts that repeat from one request to the next
(the rules, legal actions, events) are encoded once and kept as bytes.
tests/fluxx/test_wire_bytes.py checks the equality on every decision of many games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from arena.wire.encoding import bool_field, bytes_field, int_field, packed_field, string_field

from .actions import Action
from .events import is_private
from .observation import Observation
from .options import RuleOptions
from .state import Event, Result
from .wire import action_to_proto, event_to_proto, rules_to_proto

DECISION_FIELD: Final = 11
"""DecideRequest's field number of the ``fluxx`` game (bot.proto)."""
_CACHE_LIMIT: Final = 100_000
_EVENTS: dict[tuple[Event, bool], bytes] = {}
_LEGAL: Final[dict[int, bytes]] = {}
_RULES: Final[dict[RuleOptions, bytes]] = {}


def _event_entry(event: Event, hidden: bool) -> bytes:
    key = (event, hidden)
    entry = _EVENTS.get(key)
    if entry is None:
        entry = bytes_field(3, event_to_proto(event, hidden).SerializeToString())
        if len(_EVENTS) >= _CACHE_LIMIT:
            _EVENTS.clear()
        _EVENTS[key] = entry
    return entry


def _legal_entry(action: Action) -> bytes:
    entry = _LEGAL.get(action.code)
    if entry is None:
        entry = bytes_field(2, action_to_proto(action).SerializeToString())
        _LEGAL[action.code] = entry
    return entry


def _rules_entry(options: RuleOptions) -> bytes:
    entry = _RULES.get(options)
    if entry is None:
        entry = bytes_field(3, rules_to_proto(options).SerializeToString())
        _RULES[options] = entry
    return entry


def _card_lists(field: int, lists: Sequence[tuple[int, ...]]) -> bytes:
    """A repeated FluxxCards (or FluxxFrame) field: one entry per list, empty ones too."""
    return b"".join([bytes_field(field, packed_field(1, cards)) for cards in lists])


def _result(result: Result) -> bytes:
    return bytes_field(
        39,
        int_field(1, result.winner)
        + string_field(2, result.end_reason)
        + packed_field(3, result.ranks)
        + int_field(4, result.turns)
        + int_field(5, result.decisions)
        + packed_field(6, result.scores),
    )


def observation_bytes(obs: Observation) -> bytes:
    """``observation_to_proto(obs).SerializeToString()``, written directly."""
    decision = obs.decision
    parts = [
        int_field(1, obs.seat),
        int_field(2, obs.config.players),
        _rules_entry(obs.config.options),
        int_field(4, obs.turn),
        int_field(5, obs.active),
        string_field(6, obs.phase),
        bool_field(7, obs.extra),
        bool_field(8, obs.another),
        int_field(9, int(decision) if decision is not None else 0),
        int_field(10, obs.deciding),
        packed_field(11, obs.hand),
        packed_field(12, obs.hand_sizes),
        _card_lists(13, obs.tables),
        packed_field(14, obs.rules),
        packed_field(15, obs.goals),
        packed_field(16, obs.discard),
        int_field(17, obs.draw_size),
        _card_lists(18, obs.temp),
        packed_field(19, obs.temp_sizes),
        packed_field(20, obs.pool),
        int_field(21, obs.pool_size),
        _card_lists(22, obs.allot),
        packed_field(23, obs.allot_sizes),
        packed_field(24, obs.marks),
        packed_field(25, obs.mark_counts),
        packed_field(26, obs.transit),
        packed_field(27, obs.box),
        int_field(28, obs.escalation),
        int_field(29, obs.drawn),
        int_field(30, obs.played),
        int_field(31, obs.draw_target),
        int_field(32, obs.play_target),
        int_field(33, obs.hand_limit),
        int_field(34, obs.keeper_limit),
        bool_field(35, obs.window),
        bool_field(36, obs.taxes_keep),
        int_field(37, obs.decisions),
        _card_lists(38, obs.stack),
    ]
    if obs.result is not None:
        parts.append(_result(obs.result))
    return b"".join(parts)


def decision_bytes(obs: Observation, events: Sequence[Event]) -> bytes:
    """``FluxxDecision(observation, legal, events as obs.seat sees them)``, serialized."""
    seat = obs.seat
    return b"".join(
        [
            bytes_field(1, observation_bytes(obs)),
            *[_legal_entry(a) for a in obs.legal],
            *[_event_entry(e, is_private(e, seat)) for e in events],
        ]
    )


def decide_request_bytes(
    request_id: int,
    deadline_ms: int,
    time_bank_ms: int,
    obs: Observation,
    events: Sequence[Event],
) -> bytes:
    """A serialized ``ArenaMessage{decide: DecideRequest{..., fluxx}}`` for ``obs.seat``."""
    request = (
        int_field(1, request_id)
        + int_field(2, deadline_ms)
        + int_field(3, time_bank_ms)
        + bytes_field(DECISION_FIELD, decision_bytes(obs, events))
    )
    return bytes_field(2, request)
