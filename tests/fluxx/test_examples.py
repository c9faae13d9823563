"""The worked examples of FLUXX.md §16 (E1–E20), each as a test."""

from __future__ import annotations

from arena.games import fluxx as fx
from arena.games.fluxx.actions import DecisionKind as K
from arena.games.fluxx.numbers import draw_target, hand_limit, play_target

from .helpers import (
    answer,
    c,
    cards,
    events_of,
    expect,
    hand,
    ids,
    layout,
    legal_cards,
    play,
    table,
)

A, B, C, D = 0, 1, 2, 3


def test_e1_draw_rules() -> None:
    s = layout(
        hands={A: ["draw_4"], B: ["draw_2"]},
        draw=["bread", "cookies", "sun", "moon", "milk", "chocolate", "love", "time"],
    )
    expect(s, K.PLAY, A)
    assert hand(s, A) == ids("draw_4", "bread")
    play(s, "draw_4")
    # The win check ran first; then A drew the 3 it owed (drawn = 4) and its turn ended.
    assert hand(s, A) == ids("bread", "cookies", "sun", "moon")
    expect(s, K.PLAY, B)
    assert s.drawn == 4
    assert hand(s, B) == ids("draw_2", "milk", "chocolate", "love", "time")
    play(s, "draw_2")
    assert s.loc[c("draw_4")] == fx.state.Z_DISCARD
    assert hand(s, B) == ids("milk", "chocolate", "love", "time")  # nothing taken back
    expect(s, K.PLAY, C)
    assert s.drawn == 2


def test_e2_nested_compound_actions() -> None:
    s = layout(
        hands={A: ["draw_2_and_use_em"]},
        draw=["draw_3_play_2", "bread", "milk", "cookies", "sun"],
        start="play",
    )
    play(s, "draw_2_and_use_em")
    expect(s, K.PLAY_TEMP, A)
    assert legal_cards(s) == ids("draw_3_play_2", "bread")
    assert s.played == 1
    play(s, "draw_3_play_2")
    expect(s, K.PLAY_TEMP, A)
    assert legal_cards(s) == ids("milk", "cookies", "sun")
    assert len(s.temp) == 2
    play(s, "milk")
    play(s, "cookies")
    # Sun left over, then Draw 3 Play 2 discarded; back to the first temp hand.
    expect(s, K.PLAY_TEMP, A)
    assert legal_cards(s) == ids("bread")
    assert s.played == 1
    assert s.discard[-2:] == cards("sun", "draw_3_play_2")
    play(s, "bread")
    assert s.discard[-3:] == cards("sun", "draw_3_play_2", "draw_2_and_use_em")
    assert table(s, A) == ids("milk", "cookies", "bread")
    assert s.active == B


def test_e3_creeper_in_a_compound_draw() -> None:
    s = layout(
        hands={A: ["draw_3_play_2"]},
        draw=["milk", "war", "toast", "jackpot"],
        start="play",
    )
    play(s, "draw_3_play_2")
    expect(s, K.PLAY_TEMP, A)
    assert c("war") in table(s, A)
    assert legal_cards(s) == ids("milk", "toast", "jackpot")

    s = layout(
        hands={A: ["draw_3_play_2"]},
        tables={A: ["peace"]},
        draw=["milk", "war", "toast", "jackpot"],
        start="play",
    )
    play(s, "draw_3_play_2")
    expect(s, K.WAR_TARGET, A)  # before A's first choice
    answer(s, fx.give_war(C))
    assert c("war") in table(s, C)
    expect(s, K.PLAY_TEMP, A)


def test_e4_play_2_with_fewer_cards() -> None:
    s = layout(rules=["play_2"], draw=["jackpot", "bread", "cookies", "milk"])
    expect(s, K.PLAY, A)
    play(s, "jackpot")
    assert s.played == 1
    assert hand(s, A) == ids("bread", "cookies", "milk")
    expect(s, K.PLAY, A)  # one play left

    s = layout(rules=["play_2"], draw=["bread", "cookies"])
    play(s, "bread")
    assert s.active == B  # A's hand is empty: the turn ended after 1 play


