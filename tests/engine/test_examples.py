"""RULES.md §12: every rulebook example, on the positions the books describe."""

from __future__ import annotations

import pytest

from arena.games import abluxxen as ab
from arena.games.abluxxen import DecisionKind as D

from .helpers import J, act, build_state, codes, display_values, pool_values

# Seats of the German example (clockwise): Andi, Ben, Claudia, Daniel.
ANDI, BEN, CLAUDIA, DANIEL = range(4)


def german_example() -> ab.State:
    """Beispiel 2a: Andi about to play two 12s. Ben's top set is a single 3, Claudia's
    two 9s (over two 1s), Daniel's two 7s (over a single 5)."""
    return build_state(
        4,
        "ravensburger-2014",
        hands=[[12, 12, 2, 6], [13, 8, 8, 4], [2, 3, 11], [4, 4, 10]],
        displays=[[[3, 3, 3]], [[3]], [[1, 1], [9, 9]], [[5], [7, 7]]],
        pool=[10, 11, 2, 6, 8, 10],
        deck=[4, 5, 6, 1, 2],
    )


@pytest.mark.parametrize("daniel_choice", [ab.TAKE_BACK, ab.DISCARD])
def test_beispiel_2a_andi_plays_two_12s(daniel_choice: ab.Action) -> None:
    state = german_example()
    act(state, ab.play(12, 2))
    # Ben's single 3: same value order but another count, so Claudia is first abluxxed.
    assert state.kind is D.ATTACKER_TAKE
    assert state.deciding == ANDI
    assert state.victim == CLAUDIA
    assert [e[2] for e in state.events if e[0] == "abluxx"] == [CLAUDIA]
    # Andi takes Claudia's 9s; Claudia draws 2, one card at a time.
    act(state, ab.TAKE)
    assert len(state.hands[ANDI][9]) == 2
    assert state.known[ANDI][9] == 2
    assert display_values(state, CLAUDIA) == [[1, 1]]
    assert (state.kind, state.deciding, state.draws_left) == (D.DRAW, CLAUDIA, 2)
    act(state, ab.pool(0))
    assert (state.kind, state.deciding, state.draws_left) == (D.DRAW, CLAUDIA, 1)
    assert len(state.pool) == 5, "the pool is refilled only after all owed draws"
    act(state, ab.DECK)
    assert pool_values(state) == [[11], [2], [6], [8], [10], [5]]
    assert state.hand_values(CLAUDIA) == [2, 3, 4, 10, 11]
    # Daniel's two 7s: abluxxed too; Andi leaves them, Daniel chooses.
    assert (state.kind, state.deciding, state.victim) == (D.ATTACKER_TAKE, ANDI, DANIEL)
    act(state, ab.LEAVE)
    assert (state.kind, state.deciding) == (D.VICTIM_CHOICE, DANIEL)
    assert ab.legal_actions(state) == [ab.TAKE_BACK, ab.DISCARD]
    act(state, daniel_choice)
    if daniel_choice is ab.TAKE_BACK:
        assert state.hand_values(DANIEL) == [4, 4, 7, 7, 10]
    else:
        assert [c // 8 + 1 for c in state.discard[-2:]] == [7, 7]
        assert (state.kind, state.deciding, state.draws_left) == (D.DRAW, DANIEL, 2)
        act(state, ab.pool(0), ab.pool(0))
        assert state.hand_values(DANIEL) == [2, 4, 4, 10, 11]
    assert display_values(state, DANIEL) == [[5]]
    assert display_values(state, BEN) == [[3]]
    # The turn is over: Ben plays next (no optional draw: Andi abluxxed anyway).
    assert (state.kind, state.deciding, state.active) == (D.PLAY, BEN, BEN)
    assert [e[2] for e in state.events if e[0] == "abluxx"] == [CLAUDIA, DANIEL]


def test_beispiel_2b_ben_plays_one_13() -> None:
    state = german_example()
    act(state, ab.play(12, 2), ab.TAKE, ab.pool(0), ab.DECK, ab.LEAVE, ab.TAKE_BACK)
    events_before = len(state.events)
    act(state, ab.play(13, 1))
    # Claudia's two 1s: other count. Daniel's now exposed single 5: abluxxed.
    assert (state.kind, state.deciding, state.victim) == (D.ATTACKER_TAKE, BEN, DANIEL)
    act(state, ab.LEAVE)
    assert (state.kind, state.deciding) == (D.VICTIM_CHOICE, DANIEL)
    act(state, ab.TAKE_BACK)
    # Andi's two 12s: other count, not abluxxed. The turn passes to Claudia.
    assert (state.kind, state.deciding) == (D.PLAY, CLAUDIA)
    abluxxes = [e for e in state.events[events_before:] if e[0] == "abluxx"]
    assert [e[2] for e in abluxxes] == [DANIEL]
    assert display_values(state, ANDI) == [[3, 3, 3], [12, 12]]
    assert display_values(state, CLAUDIA) == [[1, 1]]
    assert display_values(state, DANIEL) == []
    assert 5 in state.hand_values(DANIEL)


# Seats of the English example (clockwise): Niko, Caro, Lisa, Louis.
NIKO, CARO, LISA, LOUIS = range(4)


def english_example(preset_name: str = "amigo") -> ab.State:
    """Niko about to play three 7s. Caro's top set is two 5s, Lisa's three 4s (over two
    10s), Louis's two 3s and a joker (over a single 13). The pool holds a joker."""
    return build_state(
        4,
        preset_name,
        hands=[[7, 7, 7, 3, 3, 1], [13, 2, 9], [6, 6, 12], [5, 11]],
        displays=[[], [[5, 5]], [[10, 10], [4, 4, 4]], [[13], [3, 3, J]]],
        pool=[2, 9, J, 11, 6, 8],
        deck=[4, 10, 12, 1, 5],
    )


def test_niko_plays_three_7s() -> None:
    state = english_example()
    act(state, ab.play(7, 3))
    # Caro: two 5s, another count, no abluxx. Lisa: three 4s, abluxxed.
    assert (state.kind, state.deciding, state.victim) == (D.ATTACKER_TAKE, NIKO, LISA)
    act(state, ab.LEAVE)
    assert (state.kind, state.deciding) == (D.VICTIM_CHOICE, LISA)
    act(state, ab.TAKE_BACK)
    assert state.hand_values(LISA) == [4, 4, 4, 6, 6, 12]
    assert state.known[LISA][4] == 3
    assert display_values(state, LISA) == [[10, 10]]
    # Louis: two 3s and a joker (three cards of value 3), abluxxed; Niko takes them.
    assert (state.kind, state.deciding, state.victim) == (D.ATTACKER_TAKE, NIKO, LOUIS)
    act(state, ab.TAKE)
    assert state.hand_values(NIKO) == [1, 3, 3, 3, 3, J]
    assert (state.kind, state.deciding, state.draws_left) == (D.DRAW, LOUIS, 3)
    # Louis draws two from the pool and one from the deck; slots move left.
    act(state, ab.pool(0))
    assert pool_values(state) == [[9], [J], [11], [6], [8]]
    act(state, ab.pool(0))
    assert pool_values(state) == [[J], [11], [6], [8]]
    assert codes(ab.legal_actions(state)) == [10, 11, 12, 13, 90]
    act(state, ab.DECK)
    assert state.hand_values(LOUIS) == [2, 4, 5, 9, 11]
    assert state.known[LOUIS][2] == 1
    assert state.known[LOUIS][9] == 1
    assert state.known[LOUIS][4] == 0, "a deck card is not publicly known"
    # Then the pool is refilled to six at the right end.
    assert pool_values(state) == [[J], [11], [6], [8], [10], [12]]
    # Niko abluxxed, so no optional draw: Caro plays next.
    assert (state.kind, state.deciding) == (D.PLAY, CARO)


def test_caro_13_against_louis_13_then_draws_the_pool_joker() -> None:
    state = english_example()
    act(state, ab.play(7, 3), ab.LEAVE, ab.TAKE_BACK, ab.TAKE, ab.pool(0), ab.pool(0), ab.DECK)
    assert display_values(state, LOUIS) == [[13]]
    act(state, ab.play(13, 1))
    # Lisa's two 10s (count), Louis's 13 (equal value), Niko's 7s (count): no abluxx.
    assert not [e for e in state.events if e[0] == "abluxx" and e[1] == CARO]
    assert (state.kind, state.deciding) == (D.OPTIONAL_DRAW, CARO)
    assert codes(ab.legal_actions(state)) == [10, 11, 12, 13, 14, 15, 90, 91]
    assert pool_values(state)[0] == [J]
    act(state, ab.pool(0))
    assert state.hand_values(CARO) == [2, 9, J]
    assert state.known[CARO][J] == 1
    assert pool_values(state) == [[11], [6], [8], [10], [12], [1]]
    assert (state.kind, state.deciding) == (D.PLAY, LISA)
    assert display_values(state, LOUIS) == [[13]]


def test_caro_may_not_draw_in_the_advanced_variant() -> None:
    state = english_example("amigo-advanced")
    act(state, ab.play(7, 3), ab.LEAVE, ab.TAKE_BACK, ab.TAKE, ab.pool(0), ab.pool(0), ab.DECK)
    act(state, ab.play(13, 1))
    assert (state.kind, state.deciding) == (D.PLAY, LISA)
    assert state.hand_values(CARO) == [2, 9]


def jokers_position(preset_name: str, top: list[int], hand: list[int]) -> ab.State:
    return build_state(
        3,
        preset_name,
        hands=[[*hand, 5], [6, 7], [8, 9]],
        displays=[[], [[2], top], []],
        pool=[2, 3, 4, 5, 6, 7],
    )


def test_two_jokers_abluxx_two_13s() -> None:
    state = jokers_position("amigo", [13, 13], [J, J])
    act(state, ab.jokers_alone(2))
    assert (state.kind, state.victim) == (D.ATTACKER_TAKE, 1)
    act(state, ab.TAKE)
    assert state.hand_values(0) == [5, 13, 13]


@pytest.mark.parametrize("preset_name", ["amigo", "amigo-advanced", "ravensburger-2014"])
@pytest.mark.parametrize(
    "attack", [[13, 13], [J, J], [12, J], [1, 1], [1, J]], ids=lambda a: "-".join(map(str, a))
)
def test_jokers_alone_are_never_abluxxed_in_the_base_game(
    preset_name: str, attack: list[int]
) -> None:
    state = jokers_position(preset_name, [J, J], attack)
    value = min(attack)
    naturals = sum(1 for v in attack if v != J)
    act(state, ab.play(value, naturals, len(attack) - naturals))
    assert not [e for e in state.events if e[0] == "abluxx"]
    assert display_values(state, 1) == [[2], [J, J]]


@pytest.mark.parametrize(
    ("top", "attack"), [([J, J], [1, 1]), ([13, 13], [1, 1]), ([13, J], [1, J])]
)
def test_ones_abluxx_13s_and_jokers_under_expert_ones(top: list[int], attack: list[int]) -> None:
    base = jokers_position("amigo-advanced", top, attack)
    expert = jokers_position("amigo-expert", top, attack)
    naturals = sum(1 for v in attack if v != J)
    action = ab.play(1, naturals, len(attack) - naturals)
    act(base, action)
    assert not [e for e in base.events if e[0] == "abluxx"]
    act(expert, action)
    assert (expert.kind, expert.victim) == (D.ATTACKER_TAKE, 1)


@pytest.mark.parametrize(
    ("top", "attack"), [([12, 12], [1, 1]), ([13], [1, 1]), ([J, J, J], [1, 1])]
)
def test_expert_ones_need_the_same_count_and_a_13_or_joker_set(
    top: list[int], attack: list[int]
) -> None:
    state = jokers_position("amigo-expert", top, attack)
    act(state, ab.play(1, 2))
    assert not [e for e in state.events if e[0] == "abluxx"]


def test_expert_ones_still_lose_to_every_higher_value() -> None:
    state = jokers_position("amigo-expert", [1, 1], [2, 2])
    act(state, ab.play(2, 2))
    assert (state.kind, state.victim) == (D.ATTACKER_TAKE, 1)
