"""Every rule option on its own, every preset, and invalid configurations (RULES.md §6)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from arena.games import abluxxen as ab
from arena.games.abluxxen import DecisionKind as D

from .helpers import (
    PRESET_NAMES,
    J,
    act,
    build_state,
    events_of,
    field_cards,
    field_int,
    play_states,
    random_policy,
    shadow_values,
)

# ------------------------------------------------------------------------ presets


def test_preset_values() -> None:
    expected = {
        "amigo": (True, False, "fewest_hand_cards", "duel", "whole_stack", 500),
        "amigo-advanced": (False, False, "fewest_hand_cards", "duel", "whole_stack", 500),
        "amigo-expert": (False, True, "fewest_hand_cards", "duel", "whole_stack", 500),
        "ravensburger-2014": (False, False, "shared", "plain", "whole_stack", 500),
    }
    assert set(ab.PRESETS) == set(expected)
    for name, values in expected.items():
        options = ab.preset(name)
        assert options == ab.PRESETS[name]
        assert (
            options.optional_draw,
            options.expert_ones,
            options.tiebreak,
            options.two_player,
            options.shadow_take,
            options.max_turns,
        ) == values, name
    assert ab.DEFAULT_PRESET == "amigo"
    assert ab.make_config(4).options == ab.PRESETS["amigo"] == ab.RuleOptions()


def test_overrides_change_only_the_named_option() -> None:
    options = ab.preset("ravensburger-2014", expert_ones=True, max_turns=9)
    assert options == ab.RuleOptions(
        optional_draw=False,
        expert_ones=True,
        tiebreak="shared",
        two_player="plain",
        max_turns=9,
    )
    assert ab.make_config(2, "amigo", two_player="plain").duel is False
    assert ab.make_config(2, "amigo").duel is True
    assert ab.make_config(3, "amigo").duel is False


@pytest.mark.parametrize(
    ("call", "fragments"),
    [
        (lambda: ab.make_config(6), ["players=6", "2 to 5"]),
        (lambda: ab.make_config(1), ["players=1", "2 to 5"]),
        (lambda: ab.make_config(0), ["players=0", "2 to 5"]),
        (lambda: ab.make_config(4, "amigo-pro"), ["'amigo-pro'", "amigo", "ravensburger-2014"]),
        (lambda: ab.make_config(3, two_player="duel"), ["duel", "2 players", "not 3"]),
        (lambda: ab.make_config(4, max_turns=0), ["max_turns=0", "positive integer"]),
        (lambda: ab.make_config(4, max_turns=-3), ["max_turns=-3", "positive integer"]),
        (lambda: ab.make_config(4, max_turns=True), ["max_turns=True", "positive integer"]),
        (lambda: ab.make_config(4, max_turn=5), ["max_turn", "max_turns", "optional_draw"]),
        (lambda: ab.make_config(4, tiebreak="coin"), ["tiebreak='coin'", "shared"]),
        (lambda: ab.make_config(2, two_player="triel"), ["'triel'", "duel", "plain"]),
        (lambda: ab.make_config(2, shadow_take="all"), ["'all'", "any_subset", "whole_stack"]),
        (lambda: ab.make_config(4, optional_draw="yes"), ["optional_draw", "true or false"]),
        (lambda: ab.make_config(4, deals=0), ["deals=0", "at least one"]),
        (lambda: ab.RuleOptions.from_json({"bogus": 1}), ["bogus", "expert_ones"]),
        (lambda: ab.GameConfig.from_json({"seats": 4}), ["seats"]),
    ],
)
def test_invalid_options_raise_a_clear_error(call: Any, fragments: list[str]) -> None:
    with pytest.raises(ab.InvalidOptionsError) as info:
        call()
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_config_json_round_trip() -> None:
    config = ab.make_config(2, "amigo-expert", deals=3, duplicate=True, shadow_take="any_subset")
    assert ab.GameConfig.from_json(config.to_json()) == config
    assert ab.RuleOptions.from_json(config.options.to_json()) == config.options


# ----------------------------------------------------------------- optional_draw


@dataclass
class Turn:
    seat: int
    abluxxed: bool = False
    optional: bool = False
    last: bool = False


def turns_of(state: ab.State) -> list[Turn]:
    """Every turn of a finished match, from the events."""
    turns: list[Turn] = []
    for event in state.events:
        kind = event[0]
        if kind == "play":
            turns.append(Turn(field_int(event, 1)))
        elif not turns:
            continue
        elif kind in ("abluxx", "shadowluxx"):
            turns[-1].abluxxed = True
        elif kind == "pass" or (kind == "draw" and event[1] == turns[-1].seat):
            turns[-1].optional = True
        elif kind == "deal_end":
            turns[-1].last = True
    return turns


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("optional_draw", [True, False])
def test_optional_draw_is_offered_iff_nobody_was_abluxxed_and_the_option_is_on(
    players: int, optional_draw: bool
) -> None:
    config = ab.make_config(players, "amigo", optional_draw=optional_draw, deals=2)
    offered = 0
    for seed in range(4):
        state = ab.new_game(config, random.Random(seed))
        for now in play_states(state, random_policy(random.Random(seed))):
            if now.kind is D.OPTIONAL_DRAW:
                assert optional_draw
                assert not now.abluxxed
                assert now.deciding == now.active
                offered += 1
        for turn in turns_of(state):
            if not turn.last:
                assert turn.optional == (optional_draw and not turn.abluxxed), turn
    assert (offered > 0) == optional_draw


def optional_position(preset_name: str, **overrides: Any) -> ab.State:
    """Seat 0 holds a 4 (abluxxes nobody) and an 11 (abluxxes seat 2's single 10)."""
    return build_state(
        3,
        preset_name,
        hands=[[4, 9, 11], [8], [8]],
        displays=[[], [[5, 5]], [[10]]],
        pool=[1, 2, 3, 4, 5, 6],
        deck=[7],
        **overrides,
    )


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@pytest.mark.parametrize("optional_draw", [True, False])
def test_optional_draw_follows_the_option_after_a_turn_without_abluxx(
    preset_name: str, optional_draw: bool
) -> None:
    state = optional_position(preset_name, optional_draw=optional_draw)
    act(state, ab.play(4, 1))
    if not optional_draw:
        assert (state.kind, state.deciding) == (D.PLAY, 1)
        assert state.hand_values(0) == [9, 11]
        return
    assert (state.kind, state.deciding) == (D.OPTIONAL_DRAW, 0)
    assert [a.code for a in ab.legal_actions(state)] == [10, 11, 12, 13, 14, 15, 90, 91]
    act(state, ab.DECK)
    assert state.hand_values(0) == [7, 9, 11]
    assert state.known[0][7] == 0
    assert (state.kind, state.deciding) == (D.PLAY, 1)


@pytest.mark.parametrize("attacker_choice", [ab.TAKE, ab.LEAVE])
def test_abluxxing_anybody_forfeits_the_optional_draw(attacker_choice: ab.Action) -> None:
    state = optional_position("amigo")
    act(state, ab.play(11, 1))
    assert (state.kind, state.victim) == (D.ATTACKER_TAKE, 2)
    act(state, attacker_choice)
    if attacker_choice is ab.TAKE:
        act(state, ab.pool(0))
    else:
        act(state, ab.TAKE_BACK)
    assert (state.kind, state.deciding) == (D.PLAY, 1)


def test_optional_pass_draws_nothing() -> None:
    state = optional_position("amigo")
    act(state, ab.play(4, 1), ab.PASS)
    assert state.hand_values(0) == [9, 11]
    assert len(state.pool) == 6
    assert state.events[-1] == ("pass", 0)


# ------------------------------------------------------------------- expert_ones


def test_expert_ones_is_an_option_of_its_own() -> None:
    for expert in (False, True):
        state = build_state(
            3,
            "amigo",
            hands=[[1, 1, 5], [6], [6]],
            displays=[[], [[J, J]], [[13, 13]]],
            pool=[1, 2, 3, 4, 5, 6],
            expert_ones=expert,
        )
        act(state, ab.play(1, 2))
        victims = [e[2] for e in state.events if e[0] == "abluxx"]
        if expert:
            assert victims == [1]
            act(state, ab.TAKE, ab.pool(0), ab.pool(0))
            assert [e[2] for e in state.events if e[0] == "abluxx"] == [1, 2]
        else:
            assert victims == []
            assert state.kind is D.OPTIONAL_DRAW


# --------------------------------------------------------------------- tiebreak


def tie_position(preset_name: str, **overrides: Any) -> ab.State:
    """Seat 0 goes out with a 9: scores 6, 6, 6 with 0, 2 and 1 hand cards, and seat 3
    ends on 6 with 1 hand card as well."""
    return build_state(
        4,
        preset_name,
        hands=[[9], [1, 1], [2], [3]],
        displays=[[[4] * 5], [[5] * 8], [[6] * 7], [[7] * 7]],
        pool=[1, 2, 3, 8, 10, 11],
        **overrides,
    )


@pytest.mark.parametrize(
    ("tiebreak", "ranks"), [("fewest_hand_cards", (1, 4, 2, 2)), ("shared", (1, 1, 1, 1))]
)
def test_tiebreak_decides_equal_scores(tiebreak: str, ranks: tuple[int, ...]) -> None:
    state = tie_position("amigo", tiebreak=tiebreak)
    act(state, ab.play(9, 1))
    assert state.result is not None
    assert state.result.end_reason == "hand_empty"
    deal = state.result.deals[0]
    assert deal.scores == (6, 6, 6, 6)
    assert deal.hand_cards == (0, 2, 1, 1)
    assert deal.ranks == ranks
    assert state.result.ranks == ranks


def test_the_ravensburger_preset_shares_ties() -> None:
    state = tie_position("ravensburger-2014")
    act(state, ab.play(9, 1))
    assert state.result is not None
    assert state.result.ranks == (1, 1, 1, 1)


# ------------------------------------------------------------------- two_player


@pytest.mark.parametrize("seed", range(3))
def test_plain_two_player_deals_13_each_and_has_no_shadow(seed: int) -> None:
    config = ab.make_config(2, "amigo", two_player="plain")
    state = ab.new_game(config, random.Random(seed))
    assert len(state.decks[0]) == 109
    assert state.hand_sizes == [13, 13]
    assert state.known == [[0] * 15, [0] * 15]
    assert shadow_values(state) == {}
    assert len(state.deck) == 109 - 26 - 6
    assert all(len(slot) == 1 for slot in state.pool)
    assert ab.observe(state, 0).shadow == ()
    for _ in play_states(state, random_policy(random.Random(seed))):
        assert state.kind is not D.SHADOW_PICK
        assert shadow_values(state) == {}
    assert not [e for e in state.events if e[0] in ("shadowluxx", "divert", "shadow_reveal")]


@pytest.mark.parametrize("seed", range(3))
def test_the_duel_sets_four_jokers_aside_and_deals_11_more(seed: int) -> None:
    config = ab.make_config(2, "amigo")
    state = ab.new_game(config, random.Random(seed))
    assert len(state.decks[0]) == 105
    assert set(range(104, 108)).isdisjoint(state.decks[0])
    assert state.hand_sizes == [13, 13]
    assert sorted(state.hands[0][J])[:2] == [104, 105]
    assert sorted(state.hands[1][J])[:2] == [106, 107]
    assert sum(shadow_values(state).values()) == 13
    assert len(ab.observe(state, 1).shadow) == 12
    dealt = [c for e in events_of(state, "dealt") for c in field_cards(e, 2)]
    assert len(dealt) == 26


def test_every_duel_decision_kind_is_reached_and_shadowluxx_is_compulsory() -> None:
    kinds: set[D] = set()
    for seed in range(6):
        state = ab.new_game(ab.make_config(2, "amigo"), random.Random(seed))
        for now in play_states(state, random_policy(random.Random(seed))):
            assert now.kind is not None
            kinds.add(now.kind)
    assert kinds == set(D)


# ------------------------------------------------------------------ shadow_take


@pytest.mark.parametrize("shadow_take", ["whole_stack", "any_subset"])
def test_shadow_pick_candidates_follow_shadow_take_in_random_duels(shadow_take: str) -> None:
    config = ab.make_config(2, "amigo", shadow_take=shadow_take)
    picks = 0
    for seed in range(8):
        state = ab.new_game(config, random.Random(seed))
        for now in play_states(state, random_policy(random.Random(seed))):
            if now.kind is not D.SHADOW_PICK:
                continue
            picks += 1
            assert now.played is not None
            value, cards = now.played
            expected = [
                v
                for v in range(1, value)
                if (
                    len(now.shadow[v]) == len(cards)
                    if shadow_take == "whole_stack"
                    else len(now.shadow[v]) >= len(cards)
                )
            ]
            assert [a.value for a in ab.legal_actions(now)] == expected
            assert len(expected) >= 2
    assert picks > 0


# --------------------------------------------------------------------- max_turns


@pytest.mark.parametrize("max_turns", [1, 3, 10])
def test_max_turns_caps_every_deal(max_turns: int) -> None:
    config = ab.make_config(3, "amigo", max_turns=max_turns, deals=2)
    state = ab.new_game(config, random.Random(1))
    for _ in play_states(state, random_policy(random.Random(1))):
        assert state.turn <= max_turns
    assert state.result is not None
    for deal in state.result.deals:
        assert deal.turns <= max_turns
    for deal in state.result.deals:
        if deal.reason == "turn_cap":
            assert deal.turns == max_turns
    if max_turns < 10:
        assert [d.reason for d in state.result.deals] == ["turn_cap", "turn_cap"]


def test_default_max_turns_is_500() -> None:
    assert ab.make_config(4).options.max_turns == 500
