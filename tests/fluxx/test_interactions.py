"""The rare interactions FLUXX.md calls out: Inflation, Double Agenda, the Radioactive
Potato, Death, Taxes/Money, War/Peace, Silver Lining, a Goal met during another seat's
turn, both piles empty, owed draws inside a chain, and the caps."""

from __future__ import annotations

import random

from arena.games import fluxx as fx
from arena.games.fluxx.actions import DecisionKind as K

from .helpers import answer, c, cards, events_of, expect, hand, ids, layout, play, table

A, B, C, D = 0, 1, 2, 3
FIVE = ["bread", "chocolate", "cookies", "cosmos", "dreams"]


def winner(s: fx.State) -> int | None:
    return None if s.result is None else s.result.winner


# ------------------------------------------------------------------ Inflation


def test_inflation_raises_counting_thresholds() -> None:
    s = layout(hands={A: ["inflation"]}, goals=["five_keepers"], tables={B: FIVE[:4]}, start="play")
    # Without Inflation B would need 5; with it 6.
    play(s, "inflation")
    assert winner(s) is None
    s = layout(
        rules=["inflation"],
        goals=["five_keepers"],
        hands={A: ["trash_a_new_rule", "milk"]},
        tables={B: FIVE},
        start="play",
    )
    play(s, "trash_a_new_rule")
    answer(s, fx.target(c("inflation")))
    assert winner(s) == B  # the threshold falls back to 5 at once


def test_inflation_party_snacks_needs_two_food() -> None:
    s = layout(
        rules=["inflation", "play_2"],
        goals=["party_snacks"],
        hands={A: ["bread", "cookies", "milk"]},
        tables={A: ["party"]},
        start="play",
    )
    play(s, "bread")
    assert winner(s) is None
    play(s, "cookies")
    assert winner(s) == A


# ------------------------------------------------------------- Double Agenda


def test_no_win_check_while_three_goals_are_out() -> None:
    s = layout(
        rules=["double_agenda"],
        goals=["toast", "dough"],
        hands={A: ["milk_and_cookies"]},
        tables={A: ["milk", "cookies"]},
        start="play",
    )
    play(s, "milk_and_cookies")
    expect(s, K.GOAL_DISCARD, A)
    assert winner(s) is None
    answer(s, fx.discard_goal(c("toast")))
    assert winner(s) == A


def test_double_agenda_left_by_simplify() -> None:
    s = layout(
        rules=["double_agenda", "play_2"],
        goals=["toast", "dough"],
        hands={A: ["lets_simplify", "milk"]},
        start="play",
    )
    play(s, "lets_simplify")
    answer(s, fx.target(c("double_agenda")))
    answer(s, fx.STOP)
    expect(s, K.GOAL_DISCARD, A)
    assert len(s.legal) == 2
    answer(s, fx.discard_goal(c("dough")))
    assert s.goals == cards("toast")
    expect(s, K.PLAY, A)


# ---------------------------------------------------------- Radioactive Potato


def test_potato_moves_once_per_goal_change_two_players() -> None:
    s = layout(
        players=2,
        rules=["play_3"],
        hands={A: ["toast", "dough", "rules_reset"]},
        tables={A: ["radioactive_potato"]},
        start="play",
    )
    play(s, "toast")  # 0 → 1
    assert c("radioactive_potato") in table(s, B)
    play(s, "dough")  # replacing
    assert c("radioactive_potato") in table(s, A)
    play(s, "rules_reset")  # not a goal change
    assert c("radioactive_potato") in table(s, A)
    moves = [e for e in events_of(s, "move") if e[4] == "potato"]
    assert len(moves) == 2


# --------------------------------------------------------------------- Death