def test_e5_play_all_then_a_play_rule() -> None:
    s = layout(
        rules=["play_all"],
        hands={A: ["bread", "cookies", "milk", "sun", "play_3", "brain"]},
        draw=["moon"],
    )
    assert len(hand(s, A)) == 7
    for key in ("bread", "cookies", "milk", "sun"):
        play(s, key)
    play(s, "play_3")
    assert len([e for e in events_of(s, "play") if e[1] == A]) == 5
    assert c("play_all") in s.discard
    assert s.active == B
    assert hand(s, A) == ids("brain", "moon")


def test_e6_inflation() -> None:
    s = layout(
        rules=["hand_limit_1"],
        goals=["five_keepers"],
        hands={A: ["jackpot"], B: ["trash_a_new_rule"], C: ["dreams"], D: ["rocket"]},
        draw=["inflation", "bread", "cookies", "sun", "moon", "time", "love", "eye"],
    )
    play(s, "inflation")
    assert draw_target(s) == 2
    assert play_target(s) == 2
    assert hand_limit(s) == 2
    assert s.drawn == 2
    assert hand(s, A) == ids("jackpot", "bread")
    expect(s, K.PLAY, A)
    play(s, "jackpot")
    assert hand(s, A) == ids("bread", "cookies", "sun", "moon", "time")
    for _ in range(3):  # end phase: one discard per decision
        expect(s, K.DISCARD_HAND_LIMIT, A)
        answer(s, s.legal[0])
    assert len(hand(s, A)) == 2
    expect(s, K.PLAY, B)
    assert hand(s, B) == ids("trash_a_new_rule", "love", "eye")
    play(s, "trash_a_new_rule")
    answer(s, fx.target(c("inflation")))
    expect(s, K.DISCARD_HAND_LIMIT, A)  # at once (§9 step 3)
    answer(s, s.legal[0])
    assert len(hand(s, A)) == 1
    assert len(hand(s, B)) == 2
    expect(s, K.DISCARD_HAND_LIMIT, B)  # B's end phase
    answer(s, s.legal[0])
    expect(s, K.PLAY, C)


def _e7(second: str) -> fx.State:
    return layout(
        rules=["play_2"],
        hands={
            A: ["keeper_limit_2", second, "toast", "dough", "jackpot"],
            B: ["taxation"],
            C: ["rules_reset"],
            D: ["hand_limit_2"],
        },
        tables={
            A: ["bread", "chocolate", "cookies", "cosmos", "dreams"],
            B: ["eye", "love", "milk", "money"],
            C: ["moon", "party", "peace"],
        },
        draw=["no_hand_bonus"],
    )


def test_e7_limits_order_and_timing() -> None:
    s = _e7("hand_limit_1")
    assert len(hand(s, A)) == 6
    play(s, "keeper_limit_2")
    expect(s, K.DISCARD_KEEPER_LIMIT, B)
    assert legal_cards(s) == ids("eye", "love", "milk", "money")
    answer(s, fx.discard(c("eye")))
    expect(s, K.DISCARD_KEEPER_LIMIT, B)
    answer(s, fx.discard(c("love")))
    expect(s, K.DISCARD_KEEPER_LIMIT, C)
    answer(s, fx.discard(c("moon")))
    expect(s, K.PLAY, A)
    assert len(table(s, A)) == 5
    play(s, "hand_limit_1")
    for _ in range(3):
        expect(s, K.DISCARD_KEEPER_LIMIT, A)
        answer(s, s.legal[0])
    for _ in range(3):
        expect(s, K.DISCARD_HAND_LIMIT, A)
        answer(s, s.legal[0])
    assert len(table(s, A)) == 2
    assert len(hand(s, A)) == 1
    expect(s, K.PLAY, B)


def test_e7_variant_no_limits() -> None:
    s = _e7("no_limits")
    play(s, "keeper_limit_2")
    for _ in range(3):
        answer(s, s.legal[0])
    play(s, "no_limits")
    assert c("keeper_limit_2") in s.discard
    expect(s, K.PLAY, B)  # A discarded nothing
    assert len(table(s, A)) == 5
    assert len(hand(s, A)) == 4
    assert len(table(s, B)) == 2
    assert len(table(s, C)) == 2


