"""The hidden-information contract (FLUXX.md §13): a seat's observation does not change
when only what it may not know changes, and events show it only its own secrets."""

from __future__ import annotations

import random

import pytest

from arena.games import fluxx as fx
from arena.games.fluxx import events
from arena.games.fluxx.actions import DecisionKind as K

from .helpers import answer, c, layout, play, random_game

PRESETS = sorted(fx.PRESETS)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_observation_ignores_what_the_seat_may_not_know(preset: str, players: int) -> None:
    rng = random.Random(players)
    changed = 0
    for step, state in enumerate(random_game(fx.make_config(players, preset), players)):
        if step % 3:
            continue
        for seat in range(players):
            obs = fx.observe(state, seat)
            other = fx.resample_hidden(state, seat, rng)
            fx.check_invariants(other)
            assert fx.observe(other, seat) == obs
            if any(sorted(a) != sorted(b) for a, b in zip(other.hands, state.hands, strict=True)):
                changed += 1
            assert fx.observe(fx.determinize(obs, rng), seat) == obs
    assert changed > 0  # the resampling did change hidden cards


def test_permuting_hidden_cards_in_place() -> None:
    rng = random.Random(4)
    for state in random_game(fx.make_config(4), 21):
        if state.is_over or state.temp or state.pool or any(state.marks):
            continue
        seat = state.deciding
        before = fx.observe(state, seat)
        other = state.clone()
        hidden = [x for s in range(4) if s != seat for x in other.hands[s]]
        hidden += [x for x in other.draw if fx.TYPE_OF[x] is not fx.CardType.CREEPER]
        rng.shuffle(hidden)
        for s in range(4):
            if s != seat:
                size = len(other.hands[s])
                other.hands[s] = hidden[:size]
                del hidden[:size]
                for x in other.hands[s]:
                    other.loc[x] = 10 + s
        creepers = [x for x in other.draw if fx.TYPE_OF[x] is fx.CardType.CREEPER]
        other.draw = hidden + creepers
        rng.shuffle(other.draw)
        for x in other.draw:
            other.loc[x] = 0
        other.seed += 1
        other.legal = fx.legal_for(other, other.kind, other.deciding)  # type: ignore[arg-type]
        fx.check_invariants(other)
        assert fx.observe(other, seat) == before


def test_observation_shows_only_own_hand_and_legal_set() -> None:
    s = layout(hands={0: ["jackpot", "milk"], 1: ["bread"]}, start="play")
    mine = fx.observe(s, 0)
    theirs = fx.observe(s, 1)
    assert mine.hand == (c("milk"), c("jackpot"))
    assert theirs.hand == (c("bread"),)
    assert theirs.hand_sizes == mine.hand_sizes
    assert mine.legal
    assert theirs.legal == ()


def test_temp_hand_and_pool_are_the_active_seats_only() -> None:
    s = layout(hands={0: ["draw_3_play_2"]}, draw=["milk", "bread", "sun"], start="play")
    play(s, "draw_3_play_2")
    assert fx.observe(s, 0).temp == ((c("bread"), c("milk"), c("sun")),)
    assert fx.observe(s, 1).temp == ()
    assert fx.observe(s, 1).temp_sizes == (3,)
    s = layout(hands={0: ["everybody_gets_1"]}, draw=["milk", "bread", "sun", "moon"], start="play")
    play(s, "everybody_gets_1")
    answer(s, fx.give(c("moon")))
    assert fx.observe(s, 0).pool == (c("bread"), c("milk"), c("sun"))
    assert fx.observe(s, 0).allot[0] == (c("moon"),)
    assert fx.observe(s, 1).pool == ()
    assert fx.observe(s, 1).allot == ()
    assert fx.observe(s, 1).pool_size == 3
    assert fx.observe(s, 1).allot_sizes == (1, 0, 0, 0)


def test_private_events_are_redacted_for_others() -> None:
    s = layout(
        hands={0: ["taxation", "jackpot"], 1: ["bread", "milk"], 2: ["sun"]},
        rules=["play_2"],
        draw=["moon", "love", "eye"],
        start="play",
    )
    play(s, "taxation")
    answer(s, fx.give(c("milk")))
    answer(s, fx.give(c("sun")))
    expect_kinds = {e[0] for e in s.events}
    assert {"mark", "give"} <= expect_kinds
    give = next(e for e in s.events if e[0] == "give")
    assert events.view(give, 0)["cards"] == [c("milk")]
    assert events.view(give, 1)["cards"] == [c("milk")]
    assert events.view(give, 3) == {
        "type": "give",
        "from_seat": 1,
        "to_seat": 0,
        "reason": "taxation",
        "count": 1,
    }
    mark = next(e for e in s.events if e[0] == "mark")
    assert "card" not in events.view(mark, 0)
    assert events.view(mark, 1)["card"] == c("milk")
    play(s, "jackpot")
    draw = [e for e in s.events if e[0] == "draw" and e[1] == 0][-1]
    assert events.view(draw, 0)["cards"]
    assert events.view(draw, 2)["count"] == 3
    assert events.view(draw, None)["cards"]


def test_taxation_marks_are_private_until_moved() -> None:
    s = layout(hands={0: ["taxation"], 1: ["bread", "milk"], 2: ["sun"]}, start="play")
    play(s, "taxation")
    answer(s, fx.give(c("milk")))
    assert s.kind is K.TAX_GIVE
    assert fx.observe(s, 1).marks == (c("milk"),)
    assert fx.observe(s, 0).marks == ()
    assert fx.observe(s, 0).mark_counts == (0, 1, 0, 0)


def test_event_json_round_trip() -> None:
    *_, state = random_game(fx.make_config(4), 3)
    for event in state.events:
        assert events.from_json(events.to_json(event)) == event
        for seat in (None, 0, 1, 2, 3):
            events.view(event, seat)
