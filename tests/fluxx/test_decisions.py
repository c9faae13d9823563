"""Every decision kind of FLUXX.md §14 with its canonical legal set, and the decisions
that are not asked because their legal set would be empty."""

from __future__ import annotations

from collections import Counter

import pytest

from arena.games import fluxx as fx
from arena.games.fluxx.actions import DecisionKind as K

from .helpers import answer, c, cards, expect, ids, layout, legal_cards, play, random_game

A, B, C, D = 0, 1, 2, 3


def codes(state: fx.State) -> list[int]:
    return [a.code for a in state.legal]


def test_every_legal_set_is_sorted_and_matches_legal_for() -> None:
    for state in random_game(fx.make_config(4), 11, check=True):
        if state.is_over:
            break
        assert codes(state) == sorted(codes(state))
        assert len(set(codes(state))) == len(state.legal)
        assert state.legal == fx.legal_for(state, state.kind, state.deciding)  # type: ignore[arg-type]
        assert fx.legal_actions(state, (state.deciding + 1) % 4) == []


def test_random_play_reaches_every_decision_kind() -> None:
    seen: Counter[K] = Counter()
    for preset in ("pegasus-2011", "pegasus-2011-escalation"):
        for seed in range(40):
            for state in random_game(fx.make_config(3 + seed % 3, preset), seed):
                if state.kind is not None:
                    seen[state.kind] += 1
    assert set(seen) == set(K), set(K) - set(seen)


def test_play_with_free_actions() -> None:
    s = layout(
        rules=["get_on_with_it"], hands={A: ["milk", "bread"]}, tables={A: ["death"]}, start="play"
    )
    expect(s, K.PLAY, A)
    assert s.legal == [
        fx.play(c("bread")),
        fx.play(c("milk")),
        fx.GET_ON_WITH_IT,
        fx.DISCARD_LONE_DEATH,
    ]


def test_play_temp() -> None:
    s = layout(hands={A: ["todays_special"]}, draw=["milk", "bread", "sun"], start="play")
    play(s, "todays_special")
    expect(s, K.PLAY_TEMP, A)
    assert s.legal == [fx.play(c) for c in sorted(cards("milk", "bread", "sun"))]


def test_death_discard_and_death_alone() -> None:
    s = layout(tables={A: ["death", "war", "bread"]})
    expect(s, K.DEATH_DISCARD, A)
    assert s.legal == [fx.discard(c("bread")), fx.discard(c("war"))]
    s = layout(tables={A: ["death"]})
    expect(s, K.DEATH_ALONE, A)
    assert s.legal == [fx.DISCARD_DEATH, fx.KEEP_DEATH]
    answer(s, fx.KEEP_DEATH)
    assert c("death") in s.tables[A]
    s = layout(tables={A: ["death"]})
    answer(s, fx.DISCARD_DEATH)
    assert s.discard[-1] == c("death")


def test_limit_discards() -> None:
    s = layout(
        hands={A: ["keeper_limit_2"], B: ["milk", "sun", "moon"]},
        tables={B: ["bread", "war", "cookies", "love"]},
        start="play",
    )
    play(s, "keeper_limit_2")
    expect(s, K.DISCARD_KEEPER_LIMIT, B)
    assert legal_cards(s) == ids("bread", "cookies", "love")  # not the Creeper
    answer(s, fx.discard(c("bread")))
    s = layout(hands={A: ["hand_limit_1"], B: ["milk", "sun", "moon"]}, start="play")
    play(s, "hand_limit_1")
    expect(s, K.DISCARD_HAND_LIMIT, B)
    assert s.legal == [fx.discard(x) for x in sorted(cards("milk", "sun", "moon"))]


def test_taxes_choice_pay() -> None:
    s = layout(
        rules=["silver_lining"], hands={B: ["money"]}, tables={B: ["taxes"]}, active=B, start="play"
    )
    play(s, "money")
    expect(s, K.TAXES_CHOICE, B)
    assert s.legal == [fx.PAY, fx.KEEP]
    answer(s, fx.PAY)
    assert s.discard[-2:] == cards("taxes", "money")


