"""Determinism and exact round trips: records, replays, states, observations, actions."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from arena.games import abluxxen as ab
from arena.games.abluxxen.state import STATE_FIELDS, State

from .helpers import PRESET_NAMES, play_states, random_policy

CONFIGS = [
    ab.make_config(4, "amigo"),
    ab.make_config(2, "amigo", shadow_take="any_subset"),
    ab.make_config(2, "ravensburger-2014"),
    ab.make_config(3, "amigo-expert", deals=2),
    ab.make_config(5, "amigo-advanced"),
    ab.make_config(3, "amigo", deals=3, duplicate=True, max_turns=30),
]
CONFIG_IDS = [
    f"{c.players}p-{name}"
    for c, name in zip(
        CONFIGS,
        ["amigo", "duel-any", "raven-2p", "expert-2deals", "advanced-5p", "duplicate"],
        strict=True,
    )
]


def play(config: ab.GameConfig, seed: int, stop: int | None = None) -> State:
    """A match from ``seed``, played with random choices (to ``stop`` actions)."""
    state = ab.new_game(config, random.Random(seed))
    for step, _ in enumerate(play_states(state, random_policy(random.Random(seed + 7)))):
        if step == stop:
            break
    return state


def same_state(a: State, b: State) -> None:
    """Every field of two states is equal (types included)."""
    for name in STATE_FIELDS:
        left, right = getattr(a, name), getattr(b, name)
        assert left == right, name
        assert repr(left) == repr(right), name


def through_text(data: dict[str, Any]) -> dict[str, Any]:
    loaded = json.loads(json.dumps(data))
    assert isinstance(loaded, dict)
    return loaded


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_same_seed_and_actions_give_the_same_record(config: ab.GameConfig) -> None:
    first = play(config, 11)
    second = play(config, 11)
    assert ab.record_of(first) == ab.record_of(second)
    assert ab.record_of(first).to_json() == ab.record_of(second).to_json()
    other = play(config, 12)
    assert ab.record_of(other).decks != ab.record_of(first).decks


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_replay_reproduces_the_match(config: ab.GameConfig) -> None:
    state = play(config, 3)
    record = ab.record_of(state)
    assert record.result is not None
    same_state(ab.replay(record), state)
    text = json.dumps(record.to_json())
    again = ab.GameRecord.from_json(json.loads(text))
    assert again == record
    assert json.dumps(again.to_json()) == text
    same_state(ab.replay(again), state)


def test_a_record_of_an_unfinished_match_replays_too() -> None:
    state = play(CONFIGS[0], 4, stop=25)
    record = ab.record_of(state)
    assert record.result is None
    assert ab.GameRecord.from_json(through_text(record.to_json())) == record
    same_state(ab.replay(record), state)


def test_replay_rejects_a_tampered_record() -> None:
    record = ab.record_of(play(CONFIGS[0], 5))
    data = record.to_json()
    data["events"][3]["cards"] = [0]
    with pytest.raises(ValueError, match="events differ"):
        ab.replay(ab.GameRecord.from_json(data))
    data = record.to_json()
    seat, code = record.actions[0]
    data["actions"][0] = {"seat": (seat + 1) % 4, "code": code}
    with pytest.raises(ab.IllegalActionError):
        ab.replay(ab.GameRecord.from_json(data))
    data = record.to_json()
    data["result"]["scores"][0] += 1
    with pytest.raises(ValueError, match="result differs"):
        ab.replay(ab.GameRecord.from_json(data))
    data = record.to_json()
    data["format"] = "something-else"
    with pytest.raises(ValueError, match="not an Abluxxen game record"):
        ab.GameRecord.from_json(data)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@pytest.mark.slow
def test_state_json_round_trips_exactly_at_every_step(config: ab.GameConfig) -> None:
    state = ab.new_game(config, random.Random(21))
    rng = random.Random(22)
    step = 0
    while not state.is_over:
        if step % 7 == 0:
            data = ab.state_to_json(state)
            restored = ab.state_from_json(through_text(data))
            same_state(restored, state)
            assert ab.state_to_json(restored) == data
            ab.check_invariants(restored)
            # The restored state plays on exactly like the original.
            probe = random.Random(step)
            original = state.clone()
            for _ in range(5):
                if original.is_over:
                    break
                action = probe.choice(ab.legal_actions(original))
                ab.apply(original, action)
                ab.apply(restored, action)
            same_state(restored, original)
        ab.apply(state, rng.choice(ab.legal_actions(state)))
        step += 1
    same_state(ab.state_from_json(through_text(ab.state_to_json(state))), state)


def test_state_from_json_refuses_other_formats() -> None:
    data = ab.state_to_json(play(CONFIGS[0], 1, stop=3))
    data["format"] = "abluxxen-record/1"
    with pytest.raises(ValueError, match="not an Abluxxen state"):
        ab.state_from_json(data)


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_observation_json_round_trips(preset_name: str) -> None:
    for players in (2, 3):
        config = ab.make_config(players, preset_name, deals=2)
        state = ab.new_game(config, random.Random(players))
        states = list(play_states(state, random_policy(random.Random(1))))
        assert state.is_over
        for now in [*states[::5], state]:
            for seat in range(players):
                obs = ab.observe(now, seat)
                data = obs.to_json()
                back = ab.Observation.from_json(through_text(data))
                assert back == obs
                assert back.to_json() == data
                assert back.scores == obs.scores
                assert back.match_scores == obs.match_scores


def test_every_action_round_trips_through_json_and_its_code() -> None:
    assert len(ab.ACTIONS) == len({a.code for a in ab.ACTIONS.values()})
    names = set()
    for code, action in ab.ACTIONS.items():
        assert action.code == code
        assert ab.from_code(code) is action
        back = ab.action_from_json(json.loads(json.dumps(action.to_json())))
        assert back == action
        assert back is action
        names.add(str(action))
    assert len(names) == len(ab.ACTIONS), "every action prints distinctly"


def test_the_engine_uses_no_global_randomness(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = ab.record_of(play(CONFIGS[1], 8))

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the engine used the global random module")

    for name in ("random", "shuffle", "choice", "randrange", "randint", "sample", "seed"):
        monkeypatch.setattr(random, name, forbidden)
    assert ab.record_of(play(CONFIGS[1], 8)) == expected
