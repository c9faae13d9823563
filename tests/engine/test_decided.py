"""Every **[decided]** point of RULES.md, and the rules next to it."""

from __future__ import annotations

import random

import pytest

from arena.games import abluxxen as ab
from arena.games.abluxxen import DecisionKind as D
from arena.games.abluxxen.cards import VALUE_OF

from .helpers import (
    J,
    act,
    build_state,
    codes,
    deck_values,
    display_values,
    event_types,
    events_of,
    field_cards,
    field_int,
    pool_values,
    random_game,
    shadow_values,
)

# ----------------------------------------------------------------- §5.3.5 pool slots


def test_taking_a_slot_moves_the_slots_to_its_right_left_and_refill_appends() -> None:
    state = build_state(
        3,
        "ravensburger-2014",
        hands=[[9, 9, 1], [4, 4], [8]],
        displays=[[], [[5, 5]], []],
        pool=[2, 3, 4, 5, 6, 8],
        deck=[10, 11, 12],
    )
    act(state, ab.play(9, 2), ab.TAKE)
    assert (state.kind, state.deciding) == (D.DRAW, 1)
    act(state, ab.pool(2))
    assert pool_values(state) == [[2], [3], [5], [6], [8]]
    assert codes(ab.legal_actions(state)) == [10, 11, 12, 13, 14, 90]
    act(state, ab.pool(2))
    assert pool_values(state) == [[2], [3], [6], [8], [10], [11]]
    assert deck_values(state)[0] == 12
    assert state.hand_values(1) == [4, 4, 4, 5]
    refills = [e for e in state.events if e[0] == "refill"]
    assert [[VALUE_OF[c] for c in field_cards(e, 1)] for e in refills] == [[10, 11]]


def test_a_drawn_slot_is_not_refilled_before_all_owed_draws() -> None:
    state = build_state(
        3,
        "ravensburger-2014",
        hands=[[9, 9, 9, 1], [4], [8]],
        displays=[[], [[5, 5, 5]], []],
        pool=[2, 3, 4, 5, 6, 8],
        deck=[10, 11, 12],
    )
    act(state, ab.play(9, 3), ab.LEAVE, ab.DISCARD)
    for expected in (6, 5, 4):
        assert len(state.pool) == expected
        act(state, ab.pool(len(state.pool) - 1))
    assert pool_values(state) == [[2], [3], [4], [10], [11], [12]]


# ---------------------------------------------------------------- §9.2 duel diversion


def shadow_13() -> list[int]:
    """A full shadow display with one single stack (the 2) below 9."""
    return [2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8]


def duel_shadowluxx_with_pool(pool: list[int | list[int]], deck: list[int]) -> ab.State:
    """Seat 0 plays one 9 and shadowluxxes the single 2; the refill reveals ``deck``."""
    state = build_state(
        2,
        "amigo",
        hands=[[9, 9, 1], [10, 11]],
        pool=pool,
        shadow=shadow_13(),
        deck=deck,
        rest="discard",
    )
    act(state, ab.play(9, 1))
    return state


def test_diverted_cards_go_onto_the_lowest_single_card_leftmost_on_ties() -> None:
    state = duel_shadowluxx_with_pool([5, 3, [2, 13], 3, J, 9], [13, J, 7, 1])
    assert pool_values(state) == [[5], [3, 13], [2, 13], [3, J], [J], [9]]
    diverts = [(VALUE_OF[field_int(e, 1)], e[2]) for e in events_of(state, "divert")]
    assert diverts == [(13, 1), (J, 3)]
    assert sum(shadow_values(state).values()) == 13
    assert shadow_values(state).get(7) == 3
    assert deck_values(state) == [1]


def test_a_single_joker_counts_14_and_a_single_13_is_a_single_card() -> None:
    state = duel_shadowluxx_with_pool([[2, 13], J, 13, [5, J], [6, 13], [7, 13]], [13, 7])
    assert pool_values(state) == [[2, 13], [J], [13, 13], [5, J], [6, 13], [7, 13]]


def test_with_no_single_card_the_fewest_cards_leftmost_take_the_diverted_card() -> None:
    state = duel_shadowluxx_with_pool(
        [[2, 13, J], [3, 13], [4, 13], [5, 13, 13], [6, J], [8, 13]], [J, 7]
    )
    assert pool_values(state)[1] == [3, 13, J]
    assert [len(slot) for slot in state.pool] == [3, 3, 2, 3, 2, 2]


