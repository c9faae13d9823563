"""Decision flow: the canonical legal sets of RULES.md §11 and how ``apply`` rejects
malformed and illegal actions."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games import abluxxen as ab
from arena.games.abluxxen import DecisionKind as D
from arena.games.abluxxen.state import State

from .helpers import (
    PRESET_NAMES,
    J,
    act,
    build_state,
    codes,
    play_states,
    random_policy,
    snapshot,
)


def expected_play_codes(hand: list[int]) -> list[int]:
    """§11 PLAY, enumerated from the hand's values alone."""
    count = Counter(hand)
    jokers = count[J]
    out = []
    for value in range(1, 14):
        for naturals in range(1, count[value] + 1):
            for j in range(jokers + 1):
                out.append(1000 + 100 * value + 10 * naturals + j)
    out += [1000 + 100 * 14 + j for j in range(1, jokers + 1)]
    return sorted(out)


def reference_legal(state: State) -> list[int]:
    """The canonical legal codes of the pending decision, computed from the zones."""
    kind = state.kind
    if kind is D.PLAY:
        return expected_play_codes(state.hand_values(state.deciding))
    if kind in (D.DRAW, D.OPTIONAL_DRAW):
        out = [10 + i for i, slot in enumerate(state.pool) if slot]
        if state.deck:
            out.append(90)
        if kind is D.OPTIONAL_DRAW:
            out.append(91)
        return out
    if kind is D.ATTACKER_TAKE:
        return [1, 2]
    if kind is D.VICTIM_CHOICE:
        return [3, 4]
    assert kind is D.SHADOW_PICK
    assert state.played is not None
    return [100 + v for v in shadow_combinations(state, *state.played)]


def shadow_combinations(state: State, value: int, cards: tuple[int, ...]) -> list[int]:
    """§9.4: values of the shadow stacks a set of ``value`` with ``cards`` abluxxes."""
    whole = state.config.options.shadow_take == "whole_stack"
    sizes = {v: len(state.shadow[v]) for v in range(1, 13)}
    return [
        v
        for v in range(1, value)
        if v < 13 and (sizes[v] == len(cards) if whole else sizes[v] >= len(cards) > 0)
    ]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(1, 13), max_size=40),
    st.integers(0, 5),
)
def test_play_lists_every_value_count_and_joker_combination(values: list[int], jokers: int) -> None:
    counts = Counter(values)
    hand = [v for v in range(1, 14) for _ in range(min(counts[v], 8))] + [J] * jokers
    if not hand:
        hand = [J]
    state = build_state(3, "amigo", hands=[hand, [], []], pool=[])
    legal = ab.legal_actions(state)
    assert codes(legal) == expected_play_codes(hand)
    assert codes(legal) == sorted(codes(legal))
    assert len(set(codes(legal))) == len(legal)
    for action in legal:
        assert action.kind is ab.ActionKind.PLAY
        if action.value == J:
            assert action.naturals == 0
            assert 1 <= action.jokers <= hand.count(J)
        else:
            assert 1 <= action.naturals <= hand.count(action.value)
            assert action.jokers <= hand.count(J)
        assert action.code == 1000 + 100 * action.value + 10 * action.naturals + action.jokers
    alone = [ab.jokers_alone(j) for j in range(1, hand.count(J) + 1)]
    assert [a for a in legal if a.value == J] == alone


def test_a_play_set_for_a_small_hand_in_full() -> None:
    state = build_state(3, "amigo", hands=[[3, 3, 7, J], [1], [1]], pool=[])
    assert [str(a) for a in ab.legal_actions(state)] == [
        "PLAY 1x3",
        "PLAY 1x3+1J",
        "PLAY 2x3",
        "PLAY 2x3+1J",
        "PLAY 1x7",
        "PLAY 1x7+1J",
        "PLAY 1xJ",
    ]


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_legal_set_in_random_games_is_the_canonical_one(
    preset_name: str, players: int
) -> None:
    config = ab.make_config(
        players, preset_name, shadow_take="any_subset" if players == 2 else "whole_stack"
    )
    seen: set[D] = set()
    for seed in range(3):
        state = ab.new_game(config, random.Random(seed))
        for now in play_states(state, random_policy(random.Random(seed + 50))):
            assert now.kind is not None
            seen.add(now.kind)
            legal = ab.legal_actions(now)
            assert codes(legal) == reference_legal(now), now.kind
            assert ab.legal_actions(now, now.deciding) == legal
            if now.kind is D.DRAW:
                assert now.drawer == now.deciding
                assert now.draws_left >= 1
    assert {D.PLAY, D.ATTACKER_TAKE, D.VICTIM_CHOICE, D.DRAW} <= seen


