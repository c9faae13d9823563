"""Properties over random play: card conservation after every step (hypothesis, every
preset, 2–6 players), every game ends with a result within the caps, JSON round trips,
replays and determinism."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games import fluxx as fx

from .helpers import random_game

PRESETS = sorted(fx.PRESETS)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=2, max_value=6),
    preset=st.sampled_from(PRESETS),
)
def test_every_card_in_exactly_one_zone_after_every_step(
    seed: int, players: int, preset: str
) -> None:
    config = fx.make_config(players, preset)
    for steps, state in enumerate(random_game(config, seed, check=True)):
        zones = fx.card_locations(state)
        assert len(zones) == fx.NUM_CARDS
        if steps > 400:
            break


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_play_ends_with_a_result(preset: str, players: int) -> None:
    config = fx.make_config(players, preset)
    for seed in range(6):
        *_, state = random_game(config, seed)
        result = state.result
        assert result is not None
        assert result.end_reason in ("goal", "turn_cap", "decision_cap")
        assert result.turns <= config.options.max_turns
        assert result.decisions <= config.options.max_decisions
        if result.end_reason == "goal":
            assert sorted(result.ranks) == [1] + [2] * (players - 1)
            assert result.ranks[result.winner] == 1
        else:
            assert result.ranks == (1,) * players
        assert state.kind is None
        assert fx.legal_actions(state) == []


def test_small_caps_always_end_the_game() -> None:
    for seed in range(20):
        config = fx.make_config(2 + seed % 5, PRESETS[seed % 3], max_turns=3, max_decisions=15)
        *_, state = random_game(config, seed, check=True)
        assert state.result is not None
        assert state.result.turns <= 3
        assert state.result.decisions <= 15


def _roundtrip(state: fx.State) -> fx.State:
    return fx.state_from_json(json.loads(json.dumps(fx.state_to_json(state))))


@pytest.mark.parametrize("preset", PRESETS)
def test_state_json_round_trip_continues_identically(preset: str) -> None:
    rng = random.Random(5)
    for seed in range(3):
        config = fx.make_config(3 + seed, preset)
        state = fx.new_game(config, random.Random(seed))
        while not state.is_over:
            if rng.random() < 0.2:
                copy = _roundtrip(state)
                assert fx.state_to_json(copy) == fx.state_to_json(state)
                clone = state.clone()
                action = rng.choice(state.legal)
                for s in (state, copy, clone):
                    fx.apply(s, action, s.deciding)
                assert fx.state_to_json(copy) == fx.state_to_json(state)
                assert fx.state_to_json(clone) == fx.state_to_json(state)
            else:
                fx.apply(state, rng.choice(state.legal), state.deciding)
        assert fx.state_to_json(_roundtrip(state)) == fx.state_to_json(state)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_record_round_trip_and_replay(players: int) -> None:
    for seed in range(3):
        *_, state = random_game(fx.make_config(players, PRESETS[seed]), seed)
        record = fx.record_of(state)
        data = json.loads(json.dumps(record.to_json()))
        again = fx.GameRecord.from_json(data)
        assert again == record
        assert again.to_json() == data
        replayed = fx.replay(again)
        assert fx.state_to_json(replayed) == fx.state_to_json(state)


def test_replay_rejects_a_tampered_record() -> None:
    *_, state = random_game(fx.make_config(4), 2)
    record = fx.record_of(state)
    bad = fx.GameRecord(
        record.config, record.seed, record.actions, record.events[:-1], record.result
    )
    with pytest.raises(ValueError, match="events"):
        fx.replay(bad)
    wrong = fx.GameRecord(
        record.config, record.seed + 1, record.actions, record.events, record.result
    )
    with pytest.raises(ValueError, match=r"not legal|cannot act|events|result"):
        fx.replay(wrong)


def test_same_seed_same_game() -> None:
    for seed in range(5):
        a = [fx.state_to_json(s) for s in [list(random_game(fx.make_config(4), seed))[-1]]]
        b = [fx.state_to_json(s) for s in [list(random_game(fx.make_config(4), seed))[-1]]]
        assert a == b


def test_observation_json_round_trip() -> None:
    for state in random_game(fx.make_config(5, "pegasus-2011-escalation"), 9):
        for seat in range(5):
            obs = fx.observe(state, seat)
            assert fx.Observation.from_json(json.loads(json.dumps(obs.to_json()))) == obs
