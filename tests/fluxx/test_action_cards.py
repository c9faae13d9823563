"""The effect of every Action card (FLUXX.md §11.5)."""

from __future__ import annotations

from arena.games import fluxx as fx
from arena.games.fluxx.actions import DecisionKind as K
from arena.games.fluxx.state import Z_DRAW

from .helpers import answer, c, cards, events_of, expect, hand, ids, layout, play, table

A, B, C, D = 0, 1, 2, 3


def test_jackpot_with_inflation_draws_four() -> None:
    s = layout(rules=["inflation"], hands={A: ["jackpot", "milk"]}, start="play")
    play(s, "jackpot")
    assert len(hand(s, A)) == 5


def test_discard_and_draw() -> None:
    s = layout(
        rules=["play_2"],
        hands={A: ["discard_and_draw", "bread", "milk"]},
        draw=["sun", "moon", "love"],
        start="play",
    )
    play(s, "discard_and_draw")
    assert hand(s, A) == ids("sun", "moon")  # k = 2: the Action itself is in transit
    assert s.discard == cards("bread", "milk", "discard_and_draw")


def test_draw_3_play_2_leftover_discarded() -> None:
    s = layout(hands={A: ["draw_3_play_2"]}, draw=["bread", "milk", "sun"], start="play")
    play(s, "draw_3_play_2")
    play(s, "sun")
    play(s, "bread")
    assert s.discard == cards("milk", "draw_3_play_2")
    assert table(s, A) == ids("sun", "bread")


def test_todays_special_is_just_another_day() -> None:
    s = layout(hands={A: ["todays_special"]}, draw=["bread", "milk", "sun"], start="play")
    play(s, "todays_special")
    play(s, "milk")
    assert s.discard == [*sorted(cards("bread", "sun")), c("todays_special")]


def test_compound_plays_read_inflation_live() -> None:
    # Drawn with I = 0 (2 cards); Inflation played from the temp hand raises the plays
    # required to 3, but only 1 card is left [D40].
    s = layout(hands={A: ["draw_2_and_use_em"]}, draw=["inflation", "bread"], start="play")
    play(s, "draw_2_and_use_em")
    play(s, "inflation")
    expect(s, K.PLAY_TEMP, A)
    play(s, "bread")
    assert c("draw_2_and_use_em") in s.discard
    # Drawn with I = 1 (4 cards, play 3); Rules Reset from the temp hand lowers it to 2.
    s = layout(
        rules=["inflation"],
        hands={A: ["draw_3_play_2"]},
        draw=["rules_reset", "bread", "milk", "sun"],
        start="play",
    )
    play(s, "draw_3_play_2")
    play(s, "rules_reset")
    play(s, "bread")
    assert s.discard[-3:] == [*sorted(cards("milk", "sun")), c("draw_3_play_2")]


def test_everybody_gets_1() -> None:
    s = layout(
        players=3,
        active=B,
        rules=["play_2"],
        hands={B: ["everybody_gets_1", "love"]},
        draw=["milk", "war", "bread", "sun"],
        start="play",
    )
    play(s, "everybody_gets_1")
    assert c("war") in table(s, B)  # the Creeper goes to the drawer, replaced
    for recipient in (B, C, A):
        expect(s, K.DEAL_CARD, B)
        assert (s.active + s.stack[-1][2]) % 3 == recipient
        answer(s, s.legal[0])
    assert hand(s, B) == ids("bread", "love")
    assert hand(s, C) == ids("milk")
    assert hand(s, A) == ids("sun")
    gives = events_of(s, "give")
    assert [(g[1], g[2]) for g in gives] == [(B, B), (B, C), (B, A)]


def test_everybody_gets_1_with_inflation_and_a_short_pool() -> None:
    s = layout(
        players=3,
        rules=["inflation"],
        hands={A: ["everybody_gets_1"], B: list(range(25, 54))},
        tables={C: ["war", "taxes", "death", "radioactive_potato"]},
        draw=["milk", "bread", "sun"],
        rest=B,
        start="play",
    )
    play(s, "everybody_gets_1")
    for _ in range(3):
        expect(s, K.DEAL_CARD, A)
        answer(s, s.legal[0])
    assert len(hand(s, A)) == 2  # A gets 1+I = 2
    assert len(hand(s, B)) > 29  # B gets the last pool card
    assert events_of(s, "draw_skipped")[0][1:] == (A, 3)


