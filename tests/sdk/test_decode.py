"""The fast decoder (raw views + memos in arena.games.abluxxen.wire) reads exactly what the
plain attribute-by-attribute decoding of the protobuf messages reads."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games import abluxxen as ab
from arena.games.abluxxen import events as event_views
from arena.games.abluxxen import wire
from arena.games.abluxxen.resample import determinize
from arena.v1 import abluxxen_pb2 as pb


def _decision_kind(number: int) -> ab.DecisionKind:
    """The decision kind of that number; the decoders refuse others in words."""
    try:
        return ab.DecisionKind(number)
    except ValueError:
        raise wire.MalformedObservationError(
            f"decision kind {number} is none of the game's (1..{len(ab.DecisionKind)})"
        ) from None


def reference_decode(msg: pb.AbluxxenObservation, legal: Any) -> ab.Observation:
    """The straightforward decoding the fast one must equal (no views, no memos)."""
    rules = msg.rules
    played = msg.played if msg.HasField("played") else None
    return ab.Observation(
        seat=msg.seat,
        config=ab.GameConfig(
            players=msg.players,
            options=ab.RuleOptions(
                optional_draw=rules.optional_draw,
                expert_ones=rules.expert_ones,
                tiebreak=rules.tiebreak,  # type: ignore[arg-type]
                two_player=rules.two_player,  # type: ignore[arg-type]
                shadow_take=rules.shadow_take,  # type: ignore[arg-type]
                max_turns=rules.max_turns,
            ),
            deals=msg.deals,
            duplicate=msg.duplicate,
        ),
        deal=msg.deal,
        start_seat=msg.start_seat,
        turn=msg.turn,
        active=msg.active,
        decision=_decision_kind(msg.decision) if msg.decision else None,
        deciding=msg.deciding,
        legal=tuple(wire.action_from_proto(a) for a in legal),
        hand=tuple(msg.hand),
        hand_sizes=tuple(msg.hand_sizes),
        known=tuple(tuple(k.values) for k in msg.known),
        displays=tuple(
            tuple((s.value, s.naturals, s.jokers) for s in d.sets) for d in msg.displays
        ),
        pool=tuple(tuple(slot.values) for slot in msg.pool),
        shadow=tuple(msg.shadow),
        discard=tuple(msg.discard),
        deck_size=msg.deck_size,
        played=(played.value, played.naturals, played.jokers) if played is not None else None,
        victim=msg.victim,
        checks=tuple(msg.checks),
        drawer=msg.drawer,
        draws_left=msg.draws_left,
        abluxxed=msg.abluxxed,
        past_deals=tuple(
            ab.DealResult(d.reason, tuple(d.scores), tuple(d.hand_cards), tuple(d.ranks), d.turns)
            for d in msg.past_deals
        ),
    )


def _observations(players: int, preset: str, seed: int) -> list[tuple[ab.Observation, Any]]:
    """(observation, decision message) of every seat at every position of a random game
    of two deals; the deciding seat's comes with its legal actions and events."""
    state = ab.new_game(ab.make_config(players, preset, deals=2), random.Random(seed))
    rng = random.Random(seed + 1)
    out = []
    while not state.is_over:
        for seat in range(players):
            obs = ab.observe(state, seat)
            events = event_views.views(state.events, seat, max(0, len(state.events) - 5))
            out.append((obs, wire.decision_to_proto(obs, events)))
        ab.apply(state, rng.choice(ab.legal_actions(state)))
    return out