def test_war_target_two_players() -> None:
    s = layout(players=2, hands={A: ["peace"]}, tables={A: ["war"]}, start="play")
    play(s, "peace")
    expect(s, K.WAR_TARGET, A)
    assert s.legal == [fx.give_war(B)]


def test_goal_discard_only_older_goals() -> None:
    s = layout(
        rules=["double_agenda"], goals=["toast", "dough"], hands={A: ["hippyism"]}, start="play"
    )
    play(s, "hippyism")
    expect(s, K.GOAL_DISCARD, A)
    assert s.legal == [fx.discard_goal(c("toast")), fx.discard_goal(c("dough"))]
    assert len(s.goals) == 3


def test_choose_player_trade_and_use_what_you_take() -> None:
    s = layout(hands={A: ["trade_hands"], B: [], C: [], D: []}, rest="discard", start="play")
    play(s, "trade_hands")
    expect(s, K.CHOOSE_PLAYER, A)
    assert s.legal == [fx.seat(B), fx.seat(C), fx.seat(D)]  # empty hands too
    s = layout(
        hands={A: ["use_what_you_take"], B: [], C: ["bread"], D: []}, rest="discard", start="play"
    )
    play(s, "use_what_you_take")
    expect(s, K.CHOOSE_PLAYER, A)
    assert s.legal == [fx.seat(C)]


def test_rotate_exchange_trash_steal_rule() -> None:
    s = layout(hands={A: ["rotate_hands"]}, start="play")
    play(s, "rotate_hands")
    expect(s, K.ROTATE_DIRECTION, A)
    assert s.legal == [fx.LEFT, fx.RIGHT]

    tables = {A: ["sun", "bread", "war"], B: ["milk"], C: ["taxes", "moon"]}
    s = layout(hands={A: ["exchange_keepers"]}, tables=tables, start="play")
    play(s, "exchange_keepers")
    expect(s, K.EXCHANGE_KEEPERS, A)
    pairs = [(a.card, a.other) for a in s.legal]
    assert pairs == [(k, o) for k in cards("bread", "sun") for o in sorted(cards("milk", "moon"))]

    s = layout(hands={A: ["trash_something"]}, tables=tables, start="play")
    play(s, "trash_something")
    expect(s, K.TRASH_SOMETHING, A)
    assert legal_cards(s) == ids("sun", "bread", "war", "milk", "taxes", "moon")

    s = layout(hands={A: ["steal_something"]}, tables=tables, start="play")
    play(s, "steal_something")
    expect(s, K.STEAL_SOMETHING, A)
    assert legal_cards(s) == ids("milk", "taxes", "moon")

    s = layout(hands={A: ["trash_a_new_rule"]}, rules=["play_2", "draw_3"], start="play")
    play(s, "trash_a_new_rule")
    expect(s, K.TRASH_RULE, A)
    assert s.legal == [fx.target(c("draw_3")), fx.target(c("play_2"))]


def test_simplify_caps_and_stop() -> None:
    s = layout(hands={A: ["lets_simplify"]}, rules=["play_2", "draw_3", "inflation"], start="play")
    play(s, "lets_simplify")
    expect(s, K.SIMPLIFY, A)  # m = 3: at most 2
    assert s.legal[-1] is fx.STOP
    assert len(s.legal) == 4
    answer(s, fx.target(c("play_2")))
    assert fx.target(c("play_2")) not in s.legal
    answer(s, fx.target(c("inflation")))
    assert s.legal == [fx.STOP]  # cap reached: still asked [D36]
    answer(s, fx.STOP)
    assert s.rules == cards("draw_3")
    s = layout(hands={A: ["lets_simplify"]}, start="play")
    play(s, "lets_simplify")
    expect(s, K.SIMPLIFY, A)
    assert s.legal == [fx.STOP]


def test_replay_from_discard() -> None:
    s = layout(
        hands={A: ["lets_do_that_again"]},
        discard=["bread", "toast", "jackpot", "play_2", "war"],
        start="play",
    )
    play(s, "lets_do_that_again")
    expect(s, K.REPLAY_FROM_DISCARD, A)
    assert s.legal == [fx.take(c("play_2")), fx.take(c("jackpot"))]