def test_e8_win_under_a_keeper_limit() -> None:
    s = layout(
        rules=["keeper_limit_3"],
        goals=["five_keepers"],
        hands={A: ["time"]},
        tables={A: ["bread", "chocolate", "cookies", "cosmos"], B: ["eye", "love", "milk"]},
        start="play",
    )
    play(s, "time")
    assert s.result is not None
    assert s.result.winner == A
    assert s.result.ranks == (1, 2, 2, 2)


def test_e9_double_agenda_and_the_potato() -> None:
    s = layout(
        rules=["double_agenda"],
        goals=["toast", "hippyism"],
        hands={A: ["night_and_day"], B: ["trash_a_new_rule"]},
        tables={C: ["radioactive_potato"]},
        draw=["bread"],
        start="play",
    )
    play(s, "night_and_day")
    expect(s, K.GOAL_DISCARD, A)
    assert legal_cards(s) == ids("toast", "hippyism")
    assert c("radioactive_potato") in table(s, C)  # the change completes on the answer
    answer(s, fx.discard_goal(c("toast")))
    assert c("radioactive_potato") in table(s, B)
    expect(s, K.PLAY, B)
    play(s, "trash_a_new_rule")
    answer(s, fx.target(c("double_agenda")))
    expect(s, K.GOAL_DISCARD, B)
    assert legal_cards(s) == ids("hippyism", "night_and_day")
    answer(s, fx.discard_goal(c("hippyism")))
    assert c("radioactive_potato") in table(s, A)
    assert s.goals == cards("night_and_day")

    s = layout(
        hands={A: ["toast"]}, tables={C: ["radioactive_potato"]}, draw=["bread"], start="play"
    )
    play(s, "toast")  # 0 → 1 Goal is a change too
    assert c("radioactive_potato") in table(s, B)


def test_e10_baked_potato() -> None:
    s = layout(
        rules=["baked_potato"],
        goals=["night_and_day"],
        hands={B: ["moon"]},
        tables={B: ["sun", "radioactive_potato"]},
        active=B,
        start="play",
    )
    play(s, "moon")
    assert s.result is not None
    assert s.result.winner == B

    s = layout(
        rules=["baked_potato"],
        goals=["night_and_day"],
        hands={B: ["moon", "bread"], C: ["milk"]},
        tables={B: ["sun"], C: ["radioactive_potato", "chocolate"]},
        active=B,
        draw=["cookies"],
        start="play",
    )
    play(s, "moon")
    assert s.result is None  # B is excluded while C holds the Potato
    expect(s, K.PLAY, C)
    assert c("cookies") in hand(s, C)
    answer(s, fx.play(c("cookies")))
    assert s.result is None
    s2 = layout(
        rules=["baked_potato"],
        goals=["milk_and_cookies"],
        hands={C: ["milk"]},
        tables={B: ["sun", "moon"], C: ["radioactive_potato", "cookies"]},
        active=C,
        start="play",
    )
    play(s2, "milk")  # unless C meets the Goal
    assert s2.result is not None
    assert s2.result.winner == C


def test_e11_death_at_turn_start() -> None:
    s = layout(goals=["toast"], tables={A: ["death", "bread", "toaster", "taxes"]})
    expect(s, K.DEATH_DISCARD, A)
    assert legal_cards(s) == ids("bread", "toaster", "taxes")
    assert s.drawn == 0
    assert s.events[-1][0] == "turn"
    answer(s, fx.discard(c("taxes")))
    expect(s, K.PLAY, A)
    assert s.result is None  # Death still blocks A

    s2 = layout(
        hands={
            A: ["ten_cards_in_hand"],
            C: [
                "bread",
                "chocolate",
                "cookies",
                "cosmos",
                "dreams",
                "eye",
                "love",
                "milk",
                "money",
                "moon",
                "party",
            ],
        },
        tables={C: ["death"]},
        start="play",
    )
    play(s2, "ten_cards_in_hand")
    assert s2.result is not None
    assert s2.result.winner == C