def test_death_by_chocolate_death_does_not_block() -> None:
    s = layout(
        goals=["death_by_chocolate"],
        hands={A: ["chocolate"]},
        tables={A: ["death", "war"]},
        start="play",
    )
    play(s, "chocolate")
    assert winner(s) is None  # War is not named: it still blocks
    s = layout(goals=["death_by_chocolate"], hands={A: ["chocolate"]}, tables={A: ["death"]})
    expect(s, K.DEATH_ALONE, A)
    answer(s, fx.KEEP_DEATH)
    play(s, "chocolate")
    assert winner(s) == A


def test_lone_death_free_action_and_it_never_blocks() -> None:
    s = layout(
        goals=["ten_cards_in_hand"],
        hands={A: ["milk", "sun"]},
        tables={A: ["death"]},
        start="play",
    )
    answer(s, fx.DISCARD_LONE_DEATH)
    assert table(s, A) == set()
    expect(s, K.PLAY, A)  # not a play
    assert fx.DISCARD_LONE_DEATH not in s.legal


def test_death_takes_a_creeper_and_then_settles() -> None:
    s = layout(goals=["toast"], tables={A: ["death", "bread", "toaster"]})
    answer(s, fx.discard(c("bread")))
    expect(s, K.PLAY, A)
    assert c("bread") in s.discard


# -------------------------------------------------------------- Taxes, Money


def test_stealing_money_onto_taxes() -> None:
    s = layout(hands={A: ["steal_something"]}, tables={A: ["taxes"], C: ["money"]}, start="play")
    play(s, "steal_something")
    answer(s, fx.target(c("money")))
    assert table(s, A) == set()
    # The Action resolves fully (and is discarded) before the settle takes the pair.
    assert s.discard == cards("steal_something", "taxes", "money")


def test_taxes_keep_cleared_when_silver_lining_leaves() -> None:
    s = layout(
        rules=["silver_lining", "play_2"],
        hands={A: ["money", "trash_a_new_rule"]},
        tables={A: ["taxes"]},
        start="play",
    )
    play(s, "money")
    answer(s, fx.KEEP)
    assert s.taxes_keep
    play(s, "trash_a_new_rule")
    answer(s, fx.target(c("silver_lining")))
    assert not s.taxes_keep
    assert table(s, A) == set()  # now discarded automatically


def test_all_that_is_certain() -> None:
    s = layout(goals=["all_that_is_certain"], hands={A: ["steal_something"]},
               tables={A: ["death", "bread"], B: ["taxes"]}, start="play")  # fmt: skip
    play(s, "steal_something")
    answer(s, fx.target(c("taxes")))
    assert winner(s) == A  # Death and Taxes are named: neither blocks
    s = layout(goals=["all_that_is_certain"], hands={A: ["steal_something"]},
               tables={A: ["death", "war"], B: ["taxes"]}, start="play")  # fmt: skip
    play(s, "steal_something")
    answer(s, fx.target(c("taxes")))
    assert winner(s) is None  # War is not named: it blocks


# ----------------------------------------------------------------- War, Peace


def test_war_is_death() -> None:
    s = layout(goals=["war_is_death"], hands={A: ["steal_something"]},
               tables={A: ["war"], C: ["death", "bread"]}, start="play")  # fmt: skip
    play(s, "steal_something")
    answer(s, fx.target(c("death")))
    assert winner(s) == A


def test_war_moved_onto_a_peace_less_seat_stays() -> None:
    s = layout(hands={A: ["peace", "bread"]}, tables={A: ["war"]}, rules=["play_2"], start="play")
    play(s, "peace")
    answer(s, fx.give_war(D))
    assert table(s, D) == ids("war")
    expect(s, K.PLAY, A)


# ------------------------------------------- a Goal met during another's turn


def test_rotate_hands_gives_another_seat_ten_cards() -> None:
    ten = [
        "bread",
        "chocolate",
        "cookies",
        "cosmos",
        "dreams",
        "eye",
        "love",
        "milk",
        "sun",
        "moon",
    ]
    s = layout(goals=["ten_cards_in_hand"], hands={A: ["rotate_hands", *ten]}, start="play")
    play(s, "rotate_hands")
    answer(s, fx.LEFT)
    assert winner(s) == B
    assert s.active == A