def test_an_ordinary_refill_makes_a_single_slot_even_of_a_13_or_joker() -> None:
    state = build_state(
        2,
        "amigo",
        hands=[[2, 9, 1], [10, 11]],
        pool=[5, 3, 6, 7, 8, 9],
        shadow=shadow_13(),
        deck=[13, J, 4],
        rest="discard",
    )
    act(state, ab.play(2, 1))  # no shadow stack below 2: nobody abluxxed
    assert (state.kind, state.deciding) == (D.OPTIONAL_DRAW, 0)
    act(state, ab.pool(1))
    assert pool_values(state) == [[5], [6], [7], [8], [9], [13]]
    assert "divert" not in event_types(state)
    act(state, ab.play(10, 1))  # seat 1: abluxxes seat 0's single 2 and the shadow's 2
    assert [e[0] for e in state.events if e[0] in ("shadowluxx", "abluxx")] == [
        "shadowluxx",
        "abluxx",
    ]
    # The shadow refill reveals the joker: diverted onto the lowest single card (5).
    assert pool_values(state)[0] == [5, J]
    assert pool_values(state)[5] == [13]


@pytest.mark.parametrize("seed", range(6))
def test_duel_setup_diverts_every_13_and_joker_and_fills_the_shadow(seed: int) -> None:
    state = ab.new_game(ab.make_config(2, "amigo"), random.Random(seed))
    assert sum(shadow_values(state).values()) == 13
    assert all(v < 13 for v in shadow_values(state))
    diverted = [field_int(e, 1) for e in events_of(state, "divert")]
    revealed = [field_int(e, 1) for e in events_of(state, "shadow_reveal")]
    refilled = [c for e in events_of(state, "refill") for c in field_cards(e, 1)]
    assert len(revealed) == 13
    assert all(VALUE_OF[c] < 13 for c in revealed)
    assert all(VALUE_OF[c] >= 13 for c in diverted)
    pooled = [c for slot in state.pool for c in slot]
    assert sorted(pooled) == sorted(refilled + diverted)
    assert len(state.pool) == 6
    # A diverted card always lands on top of a slot, never starts one.
    assert all(slot[0] in refilled and set(slot[1:]) <= set(diverted) for slot in state.pool)
    # The dealt hands: 11 shuffled cards and 2 of the set-aside jokers each.
    assert state.hand_sizes == [13, 13]
    assert [len(state.hands[s][J]) >= 2 for s in range(2)] == [True, True]
    assert [state.known[s][J] for s in range(2)] == [2, 2]


# -------------------------------------------------------------- §9.4 shadow_take


def shadow_take_position(shadow_take: str, hand: list[int]) -> ab.State:
    return build_state(
        2,
        "amigo",
        hands=[hand, [10, 11]],
        pool=[1, 2, 3, 4, 5, 6],
        shadow=[2, 2, 3, 5, 5, 5, 7, 8, 8, 9, 10, 11, 11],
        deck=[4, 4, 12, 12],
        rest="discard",
        shadow_take=shadow_take,
    )


def test_whole_stack_takes_only_a_stack_of_exactly_the_count() -> None:
    state = shadow_take_position("whole_stack", [6, 6, 1])
    act(state, ab.play(6, 2))
    # Only the stack of two 2s has two cards: taken automatically, no SHADOW_PICK.
    assert state.hand_values(0) == [1, 2, 2]
    assert state.known[0][2] == 2
    assert 2 not in shadow_values(state)
    assert shadow_values(state)[4] == 2, "refilled from the deck at once"
    assert sum(shadow_values(state).values()) == 13
    assert (state.kind, state.deciding) == (D.PLAY, 1)


def test_any_subset_may_take_count_cards_of_any_big_enough_lower_stack() -> None:
    state = shadow_take_position("any_subset", [6, 6, 1])
    act(state, ab.play(6, 2))
    assert (state.kind, state.deciding) == (D.SHADOW_PICK, 0)
    assert ab.legal_actions(state) == [ab.shadow_pick(2), ab.shadow_pick(5)]
    act(state, ab.shadow_pick(5))
    assert state.hand_values(0) == [1, 5, 5]
    assert shadow_values(state)[5] == 1
    assert sum(shadow_values(state).values()) == 13