def test_lets_do_that_again_replays_an_action() -> None:
    s = layout(
        hands={A: ["lets_do_that_again"]},
        discard=["jackpot", "bread"],
        draw=["milk", "sun", "moon"],
        start="play",
    )
    play(s, "lets_do_that_again")
    answer(s, fx.take(c("jackpot")))
    assert s.discard == cards("bread", "jackpot", "lets_do_that_again")
    assert ("play", A, c("jackpot"), "replay") in s.events


def test_lets_do_that_again_replays_a_rule() -> None:
    s = layout(
        rules=["play_2"],
        hands={A: ["lets_do_that_again", "milk"]},
        discard=["play_3"],
        start="play",
    )
    play(s, "lets_do_that_again")
    answer(s, fx.take(c("play_3")))
    assert s.rules == cards("play_3")
    assert s.played == 1  # the replayed card is part of the same play


def test_no_limits() -> None:
    s = layout(
        rules=["hand_limit_1", "keeper_limit_3", "play_2"],
        hands={A: ["no_limits", "milk"]},
        start="play",
    )
    play(s, "no_limits")
    assert s.rules == cards("play_2")
    assert s.discard == cards("hand_limit_1", "keeper_limit_3", "no_limits")


def test_rotate_hands_left_and_right() -> None:
    hands = {A: ["rotate_hands", "bread"], B: ["milk"], C: ["sun"], D: ["moon"]}
    s = layout(hands=hands, rules=["play_2"], start="play")
    play(s, "rotate_hands")
    answer(s, fx.LEFT)
    assert [s.hands[x] for x in (A, B, C, D)] == [
        cards("moon"),
        cards("bread"),
        *[cards(k) for k in ("milk", "sun")],
    ]
    s = layout(hands=hands, rules=["play_2"], start="play")
    play(s, "rotate_hands")
    answer(s, fx.RIGHT)
    assert [s.hands[x] for x in (A, B, C, D)] == [
        cards("milk"),
        cards("sun"),
        cards("moon"),
        cards("bread"),
    ]
    gives = events_of(s, "give")
    assert gives[0] == ("give", A, D, (c("bread"),), "rotate")


def test_rules_reset_keeps_goals_and_basic_rules() -> None:
    s = layout(
        rules=["play_2", "inflation", "double_agenda"],
        goals=["toast", "dough"],
        hands={A: ["rules_reset", "bread"]},
        start="play",
    )
    play(s, "rules_reset")
    expect(s, K.GOAL_DISCARD, A)  # Double Agenda left with 2 Goals out
    answer(s, fx.discard_goal(c("toast")))
    assert s.rules == []
    assert s.goals == cards("dough")
    assert s.discard == [
        *sorted(cards("play_2", "inflation", "double_agenda")),
        c("toast"),
        c("rules_reset"),
    ]


def test_take_another_turn_at_most_two_in_a_row() -> None:
    s = layout(hands={A: ["take_another_turn", "bread"]}, draw=["lets_do_that_again"], start="play")
    play(s, "take_another_turn")
    assert s.active == A
    assert s.extra
    assert s.turn == 2
    expect(s, K.PLAY, A)
    play(s, "lets_do_that_again")
    answer(s, fx.take(c("take_another_turn")))  # replayed during the extra turn
    assert s.active == B  # no effect during an extra turn
    assert not s.extra


def test_trade_hands() -> None:
    s = layout(
        hands={A: ["trade_hands", "bread", "milk"], C: ["sun"]}, rules=["play_2"], start="play"
    )
    play(s, "trade_hands")
    answer(s, fx.seat(C))
    assert hand(s, A) == ids("sun")
    assert hand(s, C) == ids("bread", "milk")