def test_taxation_gives_the_active_seat_ten_cards() -> None:
    nine = ["bread", "chocolate", "cookies", "cosmos", "dreams", "eye", "love", "milk"]
    s = layout(
        goals=["ten_cards_in_hand"],
        hands={A: ["taxation", *nine], B: ["sun"], C: ["moon"], D: []},
        start="play",
    )
    play(s, "taxation")
    answer(s, fx.give(c("sun")))
    assert winner(s) is None  # not yet: cards move only once every seat has chosen
    answer(s, fx.give(c("moon")))
    assert winner(s) == A


# ------------------------------------------------------------ both piles empty


def _exhausted(**kwargs: object) -> fx.State:
    """Every card not named is in D's hand; the draw and discard piles are empty."""
    return layout(rest=D, **kwargs)


def test_draw_from_two_empty_piles_is_skipped_and_counted() -> None:
    s = _exhausted(rules=["draw_3"], hands={A: ["bread"]})
    assert s.drawn == 3
    assert events_of(s, "draw_skipped")[0][1:] == (A, 3)
    expect(s, K.PLAY, A)
    play(s, "bread")
    assert events_of(s, "draw") == []  # nothing was owed later


def test_compound_action_with_nothing_to_draw() -> None:
    s = _exhausted(hands={A: ["draw_3_play_2", "bread"]}, rules=["play_2"], start="play")
    play(s, "draw_3_play_2")
    expect(s, K.PLAY, A)
    assert s.temp == []
    assert s.discard == cards("draw_3_play_2")


def test_reshuffle_only_when_a_card_is_needed() -> None:
    s = layout(hands={A: ["jackpot"]}, draw=["milk", "sun", "moon"], rest="discard", start="play")
    size = len(s.discard)
    play(s, "jackpot")
    # Not when the draw pile ran empty, but at B's draw, Jackpot! included by then.
    assert events_of(s, "reshuffle")[0][1] == size + 1
    assert s.active == B


# -------------------------------------------------- owed draws inside a chain


def test_draw_rule_from_a_temp_hand_is_caught_up_into_the_main_hand() -> None:
    s = layout(
        hands={A: ["draw_2_and_use_em", "bread"]},
        draw=["draw_3", "milk", "sun", "moon"],
        start="play",
    )
    play(s, "draw_2_and_use_em")
    play(s, "draw_3")
    # drawn 1 → target 3: 2 owed, into the main hand, before the next PLAY_TEMP.
    expect(s, K.PLAY_TEMP, A)
    assert hand(s, A) == ids("bread", "sun", "moon")
    assert s.drawn == 3


def test_win_inside_a_chain_ends_the_game_at_once() -> None:
    s = layout(
        goals=["milk_and_cookies"],
        hands={A: ["draw_3_play_2"]},
        tables={A: ["cookies"]},
        draw=["milk", "sun", "moon"],
        start="play",
    )
    play(s, "draw_3_play_2")
    play(s, "milk")
    assert winner(s) == A
    assert set(s.temp[0]) == ids("sun", "moon")  # the chain stops where it is
    fx.check_invariants(s)


# ----------------------------------------------------------------------- caps


def test_turn_cap() -> None:
    s = fx.new_game(fx.make_config(3, max_turns=5), random.Random(3))
    while not s.is_over:
        answer(s, fx.fallback(s.legal))
    assert s.result is not None
    if s.result.end_reason == "turn_cap":
        assert s.result.turns == 5
        assert s.result.ranks == (1, 1, 1)


def test_decision_cap() -> None:
    s = fx.new_game(fx.make_config(4, max_decisions=7), random.Random(1))
    while not s.is_over:
        answer(s, s.legal[0])
    assert s.result is not None
    assert s.result.end_reason in ("decision_cap", "goal")
    if s.result.end_reason == "decision_cap":
        assert len(s.history) == 7
        assert s.result.ranks == (1, 1, 1, 1)