@pytest.mark.parametrize(
    ("shadow_take", "expected"),
    [("whole_stack", [3, 7, 9, 10]), ("any_subset", [2, 3, 5, 7, 8, 9, 10, 11])],
)
def test_shadow_pick_lists_every_qualifying_combination(
    shadow_take: str, expected: list[int]
) -> None:
    state = shadow_take_position(shadow_take, [12, 12, 1])
    act(state, ab.play(12, 1))
    assert (state.kind, state.deciding) == (D.SHADOW_PICK, 0)
    assert ab.legal_actions(state) == [ab.shadow_pick(v) for v in expected]
    before = shadow_values(state)
    act(state, ab.shadow_pick(expected[-1]))
    assert shadow_values(state).get(expected[-1], 0) == before[expected[-1]] - 1
    assert state.hand_values(0) == sorted([1, 12, expected[-1]])


# --------------------------------------------------------------------- §7 turn cap


@pytest.mark.parametrize("preset_name", ["amigo", "amigo-advanced"])
def test_the_turn_cap_ends_the_deal_with_reason_turn_cap(preset_name: str) -> None:
    state = build_state(
        3,
        preset_name,
        hands=[[2, 5, 5], [3, 6, 6], [4, 7, 7]],
        pool=[1, 2, 3, 4, 5, 6],
        max_turns=2,
    )
    act(state, ab.play(2, 1))
    if preset_name == "amigo":
        act(state, ab.PASS)
    assert not state.is_over
    act(state, ab.play(6, 2))  # another count than seat 0's single 2: nobody abluxxed
    if preset_name == "amigo":
        assert state.kind is D.OPTIONAL_DRAW, "the capped turn still ends normally"
        act(state, ab.PASS)
    assert state.is_over
    assert state.result is not None
    assert state.result.end_reason == "turn_cap"
    assert state.result.deals[0].turns == 2
    assert state.result.deals[0].scores == (1 - 2, 2 - 1, 0 - 3)
    assert ab.legal_actions(state) == []


def test_random_games_respect_the_turn_cap() -> None:
    reasons = []
    for seed in range(5):
        state = random_game(ab.make_config(4, "amigo", max_turns=7), seed)
        assert state.result is not None
        deal = state.result.deals[0]
        assert deal.turns <= 7
        if deal.reason == "turn_cap":
            assert deal.turns == 7
        reasons.append(deal.reason)
    assert "turn_cap" in reasons


# -------------------------------------------------------------- §8 duplicate deals


def dealt_hands(state: ab.State) -> dict[int, list[tuple[int, ...]]]:
    """Per deal, the cards each seat was dealt (seat order)."""
    out: dict[int, list[tuple[int, ...]]] = {}
    deal = -1
    for event in state.events:
        if event[0] == "deal_start":
            deal = field_int(event, 1)
            out[deal] = [() for _ in range(state.players)]
        elif event[0] == "dealt":
            out[deal][field_int(event, 1)] = field_cards(event, 2)
    return out


@pytest.mark.parametrize(("players", "preset_name"), [(3, "amigo"), (4, "amigo"), (2, "amigo")])
def test_duplicate_deals_rotate_the_same_shuffle_so_every_seat_gets_every_hand(
    players: int, preset_name: str
) -> None:
    config = ab.make_config(players, preset_name, deals=players, duplicate=True, max_turns=4)
    state = random_game(config, 5)
    assert len(state.decks) == 1
    hands = dealt_hands(state)
    assert sorted(hands) == list(range(players))
    first = hands[0]
    for deal in range(players):
        starts = [e for e in state.events if e[0] == "deal_start"]
        assert starts[deal][2] == deal % players
        for seat in range(players):
            assert hands[deal][seat] == first[(seat - deal) % players]
    for seat in range(players):
        assert sorted(hands[d][seat] for d in range(players)) == sorted(first)
    # The pool of every deal is the same.
    first_refills = [e[1] for e in state.events if e[0] == "refill"]
    pools = [first_refills[0]]
    seen_deal = 0
    for event in state.events:
        if event[0] == "deal_start":
            seen_deal = field_int(event, 1)
            taken = False
        elif event[0] == "refill" and seen_deal > 0 and not taken:
            pools.append(event[1])
            taken = True
    assert pools == [pools[0]] * players


def test_duplicate_with_more_deals_than_players_uses_a_new_shuffle_per_round() -> None:
    config = ab.make_config(3, "amigo", deals=5, duplicate=True, max_turns=2)
    assert config.shuffles == 2
    assert [config.shuffle_of_deal(d) for d in range(5)] == [0, 0, 0, 1, 1]
    state = random_game(config, 2)
    assert len(state.decks) == 2
    hands = dealt_hands(state)
    assert hands[3][0] == hands[4][1]
    assert hands[3][0] != hands[0][0]