@pytest.mark.parametrize("shadow_take", ["whole_stack", "any_subset"])
def test_a_single_shadow_combination_is_taken_without_a_decision(shadow_take: str) -> None:
    config = ab.make_config(2, "amigo", shadow_take=shadow_take)
    counts = Counter[int]()
    for seed in range(6):
        state = ab.new_game(config, random.Random(seed))
        rng = random.Random(seed)
        while not state.is_over:
            legal = ab.legal_actions(state)
            action = rng.choice(legal)
            before = state.clone()
            events = len(state.events)
            ab.apply(state, action)
            if action.kind is not ab.ActionKind.PLAY or state.deal != before.deal:
                continue
            if state.is_over and state.result and state.result.end_reason == "hand_empty":
                continue
            played = state.displays[before.deciding][-1]
            combos = shadow_combinations(before, *played)
            new = [e for e in state.events[events:] if e[0] == "shadowluxx"]
            counts[min(len(combos), 2)] += 1
            if not combos:
                assert new == []
                assert state.kind is not D.SHADOW_PICK
            elif len(combos) == 1:
                assert [e[2] for e in new] == combos
                assert state.kind is not D.SHADOW_PICK
            else:
                assert new == []
                assert (state.kind, state.deciding) == (D.SHADOW_PICK, before.deciding)
                assert [a.value for a in ab.legal_actions(state)] == combos
    assert counts[0] > 0, "no play without a shadow combination"
    assert counts[1] > 0, "no play with a single shadow combination"
    assert counts[2] > 0, "no play with several shadow combinations"


def test_simple_decisions_have_their_fixed_sets() -> None:
    state = build_state(
        3,
        "amigo",
        hands=[[9, 9, 1], [8], [8]],
        displays=[[], [[5, 5]], []],
        pool=[1, 2, 3],
        deck=[],
        rest="discard",
    )
    act(state, ab.play(9, 2))
    assert ab.legal_actions(state) == [ab.TAKE, ab.LEAVE]
    assert ab.observe(state, 0).legal == (ab.TAKE, ab.LEAVE)
    act(state, ab.LEAVE)
    assert ab.legal_actions(state) == [ab.TAKE_BACK, ab.DISCARD]
    act(state, ab.DISCARD)
    assert state.kind is D.DRAW
    assert ab.legal_actions(state) == [ab.pool(0), ab.pool(1), ab.pool(2)], "empty deck: no DECK"
    for seat in (0, 2):
        assert ab.legal_actions(state, seat) == []
        assert ab.observe(state, seat).legal == ()


def test_a_pool_group_counts_as_one_drawn_card_in_the_duel() -> None:
    state = build_state(
        2,
        "amigo",
        hands=[[9, 9, 1], [8]],
        displays=[[], [[5, 5]]],
        pool=[[2, 13, J], 3, [4, 13], 6, 7, 8],
        shadow=[1, 3, 3, 3, 4, 4, 4, 6, 6, 6, 10, 10, 10],
        deck=[10, 11, 12],
    )
    act(state, ab.play(9, 2), ab.TAKE)
    assert (state.kind, state.deciding, state.draws_left) == (D.DRAW, 1, 2)
    act(state, ab.pool(0))
    assert state.hand_values(1) == [2, 8, 13, J]
    assert state.known[1][13] == 1
    assert state.known[1][J] == 1
    assert (state.kind, state.draws_left) == (D.DRAW, 1)
    act(state, ab.pool(1))
    assert state.hand_values(1) == [2, 4, 8, 13, 13, J]
    assert state.kind is D.PLAY
    assert [len(slot) for slot in state.pool] == [1, 1, 1, 1, 1, 1]


# ------------------------------------------------------------ rejected actions


def draw_position() -> State:
    """Seat 1 owes two draws; the deck is empty and the pool has six slots."""
    state = build_state(
        3,
        "ravensburger-2014",
        hands=[[9, 9, 1], [8], [8]],
        displays=[[], [[5, 5]], []],
        pool=[1, 2, 3, 4, 6, 7],
        rest="discard",
    )
    act(state, ab.play(9, 2), ab.TAKE)
    assert state.kind is D.DRAW
    return state


def play_position() -> State:
    return build_state(3, "amigo", hands=[[3, 3, 7, J], [1], [1]], pool=[1, 2, 3, 4, 5, 6])


MALFORMED: list[Any] = [
    None,
    1,
    1090,
    "TAKE",
    {"type": "take"},
    ab.TAKE.to_json(),
    (1, ab.ActionKind.TAKE),
]


@pytest.mark.parametrize("thing", MALFORMED, ids=repr)
@pytest.mark.parametrize("position", [play_position, draw_position])
def test_apply_rejects_what_is_not_an_action(thing: Any, position: Any) -> None:
    state = position()
    before = snapshot(state)
    with pytest.raises(ab.MalformedActionError):
        ab.apply(state, thing)
    assert snapshot(state) == before


FORGED = [
    ab.Action(1, ab.ActionKind.PLAY),
    ab.Action(1310, ab.ActionKind.PLAY, 13, 1, 0),
    ab.Action(10, ab.ActionKind.POOL, slot=3),
    ab.Action(1031, ab.ActionKind.PLAY, 3, 2, 1),
    ab.Action(90, ab.ActionKind.PASS),
    ab.Action(5000, ab.ActionKind.PLAY, 3, 1, 0),
]