def test_e12_taxes_and_money() -> None:
    s = layout(tables={A: ["money"]}, draw=["taxes", "bread"])
    assert s.discard[-2:] == cards("taxes", "money")
    assert table(s, A) == set()
    assert hand(s, A) == ids("bread")
    discards = events_of(s, "discard")
    assert discards[-1][1:] == (A, (c("taxes"), c("money")), "taxes")

    s = layout(
        rules=["silver_lining"],
        goals=["winning_the_lottery"],
        hands={A: ["money"]},
        tables={A: ["dreams", "taxes"]},
        start="play",
    )
    play(s, "money")
    expect(s, K.TAXES_CHOICE, A)
    answer(s, fx.KEEP)
    assert s.result is not None
    assert s.result.winner == A


def test_e13_war_and_peace() -> None:
    s = layout(
        goals=["hippyism"],
        hands={B: ["peace"]},
        tables={B: ["love", "war"]},
        active=B,
        start="play",
    )
    play(s, "peace")
    expect(s, K.WAR_TARGET, B)
    assert [a.seat for a in s.legal] == [A, C, D]
    answer(s, fx.give_war(C))
    assert s.result is not None
    assert s.result.winner == B

    s = layout(
        goals=["peace_no_war"],
        hands={B: ["peace"]},
        tables={B: ["love", "war"]},
        active=B,
        start="play",
    )
    play(s, "peace")
    answer(s, fx.give_war(C))
    assert s.result is None


def test_e14_silver_lining_out_of_turn_win() -> None:
    s = layout(
        goals=["rocket_to_the_moon"],
        hands={A: ["silver_lining"]},
        tables={C: ["rocket", "moon", "death"]},
        start="play",
    )
    play(s, "silver_lining")
    assert s.result is not None
    assert s.result.winner == C
    assert s.active == A


def test_e15_goal_met_on_another_seats_turn() -> None:
    s = layout(
        goals=["milk_and_cookies"],
        hands={B: ["exchange_keepers"]},
        tables={A: ["milk", "sun"], B: ["cookies"]},
        active=B,
        start="play",
    )
    play(s, "exchange_keepers")
    expect(s, K.EXCHANGE_KEEPERS, B)
    answer(s, fx.exchange(c("cookies"), c("sun")))
    assert s.result is not None
    assert s.result.winner == A


def test_e16_counting_goal_with_creepers() -> None:
    six = ["bread", "chocolate", "cookies", "cosmos", "dreams", "eye"]
    five_b = ["love", "milk", "money", "moon", "party"]
    s = layout(
        hands={C: ["five_keepers"]},
        tables={A: [*six, "war"], B: five_b},
        active=C,
        start="play",
    )
    play(s, "five_keepers")
    assert s.result is None  # the blocked leader is not passed over

    s = layout(
        hands={C: ["five_keepers"]},
        tables={A: [*six[:5], "war"], B: five_b},
        active=C,
        start="play",
    )
    play(s, "five_keepers")
    assert s.result is not None
    assert s.result.winner == B


def _e17(preset: str) -> fx.State:
    return layout(
        preset_name=preset,
        hands={A: ["jackpot", "bread"]},
        draw=["cookies"],
        discard=["milk", "sun", "moon", "time", "love", "eye", "brain", "sleep", "toast", "dough"],
        rest=D,
        start="play",
    )


def test_e17_empty_draw_pile() -> None:
    s = _e17("pegasus-2011")
    discarded = set(s.discard)
    play(s, "jackpot")
    drawn = hand(s, A) - ids("bread")
    assert c("cookies") in drawn
    assert len(drawn) == 3
    assert (drawn - ids("cookies")) <= discarded
    assert s.discard[0] == c("jackpot")  # Jackpot! starts the new discard pile
    assert events_of(s, "reshuffle")[-1][1:] == (10, 0)
    assert s.active == B

    s = _e17("pegasus-2011-escalation")
    play(s, "jackpot")
    assert s.escalation == 1
    assert draw_target(s) == 2
    assert play_target(s) == 2
    assert s.drawn == 2
    assert len(hand(s, A)) == 5
    expect(s, K.PLAY, A)  # one more play


