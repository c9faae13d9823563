"""The Game adapter beyond the conformance kit (tests/games runs the whole kit on every
Fluxx preset and table size): invalid configurations, the check tables, resampling that
keeps a seat's view, and replays in words."""

from __future__ import annotations

import json
import random

import pytest

from arena.games import conformance_kit as kit
from arena.games.base import InvalidOptionsError
from arena.games.fluxx import events as event_views
from arena.games.fluxx.game import GAME


def test_configs() -> None:
    for players, preset in kit.tables(GAME):
        config = GAME.make_config(players, preset)
        assert GAME.players_of(config) == players
        assert GAME.preset_of(config) == preset
        kit.check_config_json(GAME, config)
    assert GAME.preset_of(GAME.make_config(3)) == GAME.default_preset
    for bad in ({"players": 7}, {"players": 4, "preset": "nope"}, {"players": 4, "deals": 2}):
        with pytest.raises(InvalidOptionsError):
            GAME.make_config(**bad)


def test_check_tables_meet_every_decision_kind() -> None:
    kit.check_check_tables(GAME, range(8))


def test_resample_hidden_keeps_the_seats_view() -> None:
    rng = random.Random(3)
    config = GAME.make_config(4)
    state = GAME.new_match(config, random.Random(5))
    chooser = random.Random(6)
    for _ in range(120):
        if GAME.deciding(state) is None:
            break
        for seat in range(4):
            twin = GAME.resample_hidden(state, seat, rng)
            assert GAME.observe(twin, seat) == GAME.observe(state, seat)
            mine = event_views.views(state.events, seat)
            assert event_views.views(twin.events, seat) == mine
        GAME.apply_legal(state, chooser.choice(GAME.observe(state, state.deciding).legal))


def test_replay_text_hides_other_hands() -> None:
    config = GAME.make_config(3)
    final = kit.random_match(GAME, config, 4)
    record = json.loads(json.dumps(GAME.record_json(final)))
    everything = list(GAME.replay_text(record, [], ["a", "b", "c"], None))
    mine = list(GAME.replay_text(record, [], ["a", "b", "c"], 1))
    assert any("wins" in line for line in everything)
    assert len(mine) == len(everything)
    assert any("hidden" in line for line in mine)