@pytest.mark.parametrize("forged", FORGED, ids=str)
@pytest.mark.parametrize("position", [play_position, draw_position])
def test_forged_action_with_mismatched_fields_is_malformed(
    forged: ab.Action, position: Any
) -> None:
    """Regression: an Action whose fields disagree with its code used to pass ``apply``'s
    check (actions compare by code only); Action(1, PLAY) was then played as TAKE at a
    PLAY decision and moved another seat's display into the active hand."""
    state = position()
    before = snapshot(state)
    with pytest.raises(ab.MalformedActionError):
        ab.apply(state, forged)
    assert snapshot(state) == before


@pytest.mark.parametrize(
    "data",
    [
        None,
        "take",
        [],
        {},
        {"type": 1},
        {"type": "steal"},
        {"type": "take", "victim": 1},
        {"type": "pool"},
        {"type": "pool", "slot": -1},
        {"type": "pool", "slot": 80},
        {"type": "pool", "slot": "0"},
        {"type": "pool", "slot": True},
        {"type": "play", "value": 7},
        {"type": "play", "value": 0, "naturals": 1, "jokers": 0},
        {"type": "play", "value": 15, "naturals": 1, "jokers": 0},
        {"type": "play", "value": 7, "naturals": 0, "jokers": 1},
        {"type": "play", "value": 7, "naturals": 9, "jokers": 0},
        {"type": "play", "value": 7, "naturals": 1, "jokers": 6},
        {"type": "play", "value": 7, "naturals": 1.0, "jokers": 0},
        {"type": "play", "value": 14, "naturals": 1, "jokers": 1},
        {"type": "play", "value": 14, "naturals": 0, "jokers": 0},
        {"type": "shadow_pick"},
        {"type": "shadow_pick", "value": 0},
        {"type": "shadow_pick", "value": 15},
    ],
    ids=repr,
)
def test_bad_json_actions_are_malformed(data: Any) -> None:
    with pytest.raises(ab.MalformedActionError):
        ab.action_from_json(data)


@pytest.mark.parametrize(
    "code", [0, 5, 9, 92, 99, 100, 115, 999, 1000, 1090, 2386, 2406, -1, "1", None, 1.5]
)
def test_unknown_codes_are_malformed(code: Any) -> None:
    with pytest.raises(ab.MalformedActionError, match="not the code"):
        ab.from_code(code)


@pytest.mark.parametrize(
    ("position", "action"),
    [
        (play_position, ab.TAKE),
        (play_position, ab.PASS),
        (play_position, ab.DECK),
        (play_position, ab.pool(0)),
        (play_position, ab.shadow_pick(2)),
        (play_position, ab.play(3, 3)),
        (play_position, ab.play(4, 1)),
        (play_position, ab.play(7, 1, 2)),
        (play_position, ab.jokers_alone(2)),
        (draw_position, ab.PASS),
        (draw_position, ab.DECK),
        (draw_position, ab.pool(6)),
        (draw_position, ab.TAKE),
        (draw_position, ab.play(8, 1)),
    ],
    ids=lambda x: str(x) if isinstance(x, ab.Action) else x.__name__,
)
def test_illegal_actions_are_refused_naming_the_legal_set(position: Any, action: ab.Action) -> None:
    state = position()
    before = snapshot(state)
    legal = ab.legal_actions(state)
    with pytest.raises(ab.IllegalActionError) as info:
        ab.apply(state, action)
    message = str(info.value)
    assert str(action) in message
    legal_part = message.split("legal: ", 1)[1]
    assert legal_part.split(", ") == [str(a) for a in legal]
    assert snapshot(state) == before


def test_only_the_deciding_seat_may_act() -> None:
    state = draw_position()
    before = snapshot(state)
    for seat in (0, 2):
        with pytest.raises(ab.IllegalActionError, match="seat 1 decides DRAW"):
            ab.apply(state, ab.pool(0), seat)
    assert snapshot(state) == before
    ab.apply(state, ab.pool(0), 1)
    assert state.draws_left == 1


def test_nothing_is_legal_once_the_match_is_over() -> None:
    state = build_state(3, "amigo", hands=[[9], [1], [1]], pool=[1, 2, 3, 4, 5, 6])
    act(state, ab.play(9, 1))
    assert state.is_over
    before = snapshot(state)
    with pytest.raises(ab.IllegalActionError, match="over"):
        ab.apply(state, ab.play(9, 1))
    assert snapshot(state) == before
    assert ab.legal_actions(state) == []
    assert all(ab.observe(state, s).legal == () for s in range(3))
    assert ab.observe(state, 0).decision is None


def test_the_jokers_alone_play_is_its_own_action() -> None:
    with pytest.raises(ab.MalformedActionError):
        ab.play(J, 1, 1)
    assert ab.jokers_alone(3) == ab.play(J, 0, 3)
    assert ab.jokers_alone(3).count == 3
    assert ab.jokers_alone(3).code == 2403
    assert ab.play(13, 8, 5).code == 2385
