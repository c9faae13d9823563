"""The effect of every New Rule (FLUXX.md §11.4) and of the Keepers and Goals as cards."""

from __future__ import annotations

import pytest

from arena.games import fluxx as fx
from arena.games.fluxx.actions import DecisionKind as K
from arena.games.fluxx.numbers import draw_target, hand_limit, keeper_limit, play_target

from .helpers import answer, c, cards, events_of, expect, hand, ids, layout, play, table

A, B, C, D = 0, 1, 2, 3
KEEPERS6 = ["bread", "chocolate", "cookies", "cosmos", "dreams", "eye"]


def test_keeper_goes_to_the_table_and_goal_replaces_goal() -> None:
    s = layout(hands={A: ["bread", "toast"]}, goals=["dough"], rules=["play_2"], start="play")
    play(s, "bread")
    assert table(s, A) == ids("bread")
    play(s, "toast")
    assert s.goals == cards("toast")
    assert c("dough") in s.discard


@pytest.mark.parametrize(
    ("rule", "n"), [("draw_2", 2), ("draw_3", 3), ("draw_4", 4), ("draw_5", 5)]
)
def test_draw_rules(rule: str, n: int) -> None:
    s = layout(rules=[rule], hands={A: ["bread"]})
    assert len(hand(s, A)) == 1 + n
    assert s.drawn == n
    s = layout(rules=[rule, "inflation"], hands={A: ["bread"]})
    assert s.drawn == n + 1


@pytest.mark.parametrize(("rule", "n"), [("play_2", 2), ("play_3", 3), ("play_4", 4)])
def test_play_rules(rule: str, n: int) -> None:
    s = layout(rules=[rule], hands={A: KEEPERS6}, start="play")
    assert play_target(s) == n
    for key in KEEPERS6[:n]:
        expect(s, K.PLAY, A)
        play(s, key)
    assert s.active == B
    assert len(table(s, A)) == n


def test_play_all_plays_the_whole_hand() -> None:
    s = layout(rules=["play_all"], hands={A: KEEPERS6[:4]}, start="play")
    for key in KEEPERS6[:4]:
        play(s, key)
    assert s.active == B
    assert len(table(s, A)) == 4


@pytest.mark.parametrize(
    ("rule", "n"), [("hand_limit_0", 0), ("hand_limit_1", 1), ("hand_limit_2", 2)]
)
def test_hand_limits(rule: str, n: int) -> None:
    s = layout(rules=["play_2"], hands={A: [rule, "milk"], B: KEEPERS6[:3]}, start="play")
    play(s, rule)
    assert hand_limit(s) == n
    for _ in range(3 - n):
        expect(s, K.DISCARD_HAND_LIMIT, B)
        answer(s, s.legal[0])
    assert len(hand(s, B)) == n
    expect(s, K.PLAY, A)


@pytest.mark.parametrize(
    ("rule", "n"), [("keeper_limit_2", 2), ("keeper_limit_3", 3), ("keeper_limit_4", 4)]
)
def test_keeper_limits(rule: str, n: int) -> None:
    s = layout(hands={A: [rule]}, tables={B: [*KEEPERS6[:5], "war"]}, start="play")
    play(s, rule)
    assert keeper_limit(s) == n
    for _ in range(5 - n):
        expect(s, K.DISCARD_KEEPER_LIMIT, B)
        answer(s, s.legal[0])
    assert len(table(s, B)) == n + 1  # War stays: Creepers are not Keepers


def test_double_agenda_keeps_two_goals() -> None:
    s = layout(
        rules=["double_agenda", "play_2"],
        goals=["toast"],
        hands={A: ["milk_and_cookies", "milk"]},
        tables={A: ["cookies"]},
        start="play",
    )
    play(s, "milk_and_cookies")
    assert s.goals == cards("toast", "milk_and_cookies")
    play(s, "milk")
    assert s.result is not None
    assert s.result.winner == A


def test_double_agenda_two_seats_meet_the_two_goals() -> None:
    s = layout(
        rules=["double_agenda"],
        goals=["toast"],
        hands={A: ["milk_and_cookies"]},
        tables={A: ["milk", "cookies"], B: ["bread", "toaster"]},
        start="play",
    )
    play(s, "milk_and_cookies")
    assert s.result is None  # two different seats: nobody wins


def test_no_hand_bonus() -> None:
    s = layout(rules=["no_hand_bonus"])
    assert len(hand(s, A)) == 4  # 3 + the draw
    assert s.drawn == 1
    s = layout(rules=["no_hand_bonus", "inflation"])
    assert len(hand(s, A)) == 4 + 2


def test_poor_bonus_strictly_fewest_keepers() -> None:
    tables = {B: ["bread"], C: ["milk"], D: ["sun"]}
    s = layout(rules=["poor_bonus"], tables=tables)
    assert s.drawn == 2
    s = layout(rules=["poor_bonus"], tables={**tables, D: ["war"]})
    assert s.drawn == 1  # D has no Keeper either (War is no Keeper): a tie


def test_rich_bonus_strictly_most_keepers() -> None:
    tables = {A: ["bread", "milk"], B: ["sun"]}
    s = layout(rules=["rich_bonus"], hands={A: ["moon", "love"]}, tables=tables, start="play")
    assert play_target(s) == 2
    play(s, "moon")
    expect(s, K.PLAY, A)  # the extra play is mandatory
    s = layout(rules=["rich_bonus"], hands={A: ["moon"]}, tables={A: ["bread"], B: ["sun"]})
    assert play_target(s) == 1