def test_use_what_you_take_plays_the_card_for_the_taker() -> None:
    s = layout(hands={A: ["use_what_you_take", "bread"], C: ["sun"]}, start="play")
    play(s, "use_what_you_take")
    answer(s, fx.seat(C))
    assert table(s, A) == ids("sun")
    assert ("take", A, C, c("sun")) in s.events


def test_use_what_you_take_an_action_the_taker_decides() -> None:
    s = layout(
        hands={A: ["use_what_you_take"], C: ["trash_something"]},
        tables={D: ["war"]},
        start="play",
    )
    play(s, "use_what_you_take")
    answer(s, fx.seat(C))
    expect(s, K.TRASH_SOMETHING, A)
    answer(s, fx.target(c("war")))
    assert s.discard[-3:] == cards("war", "trash_something", "use_what_you_take")


def test_taxation_with_inflation() -> None:
    s = layout(
        rules=["inflation"],
        hands={A: ["taxation", "bread"], B: ["milk", "sun", "moon"], C: ["love"], D: []},
        rest="discard",
        start="play",
    )
    play(s, "taxation")
    expect(s, K.TAX_GIVE, B)
    answer(s, fx.give(c("sun")))
    expect(s, K.TAX_GIVE, B)
    assert fx.give(c("sun")) not in s.legal
    answer(s, fx.give(c("moon")))
    assert hand(s, B) == ids("milk", "sun", "moon")  # still held until all have chosen
    expect(s, K.TAX_GIVE, C)
    answer(s, fx.give(c("love")))
    assert hand(s, A) == ids("bread", "sun", "moon", "love")
    assert hand(s, B) == ids("milk")


def test_mix_it_all_up_deals_from_the_active_seat() -> None:
    s = layout(
        hands={B: ["mix_it_all_up"]},
        tables={A: ["bread", "war"], B: ["milk", "sun"], C: ["moon"], D: ["love"]},
        active=B,
        start="play",
    )
    play(s, "mix_it_all_up")
    assert [len(s.tables[x]) for x in (A, B, C, D)] == [1, 2, 2, 1]
    dealt = events_of(s, "mix")[0][2]
    assert isinstance(dealt, tuple)
    assert set(dealt) == ids("bread", "war", "milk", "sun", "moon", "love")
    assert [s.loc[x] - 20 for x in dealt] == [B, C, D, A, B, C]


def test_trash_and_steal_something() -> None:
    s = layout(
        hands={A: ["trash_something", "bread"]},
        tables={A: ["milk"]},
        rules=["play_2"],
        start="play",
    )
    play(s, "trash_something")
    answer(s, fx.target(c("milk")))  # own cards too
    assert table(s, A) == set()
    s = layout(hands={A: ["steal_something"]}, tables={C: ["death"]}, start="play")
    play(s, "steal_something")
    answer(s, fx.target(c("death")))
    assert table(s, A) == ids("death")


def test_creeper_sweeper_seat_by_seat() -> None:
    s = layout(
        hands={B: ["creeper_sweeper"]},
        tables={A: ["taxes", "bread"], C: ["war", "death"]},
        active=B,
        start="play",
    )
    play(s, "creeper_sweeper")
    assert s.discard == [*cards("taxes", "war", "death"), c("creeper_sweeper")]
    assert table(s, A) == ids("bread")


def test_its_trash_day_reshuffles_even_with_nothing_picked() -> None:
    s = layout(
        preset_name="pegasus-2011-escalation",
        hands={A: ["its_trash_day", "bread"], B: ["milk"]},
        tables={B: ["war"]},
        discard=["toast"],
        start="play",
        players=2,
    )
    play(s, "its_trash_day")
    answer(s, fx.DONE)
    answer(s, fx.discard(c("war")))
    answer(s, fx.DONE)
    assert s.escalation == 1
    assert s.loc[c("war")] == Z_DRAW
    assert s.loc[c("toast")] == Z_DRAW
    assert s.discard[0] == c("its_trash_day")
    assert ("trash_day", B, (c("war"),)) in s.events
