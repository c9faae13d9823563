"""Fast serialization of Abluxxen DecideRequests (see ``encoding.py`` for why).

``decide_request_bytes`` returns exactly
``ArenaMessage(decide=DecideRequest(..., abluxxen=decision_to_proto(obs, views)))
.SerializeToString()``, built from the same inputs: the seat's observation and its
event views (redaction by ``events.is_private``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from arena.games import abluxxen as ab
from arena.wire.encoding import (
    bool_field,
    bytes_field,
    int_field,
    packed_field,
    string_field,
)

from .cards import VALUE_OF
from .events import FIELDS, is_private
from .observation import SetView
from .state import Event
from .wire import action_to_proto, rules_to_proto

_LEGAL: Final[dict[int, bytes]] = {}
_SETS: Final[dict[SetView, bytes]] = {}
_RULES: Final[dict[ab.RuleOptions, bytes]] = {}
_EVENTS: dict[tuple[Event, bool], bytes] = {}
_ENTRIES: dict[tuple[int, tuple[object, ...]], bytes] = {}
_EVENT_CACHE_LIMIT: Final = 100_000


def _legal_entry(action: ab.Action) -> bytes:
    entry = _LEGAL.get(action.code)
    if entry is None:
        entry = bytes_field(2, action_to_proto(action).SerializeToString())
        _LEGAL[action.code] = entry
    return entry


def _set_payload(view: SetView) -> bytes:
    payload = _SETS.get(view)
    if payload is None:
        value, naturals, jokers = view
        payload = int_field(1, value) + int_field(2, naturals) + int_field(3, jokers)
        _SETS[view] = payload
    return payload


def _rules(options: ab.RuleOptions) -> bytes:
    payload = _RULES.get(options)
    if payload is None:
        payload = bytes_field(3, rules_to_proto(options).SerializeToString())
        _RULES[options] = payload
    return payload


def _deal_result(result: ab.DealResult) -> bytes:
    return bytes_field(
        26,
        string_field(1, result.reason)
        + packed_field(2, result.scores)
        + packed_field(3, result.hand_cards)
        + packed_field(4, result.ranks)
        + int_field(5, result.turns),
    )


def _value_list_entry(field: int, values: tuple[int, ...]) -> bytes:
    """A repeated AbluxxenCards entry (known, pool), memoized."""
    cache_key = (field, values)
    entry = _ENTRIES.get(cache_key)
    if entry is None:
        entry = bytes_field(field, packed_field(1, values))
        if len(_ENTRIES) >= _EVENT_CACHE_LIMIT:
            _ENTRIES.clear()
        _ENTRIES[cache_key] = entry
    return entry


def _display_entry(display: tuple[SetView, ...]) -> bytes:
    """A repeated AbluxxenDisplay entry, memoized."""
    cache_key = (15, display)
    entry = _ENTRIES.get(cache_key)
    if entry is None:
        entry = bytes_field(15, b"".join([bytes_field(1, _set_payload(s)) for s in display]))
        if len(_ENTRIES) >= _EVENT_CACHE_LIMIT:
            _ENTRIES.clear()
        _ENTRIES[cache_key] = entry
    return entry


_HEADERS: dict[tuple[int, int, int, int], tuple[ab.GameConfig, bytes]] = {}


def _header(obs: ab.Observation) -> bytes:
    """Fields 1-7 (seat, table, rules, deal): constant through a deal, memoized. Keyed
    by the config's identity, not its value: hashing a GameConfig (a dataclass's
    generated ``__hash__``, interpreted) cost more than the lookup saved. The entry
    holds the config, so its id cannot be reused while the entry exists."""
    config = obs.config
    key = (obs.seat, id(config), obs.deal, obs.start_seat)
    cached = _HEADERS.get(key)
    if cached is not None and cached[0] is config:
        return cached[1]
    header = (
        int_field(1, obs.seat)
        + int_field(2, config.players)
        + _rules(config.options)
        + int_field(4, config.deals)
        + bool_field(5, config.duplicate)
        + int_field(6, obs.deal)
        + int_field(7, obs.start_seat)
    )
    if len(_HEADERS) >= _EVENT_CACHE_LIMIT:
        _HEADERS.clear()
    _HEADERS[key] = (config, header)
    return header


def observation_bytes(obs: ab.Observation) -> bytes:
    """``observation_to_proto(obs).SerializeToString()``, faster."""
    decision = obs.decision
    parts = [
        _header(obs),
        int_field(8, obs.turn),
        int_field(9, obs.active),
        int_field(10, int(decision) if decision is not None else 0),
        int_field(11, obs.deciding),
        packed_field(12, obs.hand),
        packed_field(13, obs.hand_sizes),
    ]
    parts += [_value_list_entry(14, known) for known in obs.known]
    parts += [_display_entry(display) for display in obs.displays]
    parts += [_value_list_entry(16, slot) for slot in obs.pool]
    if obs.shadow:
        parts.append(packed_field(17, obs.shadow))
    if obs.discard:
        parts.append(packed_field(18, obs.discard))
    parts.append(int_field(19, obs.deck_size))
    if obs.played is not None:
        parts.append(bytes_field(20, _set_payload(obs.played)))
    parts.append(int_field(21, obs.victim))
    if obs.checks:
        parts.append(packed_field(22, obs.checks))
    parts.append(int_field(23, obs.drawer))
    parts.append(int_field(24, obs.draws_left))
    if obs.abluxxed:
        parts.append(b"\xc8\x01\x01")  # field 25 (abluxxed) = true
    if obs.past_deals:
        parts += [_deal_result(d) for d in obs.past_deals]
    parts.append(packed_field(27, obs.scores))
    return b"".join(parts)


# AbluxxenEvent field numbers by view key.
_EVENT_INT_FIELDS: Final = {"seat": 2, "victim": 3, "value": 4, "slot": 5, "deal": 6, "card": 8}
_EVENT_LIST_FIELDS: Final = {"scores": 12, "hand_cards": 13}


def _event_payload(event: Event, hidden: bool) -> bytes:
    """The AbluxxenEvent bytes of an event as ``event_to_proto(view(event, seat))``."""
    kind = event[0]
    assert isinstance(kind, str)
    fields: dict[int, bytes] = {1: string_field(1, kind)}
    for name, value in zip(FIELDS[kind], event[1:], strict=True):
        if name == "cards":
            assert isinstance(value, tuple)
            if hidden:
                fields[9] = bool_field(9, True)
                fields[10] = int_field(10, len(value))
            else:
                fields[7] = packed_field(7, [VALUE_OF[c] for c in value])
        elif name == "card":
            assert isinstance(value, int)
            fields[8] = int_field(8, VALUE_OF[value])
        elif name == "reason":
            assert isinstance(value, str)
            fields[11] = string_field(11, value)
        elif name in _EVENT_LIST_FIELDS:
            assert isinstance(value, tuple)
            fields[_EVENT_LIST_FIELDS[name]] = packed_field(_EVENT_LIST_FIELDS[name], value)
        else:
            assert isinstance(value, int)
            fields[_EVENT_INT_FIELDS[name]] = int_field(_EVENT_INT_FIELDS[name], value)
    return b"".join(fields[number] for number in sorted(fields))


def event_entries(events: Sequence[Event], seat: int) -> bytes:
    """The ``events`` entries (field 3 of AbluxxenDecision) as ``seat`` may see them."""
    out = []
    cache = _EVENTS
    for event in events:
        hidden = is_private(event, seat)
        cache_key = (event, hidden)
        entry = cache.get(cache_key)
        if entry is None:
            entry = bytes_field(3, _event_payload(event, hidden))
            if len(cache) >= _EVENT_CACHE_LIMIT:
                cache.clear()
            cache[cache_key] = entry
        out.append(entry)
    return b"".join(out)


def decide_request_bytes(
    request_id: int,
    deadline_ms: int,
    time_bank_ms: int,
    obs: ab.Observation,
    events: Sequence[Event],
) -> bytes:
    """A serialized ``ArenaMessage{decide: DecideRequest{...}}`` for ``obs.seat``."""
    decision = (
        bytes_field(1, observation_bytes(obs))
        + b"".join([_legal_entry(a) for a in obs.legal])
        + event_entries(events, obs.seat)
    )
    request = (
        int_field(1, request_id)
        + int_field(2, deadline_ms)
        + int_field(3, time_bank_ms)
        + bytes_field(10, decision)
    )
    return bytes_field(2, request)