def test_deal_card_by_recipient() -> None:
    s = layout(
        hands={A: ["everybody_gets_1"]},
        draw=["milk", "bread", "sun", "moon"],
        start="play",
    )
    play(s, "everybody_gets_1")
    expect(s, K.DEAL_CARD, A)
    assert legal_cards(s) == ids("milk", "bread", "sun", "moon")
    order = []
    for _ in range(4):
        order.append(s.stack[-1][2])  # the recipient offset
        answer(s, s.legal[-1])
    assert order == [0, 1, 2, 3]


def test_tax_give_out_of_turn() -> None:
    s = layout(
        hands={A: ["taxation"], B: ["bread", "milk"], C: [], D: ["sun"]},
        rest="discard",
        start="play",
    )
    play(s, "taxation")
    expect(s, K.TAX_GIVE, B)
    assert s.legal == [fx.give(c("bread")), fx.give(c("milk"))]
    answer(s, fx.give(c("milk")))
    expect(s, K.TAX_GIVE, D)  # C has no cards: not asked
    assert s.legal == [fx.give(c("sun"))]
    answer(s, s.legal[0])
    assert set(s.hands[A]) == ids("milk", "sun")


def test_trash_day_each_seat_in_order() -> None:
    s = layout(
        players=3,
        hands={A: ["its_trash_day", "bread"], B: ["milk"], C: []},
        tables={B: ["war"]},
        start="play",
    )
    play(s, "its_trash_day")
    expect(s, K.TRASH_DAY, A)
    assert s.legal == [fx.discard(c("bread")), fx.DONE]
    answer(s, fx.discard(c("bread")))
    assert s.legal == [fx.DONE]  # nothing left to pick: still asked [D36]
    answer(s, fx.DONE)
    expect(s, K.TRASH_DAY, B)
    assert s.legal == [fx.discard(c("milk")), fx.discard(c("war")), fx.DONE]
    answer(s, fx.discard(c("war")))
    answer(s, fx.DONE)
    expect(s, K.TRASH_DAY, C)
    assert s.legal == [fx.DONE]
    answer(s, fx.DONE)
    assert c("war") not in s.tables[B]


@pytest.mark.parametrize(
    ("card", "kwargs"),
    [
        ("trash_a_new_rule", {}),
        ("exchange_keepers", {"tables": {B: ["milk"]}}),
        ("steal_something", {"tables": {A: ["milk"]}}),
        ("trash_something", {}),
        ("lets_do_that_again", {"discard": ["milk"]}),
        ("use_what_you_take", {"rest": "discard"}),
    ],
)
def test_empty_legal_sets_are_not_asked(card: str, kwargs: dict[str, object]) -> None:
    s = layout(hands={A: [card, "bread"]}, start="play", **kwargs)
    play(s, card)
    assert s.active == B  # the Action did nothing; A's one play is over
    assert ("discard", -1, (c(card),), "action") in s.events


def test_fallback() -> None:
    assert fx.fallback([fx.target(c("play_2")), fx.STOP]) is fx.STOP
    assert fx.fallback([fx.discard(c("bread")), fx.DONE]) is fx.DONE
    assert fx.fallback([fx.PAY, fx.KEEP]) is fx.PAY


def test_phase_in_the_observation() -> None:
    s = layout(rules=["hand_limit_0"], tables={A: ["death", "bread"]}, draw=["milk", "sun"])
    assert fx.observe(s, B).phase == "start"  # Death, before the draw
    answer(s, fx.discard(c("bread")))
    assert fx.observe(s, B).phase == "play"
    play(s, "milk")
    assert fx.observe(s, B).phase == "play"  # now B's turn, after its draw
    assert s.active == B
    s = layout(rules=["hand_limit_0"], hands={A: ["bread"]}, draw=["milk", "sun"])
    play(s, "milk")
    expect(s, K.DISCARD_HAND_LIMIT, A)
    assert fx.observe(s, C).phase == "end"