def test_a_plain_match_shuffles_every_deal_anew() -> None:
    config = ab.make_config(3, "amigo", deals=3, max_turns=2)
    state = random_game(config, 2)
    assert len(state.decks) == 3
    assert len({tuple(d) for d in state.decks}) == 3


# ------------------------------------------------------- §5.3 same victim only once


@pytest.mark.parametrize("players", [2, 3])
def test_the_same_victim_is_not_abluxxed_twice_in_one_turn(players: int) -> None:
    hands = [[9, 9, 1], [8], [8]][:players]
    displays = [[], [[5, 5], [6, 6]], [[7, 7], [4, 4]]][:players]
    state = build_state(
        players,
        "ravensburger-2014",
        hands=hands,
        displays=displays,
        pool=[1, 2, 3, 4, 5, 6],
        deck=[10, 11, 12, 13],
    )
    act(state, ab.play(9, 2), ab.LEAVE, ab.DISCARD, ab.DECK, ab.DECK)
    # Seat 1's two 5s are now its top set, but seat 1 was abluxxed already.
    assert display_values(state, 1) == [[5, 5]]
    if players == 3:
        assert (state.kind, state.victim) == (D.ATTACKER_TAKE, 2)
        act(state, ab.TAKE, ab.DECK, ab.DECK)
    assert (state.kind, state.deciding) == (D.PLAY, 1)
    victims = [e[2] for e in state.events if e[0] == "abluxx"]
    assert victims == [1, 2][: players - 1]


# ------------------------------------------------------ §7 supply exhausted mid-draw


def exhaust_position(preset_name: str, deck: list[int], pool: list[int]) -> ab.State:
    return build_state(
        4,
        preset_name,
        hands=[[9, 9, 9, 1], [8], [8, 8], [7]],
        displays=[[[2]], [[5, 5, 5]], [[6, 6, 6]], [[1], [2, 2, 2]]],
        pool=pool,
        deck=deck,
        rest="discard",
    )


def test_supply_exhausted_mid_draw_drops_owed_draws_and_remaining_victims() -> None:
    state = exhaust_position("ravensburger-2014", [4], [3])
    act(state, ab.play(9, 3), ab.TAKE)
    assert (state.kind, state.deciding, state.draws_left) == (D.DRAW, 1, 3)
    act(state, ab.DECK)
    assert (state.kind, state.draws_left) == (D.DRAW, 2)
    assert codes(ab.legal_actions(state)) == [10]
    act(state, ab.pool(0))
    assert state.is_over
    assert state.result is not None
    assert state.result.end_reason == "supply_exhausted"
    assert state.hand_values(1) == [3, 4, 8], "the third owed draw is dropped"
    # Seats 2 and 3 were never abluxxed.
    assert display_values(state, 2) == [[6, 6, 6]]
    assert display_values(state, 3) == [[1], [2, 2, 2]]
    assert [e[2] for e in state.events if e[0] == "abluxx"] == [1]
    assert state.result.scores == (1 + 3 - 4, 0 - 3, 3 - 2, 4 - 1)


@pytest.mark.parametrize(("deck", "pool", "action"), [([], [3], 10), ([4], [], 90)])
def test_supply_exhausted_by_an_optional_draw(
    deck: list[int], pool: list[int], action: int
) -> None:
    state = build_state(
        3,
        "amigo",
        hands=[[2, 9], [8], [8]],
        displays=[[], [[5, 5]], []],
        pool=pool,
        deck=deck,
        rest="discard",
    )
    act(state, ab.play(2, 1))
    assert state.kind is D.OPTIONAL_DRAW
    assert codes(ab.legal_actions(state)) == [action, 91]
    act(state, ab.from_code(action))
    assert state.result is not None
    assert state.result.end_reason == "supply_exhausted"
    assert state.hand_sizes == [2, 1, 1]


def test_an_optional_pass_with_a_low_supply_does_not_end_the_game() -> None:
    state = build_state(3, "amigo", hands=[[2, 9], [8], [8]], pool=[3], deck=[], rest="discard")
    act(state, ab.play(2, 1), ab.PASS)
    assert (state.kind, state.deciding) == (D.PLAY, 1)