def test_e18_first_play_random() -> None:
    s = layout(rules=["first_play_random"], hands={A: ["bread", "milk"]}, draw=["sun"])
    expect(s, K.PLAY, A)  # Play 1: ignored

    s = layout(rules=["first_play_random", "play_2"], hands={A: ["bread", "milk"]}, draw=["sun"])
    expect(s, K.PLAY, A)
    assert s.played == 1
    random_play = events_of(s, "play")[-1]
    assert random_play[3] == "random"
    assert random_play[2] in ids("bread", "milk", "sun")
    assert len(hand(s, A)) == 2


def test_e19_draw_2_and_use_em_while_inflation_leaves() -> None:
    s = layout(
        rules=["inflation"],
        hands={A: ["draw_2_and_use_em"]},
        draw=["trash_a_new_rule", "cookies", "milk"],
        start="play",
    )
    play(s, "draw_2_and_use_em")
    expect(s, K.PLAY_TEMP, A)
    assert legal_cards(s) == ids("trash_a_new_rule", "cookies", "milk")  # 2+I drawn
    play(s, "trash_a_new_rule")
    expect(s, K.TRASH_RULE, A)
    answer(s, fx.target(c("inflation")))
    assert c("inflation") in s.discard
    expect(s, K.PLAY_TEMP, A)
    play(s, "cookies")
    # "Play all of them", read live [D40]: every card still in the temp hand.
    expect(s, K.PLAY_TEMP, A)
    assert legal_cards(s) == ids("milk")
    play(s, "milk")
    assert table(s, A) == ids("cookies", "milk")
    assert not [e for e in events_of(s, "discard") if e[3] == "leftover"]
    assert s.discard[-1] == c("draw_2_and_use_em")
    expect(s, K.PLAY, B)  # the chain was A's one play, and Play 1 holds again


def _e20(seed: int, tables: dict[int, list[str]]) -> fx.State:
    """2 players, Silver Lining in play; A plays Money onto Taxes (and Bread) and
    chooses KEEP, then plays Mix It All Up."""
    s = layout(
        players=2,
        rules=["silver_lining", "play_2"],
        hands={A: ["money", "mix_it_all_up"]},
        tables=tables,
        seed=seed,
        start="play",
    )
    play(s, "money")
    expect(s, K.TAXES_CHOICE, A)
    answer(s, fx.KEEP)
    assert table(s, A) >= ids("taxes", "money", "bread")
    assert s.taxes_keep
    play(s, "mix_it_all_up")
    return s


def test_e20_taxes_keep_across_mix_it_all_up() -> None:
    s = _e20(4, {A: ["taxes", "bread"]})  # seed 4 deals Money to A, Bread to B, Taxes to A
    assert events_of(s, "mix")[0][2] == tuple(cards("money", "bread", "taxes"))
    assert table(s, A) == ids("taxes", "money")
    assert s.taxes_keep  # the KEEP stands [D53]: no TAXES_CHOICE is asked
    assert len(events_of(s, "taxes_keep")) == 1  # the one KEEP, before the deal
    expect(s, K.PLAY, B)  # A's two plays are done
    assert table(s, A) == ids("taxes", "money")

    # Had the deal moved Money to B's table, the KEEP would be cleared [D45].
    s = _e20(1, {A: ["taxes", "bread"]})  # seed 1: Bread to A, Money to B, Taxes to A
    assert table(s, B) == ids("money")
    assert not s.taxes_keep
    expect(s, K.PLAY, B)

    # §9 step 1 applies afresh to whoever then holds both (B here, with Milk to deal).
    s = _e20(5, {A: ["taxes", "bread"], B: ["milk"]})  # seed 5: B gets Money and Taxes
    assert table(s, B) == ids("taxes", "money")
    assert not s.taxes_keep
    expect(s, K.TAXES_CHOICE, B)