@pytest.mark.parametrize("preset", sorted(ab.PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.slow
def test_fast_decoding_gives_back_every_observation(preset: str, players: int) -> None:
    kinds = set()
    for seed in range(2):
        for obs, decision in _observations(players, preset, seed):
            kinds.add(obs.decision)
            fast = wire.decision_from_proto(decision)
            assert fast == obs
            assert type(fast) is ab.Observation
            assert wire.observation_from_proto(decision.observation, decision.legal) == obs
            assert reference_decode(decision.observation, decision.legal) == obs
    assert {ab.DecisionKind.PLAY, ab.DecisionKind.DRAW} <= kinds


def test_a_fast_decoded_observation_determinizes_back_to_itself() -> None:
    for obs, decision in _observations(4, "amigo", 3)[::7]:
        fast = wire.decision_from_proto(decision)
        assert ab.observe(determinize(fast, random.Random(1)), fast.seat) == obs


_int32 = st.integers(-(2**31), 2**31 - 1)
_small = st.integers(-3, 20)
_numbers = st.lists(st.one_of(_small, _int32), max_size=6)


@st.composite
def _messages(draw: st.DrawFn) -> pb.AbluxxenDecision:
    """Arbitrary observation messages, legal or not, near-valid configs most of the time."""
    preset = draw(st.sampled_from(sorted(ab.PRESETS)))
    rules = wire.rules_to_proto(ab.PRESETS[preset])
    rules.max_turns = draw(st.sampled_from([rules.max_turns] * 8 + [1, 400, -1]))
    rules.tiebreak = draw(st.sampled_from([rules.tiebreak] * 8 + ["", "x"]))
    if draw(st.booleans()):
        rules.preset = ""
    msg = pb.AbluxxenObservation(
        seat=draw(_small),
        players=draw(st.sampled_from([2, 3, 4, 5] * 4 + [0, 6])),
        rules=rules,
        deals=draw(st.sampled_from([1, 2, 3] * 5 + [0, -1])),
        duplicate=draw(st.booleans()),
        deal=draw(_int32),
        start_seat=draw(_small),
        turn=draw(_int32),
        active=draw(_small),
        decision=draw(st.sampled_from([*range(7)] * 4 + [7, 99])),  # 7, 99: unknown kinds
        deciding=draw(_small),
        hand=draw(_numbers),
        hand_sizes=draw(_numbers),
        known=[pb.AbluxxenCards(values=v) for v in draw(st.lists(_numbers, max_size=5))],
        displays=[
            pb.AbluxxenDisplay(
                sets=[
                    pb.AbluxxenSet(value=a, naturals=b, jokers=c)
                    for a, b, c in draw(st.lists(st.tuples(_small, _small, _int32), max_size=4))
                ]
            )
            for _ in range(draw(st.integers(0, 5)))
        ],
        pool=[pb.AbluxxenCards(values=v) for v in draw(st.lists(_numbers, max_size=5))],
        shadow=draw(_numbers),
        discard=draw(_numbers),
        deck_size=draw(_int32),
        victim=draw(_small),
        checks=draw(_numbers),
        drawer=draw(_small),
        draws_left=draw(_small),
        abluxxed=draw(st.booleans()),
        past_deals=[
            pb.AbluxxenDealResult(reason=r, scores=s, hand_cards=h, ranks=k, turns=t)
            for r, s, h, k, t in draw(
                st.lists(
                    st.tuples(st.text(max_size=3), _numbers, _numbers, _numbers, _int32),
                    max_size=3,
                )
            )
        ],
        scores=draw(_numbers),
    )
    played = draw(st.one_of(st.none(), st.tuples(_small, _small, _small)))
    if played is not None:  # (0, 0, 0) too: present, though every field is the default
        msg.played.CopyFrom(pb.AbluxxenSet(value=played[0], naturals=played[1], jokers=played[2]))
    codes = st.sampled_from(sorted(ab.ACTIONS))
    legal = [wire.action_to_proto(ab.ACTIONS[c]) for c in draw(st.lists(codes, max_size=6))]
    if draw(st.integers(0, 9)) == 0:  # by code, maybe no action's
        legal.append(pb.AbluxxenAction(code=draw(st.integers(-2, 3000))))
    return pb.AbluxxenDecision(observation=msg, legal=legal)


def _outcome(decode: Any, *args: Any) -> object:
    try:
        return decode(*args)
    except ValueError as error:
        return (type(error), str(error))


@settings(max_examples=300, deadline=None)
@given(_messages())
@pytest.mark.slow
def test_fast_decoding_equals_the_plain_one_on_arbitrary_messages(
    decision: pb.AbluxxenDecision,
) -> None:
    expected = _outcome(reference_decode, decision.observation, decision.legal)
    assert _outcome(wire.decision_from_proto, decision) == expected
    assert _outcome(wire.observation_from_proto, decision.observation, decision.legal) == expected


def test_edge_cases_decode_like_the_plain_decoding() -> None:
    _, decision = _observations(3, "amigo", 5)[40]
    cases: list[pb.AbluxxenDecision] = []
    for played in (None, (0, 0, 0), (14, 0, 2)):  # (0, 0, 0): present yet all defaults
        case = pb.AbluxxenDecision()
        case.CopyFrom(decision)
        case.observation.ClearField("played")
        if played is not None:
            case.observation.played.CopyFrom(pb.AbluxxenSet(value=played[0], jokers=played[2]))
        cases.append(case)
    negative = pb.AbluxxenDecision()
    negative.CopyFrom(decision)
    negative.observation.hand[:] = [-1, 2**31 - 1, -(2**31)]  # 10-byte varints
    negative.observation.known.add()  # an empty entry
    negative.observation.displays.add().sets.add()  # an empty display set
    cases.append(negative)
    for case in cases:
        expected = reference_decode(case.observation, case.legal)
        assert wire.decision_from_proto(case) == expected
        assert wire.observation_from_proto(case.observation, case.legal) == expected
    assert reference_decode(cases[1].observation, ()).played == (0, 0, 0)
