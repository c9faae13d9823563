"""Fuzzing the SDK's reading of a DecideRequest (``arena.sdk.answer``): arbitrary bytes
that parse as a DecideRequest, and real requests of the game with their fields
mutated (table size, rules, decision kind, seats, card lists, legal actions, the game
case). ``read_request`` and ``decide`` give a valid observation and a reply naming one
of its legal actions, or a BadRequestError in plain words; nothing else escapes."""

from __future__ import annotations

import contextlib
from typing import Any

from google.protobuf.message import DecodeError
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.sdk.answer import BadRequestError, decide, read_request
from arena.v1 import bot_pb2

from .matches import ACTIONS, GAME, INT32, NUMBERS, UINT64, decision_points, spelled
from .plain import FUZZ, assert_plain

WIRE = GAME.wire
CASE = WIRE.oneof
SCALARS = (
    "seat",
    "players",
    "deals",
    "deal",
    "start_seat",
    "turn",
    "active",
    "decision",
    "deciding",
    "deck_size",
    "victim",
    "drawer",
    "draws_left",
)
NUMBER_LISTS = ("hand", "hand_sizes", "shadow", "discard", "checks", "scores")
WORDS = st.one_of(
    st.sampled_from(["", "duel", "plain", "shared", "fewest_hand_cards", "whole_stack"]),
    st.text(max_size=12),
)


def _mutate_rules(rules: Any, draw: st.DrawFn) -> None:
    name = draw(
        st.sampled_from(
            ["tiebreak", "two_player", "shadow_take", "preset", "max_turns", "optional_draw"]
        )
    )
    if name == "max_turns":
        rules.max_turns = draw(NUMBERS)
    elif name == "optional_draw":
        rules.optional_draw = draw(st.booleans())
    else:
        setattr(rules, name, draw(WORDS))


def _mutate_action(action: Any, draw: st.DrawFn) -> None:
    name = draw(st.sampled_from(["type", "value", "naturals", "jokers", "slot", "code"]))
    setattr(action, name, draw(NUMBERS))


def _mutate(decision: Any, draw: st.DrawFn) -> None:
    """One change to a request's game part."""
    obs = decision.observation
    how = draw(
        st.sampled_from(
            ["scalar", "rules", "numbers", "cards", "display", "played", "past", "legal", "event"]
        )
    )
    if how == "scalar":
        setattr(obs, draw(st.sampled_from(SCALARS)), draw(NUMBERS))
    elif how == "rules":
        _mutate_rules(obs.rules, draw)
    elif how == "numbers":
        field = getattr(obs, draw(st.sampled_from(NUMBER_LISTS)))
        del field[:]
        field.extend(draw(st.lists(NUMBERS, max_size=6)))
    elif how == "cards":
        entries = getattr(obs, draw(st.sampled_from(["known", "pool"])))
        entries.add().values.extend(draw(st.lists(NUMBERS, max_size=4)))
    elif how == "display":
        display = obs.displays.add() if not obs.displays else obs.displays[0]
        s = display.sets.add()
        s.value, s.naturals, s.jokers = draw(NUMBERS), draw(NUMBERS), draw(NUMBERS)
    elif how == "played":
        obs.played.value, obs.played.jokers = draw(NUMBERS), draw(NUMBERS)
    elif how == "past":
        past = obs.past_deals.add(reason=draw(WORDS), turns=draw(NUMBERS))
        past.scores.extend(draw(st.lists(NUMBERS, max_size=5)))
        past.ranks.extend(draw(st.lists(NUMBERS, max_size=5)))
    elif how == "legal":
        what = draw(st.sampled_from(["clear", "add", "change"]))
        if what == "clear":
            del decision.legal[:]
        elif what == "add":
            added = decision.legal.add()
            added.CopyFrom(spelled(draw(st.sampled_from(ACTIONS))))
            if draw(st.booleans()):
                added.type = draw(st.one_of(st.integers(0, 10), INT32))
            if draw(st.booleans()):
                _mutate_action(added, draw)
        elif decision.legal:
            _mutate_action(decision.legal[draw(st.integers(0, len(decision.legal) - 1))], draw)
    else:
        event = decision.events.add(type=draw(WORDS), seat=draw(NUMBERS))
        event.cards.extend(draw(st.lists(NUMBERS, max_size=4)))


@st.composite
def decide_requests(draw: st.DrawFn) -> bot_pb2.DecideRequest:
    """A real request of the game, changed: its fields, its game case, or its bytes."""
    point = draw(st.sampled_from(decision_points()))
    data = WIRE.decide_request(draw(UINT64), 1000, 0, point.observation, point.events)
    request = bot_pb2.ArenaMessage.FromString(data).decide
    for _ in range(draw(st.integers(0, 3))):
        _mutate(getattr(request, CASE), draw)
    if draw(st.integers(0, 19)) == 0:
        request.ClearField("game")  # no game at all
    if draw(st.integers(0, 7)) == 0:  # the bytes themselves: cut or flipped
        raw = bytearray(request.SerializeToString())
        at = draw(st.integers(0, len(raw) - 1))
        if draw(st.booleans()):
            del raw[at:]
        else:
            raw[at] ^= draw(st.integers(1, 255))
        # gRPC refuses bytes that do not parse before the SDK sees them.
        with contextlib.suppress(DecodeError):
            request = bot_pb2.DecideRequest.FromString(bytes(raw))
    return request


class FirstLegal:
    """A policy that always plays its first legal action."""

    def choose(self, obs: Any) -> Any:
        return obs.legal[0]


def _check(request: bot_pb2.DecideRequest) -> None:
    """A valid observation and its reply, or a BadRequestError in plain words."""
    try:
        obs = read_request(request)
    except BadRequestError as error:
        assert_plain(str(error), where="BadRequestError")
        return
    assert obs.legal, "an observation without legal actions"
    assert all(action in ACTIONS for action in obs.legal)
    assert isinstance(obs.seat, int)
    config = obs.config
    assert GAME.players_of(config) in GAME.table_sizes
    GAME.config_to_json(config)
    # What the game offers a policy works on it: scores, JSON, the learning tensor.
    assert len(obs.scores) == len(obs.match_scores) == GAME.players_of(config)
    obs.to_json()
    assert len(GAME.observation_tensor(obs)) == GAME.observation_tensor_size(config)
    reply = decide(FirstLegal(), request)
    assert reply.request_id == request.request_id
    assert reply.WhichOneof("choice") == "legal_index"
    assert reply.legal_index == 0


@settings(FUZZ, max_examples=300)
@given(data=st.binary(max_size=200))
def test_any_bytes_that_parse_are_read_or_refused(data: bytes) -> None:
    try:
        request = bot_pb2.DecideRequest.FromString(data)
    except DecodeError:
        return  # gRPC refuses them before the SDK sees them
    _check(request)


@settings(FUZZ, max_examples=400)
@given(request=decide_requests())
def test_mutated_requests_are_read_or_refused(request: bot_pb2.DecideRequest) -> None:
    _check(request)


@settings(FUZZ, max_examples=50)
@given(point=st.sampled_from(decision_points()), request_id=UINT64)
def test_real_requests_are_read(point: Any, request_id: int) -> None:
    data = WIRE.decide_request(request_id, 1000, 0, point.observation, point.events)
    request = bot_pb2.ArenaMessage.FromString(data).decide
    obs = read_request(request)
    assert obs == point.observation
    assert decide(FirstLegal(), request).legal_index == 0