def test_party_bonus() -> None:
    s = layout(rules=["party_bonus"], tables={C: ["party"]})
    assert s.drawn == 2
    assert play_target(s) == 2
    s = layout(rules=["party_bonus"])
    assert s.drawn == 1
    s = layout(rules=["party_bonus", "inflation"], tables={C: ["party"]})
    assert s.drawn == 4  # (1+1) + (1+1)


def test_inflation_numbers() -> None:
    s = layout(
        rules=["inflation", "draw_3", "play_2", "hand_limit_0", "keeper_limit_2"], start="play"
    )
    assert (draw_target(s), play_target(s), hand_limit(s), keeper_limit(s)) == (4, 3, 1, 3)


def test_get_on_with_it() -> None:
    s = layout(
        rules=["get_on_with_it", "play_3"],
        hands={A: ["bread", "milk", "sun"]},
        draw=["moon", "love", "eye", "time"],
        start="play",
    )
    play(s, "bread")
    answer(s, fx.GET_ON_WITH_IT)
    assert s.active == B  # the plays are over, no owed draws
    assert hand(s, A) == ids("moon", "love", "eye")
    assert s.discard[-2:] == cards("milk", "sun")


def test_get_on_with_it_still_faces_end_phase_limits() -> None:
    s = layout(
        rules=["get_on_with_it", "hand_limit_1"],
        hands={A: ["bread"]},
        draw=["moon", "love", "eye"],
        start="play",
    )
    answer(s, fx.GET_ON_WITH_IT)
    expect(s, K.DISCARD_HAND_LIMIT, A)


def test_silver_lining_no_creeper_blocks() -> None:
    s = layout(
        goals=["toast"],
        hands={A: ["silver_lining"]},
        tables={B: ["bread", "toaster", "war", "radioactive_potato"]},
        start="play",
    )
    play(s, "silver_lining")
    assert s.result is not None
    assert s.result.winner == B


def test_baked_potato_lets_the_potato_holder_win() -> None:
    s = layout(
        goals=["toast"],
        hands={A: ["baked_potato"]},
        tables={B: ["bread", "toaster", "radioactive_potato"]},
        start="play",
    )
    play(s, "baked_potato")
    assert s.result is not None
    assert s.result.winner == B


def test_draw_rule_is_caught_up_at_once_and_binds_every_seat() -> None:
    s = layout(
        rules=["play_2"], hands={A: ["draw_3", "bread"]}, draw=["milk", "sun", "moon"], start="play"
    )
    play(s, "draw_3")
    assert s.drawn == 3  # caught up at once
    assert events_of(s, "draw")[-1][1:] == (A, tuple(cards("milk", "sun")), "hand")
    assert draw_target(s) == 3
    play(s, "bread")
    expect(s, K.PLAY, B)
    assert s.drawn == 3  # B draws 3 too


@pytest.mark.parametrize("goal", sorted(fx.cards.PAIR_GOALS))
def test_every_pair_goal(goal: int) -> None:
    first, second = fx.cards.PAIR_GOALS[goal]
    s = layout(hands={A: [goal]}, tables={C: [first, second]}, start="play")
    play(s, goal)
    assert s.result is not None
    assert s.result.winner == C
    s = layout(hands={A: [goal]}, tables={C: [first], D: [second]}, start="play")
    play(s, goal)
    assert s.result is None


def test_all_you_need_is_love() -> None:
    s = layout(hands={A: ["all_you_need_is_love"]}, tables={B: ["love", "war"]}, start="play")
    play(s, "all_you_need_is_love")
    assert s.result is None  # War is no Keeper but still blocks
    s = layout(hands={A: ["all_you_need_is_love"]}, tables={B: ["love", "milk"]}, start="play")
    play(s, "all_you_need_is_love")
    assert s.result is None
    s = layout(hands={A: ["all_you_need_is_love"]}, tables={B: ["love"]}, start="play")
    play(s, "all_you_need_is_love")
    assert s.result is not None
    assert s.result.winner == B


def test_the_brain_no_tv() -> None:
    s = layout(hands={A: ["brain_no_tv"]}, tables={B: ["brain"], C: ["television"]}, start="play")
    play(s, "brain_no_tv")
    assert s.result is None  # Television on any table
    s = layout(hands={A: ["brain_no_tv"]}, tables={B: ["brain"]}, start="play")
    play(s, "brain_no_tv")
    assert s.result is not None
    assert s.result.winner == B


def test_party_snacks_and_counting_goals() -> None:
    s = layout(hands={A: ["party_snacks"]}, tables={B: ["party", "milk"]}, start="play")
    play(s, "party_snacks")
    assert s.result is None  # Milk is no Party food [D10]
    s = layout(hands={A: ["party_snacks"]}, tables={B: ["party", "cookies"]}, start="play")
    play(s, "party_snacks")
    assert s.result is not None
    assert s.result.winner == B
    nine = ["bread", "chocolate", "cookies", "cosmos", "dreams", "eye", "love", "milk", "sun"]
    s = layout(hands={A: ["ten_cards_in_hand"], D: nine}, start="play")
    play(s, "ten_cards_in_hand")
    assert s.result is None  # 9 cards
    s = layout(hands={A: ["ten_cards_in_hand"], D: [*nine, "moon"]}, start="play")
    play(s, "ten_cards_in_hand")
    assert s.result is not None
    assert s.result.winner == D
