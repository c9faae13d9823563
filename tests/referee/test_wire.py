"""The wire: generated code is fresh, conversions are exact, fast bytes equal the codec."""

from __future__ import annotations

import filecmp
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from arena.games import abluxxen as ab
from arena.games.abluxxen import events as event_views
from arena.games.abluxxen import wire
from arena.games.abluxxen.wire_bytes import decide_request_bytes
from arena.v1 import bot_pb2

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_generated_code_is_not_stale(tmp_path: Path) -> None:
    """scripts/gen_protos reproduces the committed arena/v1 files exactly."""
    env_python = str(Path(sys.executable))
    subprocess.run(
        [str(ROOT / "scripts" / "gen_protos"), str(tmp_path)],
        check=True,
        cwd=ROOT,
        env={"PYTHON": env_python, "PATH": "/usr/bin:/bin"},
        capture_output=True,
    )
    generated = sorted(p.name for p in (tmp_path / "arena" / "v1").iterdir())
    committed = sorted(p.name for p in (ROOT / "arena" / "v1").iterdir() if p.name != "__pycache__")
    assert generated == committed
    stale = [
        name
        for name in generated
        if not filecmp.cmp(tmp_path / "arena" / "v1" / name, ROOT / "arena" / "v1" / name, False)
    ]
    assert not stale, f"run scripts/gen_protos: stale generated files {stale}"


def _positions(players: int, preset: str, seed: int) -> list[tuple[ab.State, int]]:
    """(state, events cursor of the deciding seat) at every decision of a random game."""
    state = ab.new_game(ab.make_config(players, preset, deals=2), random.Random(seed))
    rng = random.Random(seed + 1)
    cursors = [0] * players
    out = []
    while not state.is_over:
        seat = state.deciding
        out.append((state.clone(), cursors[seat]))
        cursors[seat] = len(state.events)
        ab.apply(state, rng.choice(ab.legal_actions(state)))
    return out


@pytest.mark.parametrize("preset", sorted(ab.PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.slow
def test_fast_bytes_equal_the_codec(preset: str, players: int) -> None:
    kinds = set()
    for seed in range(3):
        for state, cursor in _positions(players, preset, seed):
            seat = state.deciding
            obs = ab.observe(state, seat)
            kinds.add(obs.decision)
            fast = decide_request_bytes(9, 750, 120, obs, state.events[cursor:])
            message = bot_pb2.ArenaMessage(
                decide=bot_pb2.DecideRequest(
                    request_id=9,
                    deadline_ms=750,
                    time_bank_ms=120,
                    abluxxen=wire.decision_to_proto(
                        obs, event_views.views(state.events, seat, cursor)
                    ),
                )
            )
            assert fast == message.SerializeToString()
    assert ab.DecisionKind.PLAY in kinds
    assert ab.DecisionKind.DRAW in kinds


@pytest.mark.slow
def test_observation_round_trips_through_protobuf() -> None:
    for state, _ in _positions(2, "amigo", 4) + _positions(5, "amigo-expert", 5):
        for seat in range(state.players):
            obs = ab.observe(state, seat)
            decision = wire.decision_to_proto(obs, [])
            assert wire.observation_from_proto(decision.observation, decision.legal) == obs


def test_every_action_round_trips_through_protobuf() -> None:
    for action in ab.ACTIONS.values():
        assert wire.action_from_proto(wire.action_to_proto(action)) is action
        by_code = wire.action_from_proto(wire.action_to_proto(action).__class__(code=action.code))
        assert by_code is action


def test_malformed_proto_actions_are_rejected() -> None:
    from arena.v1 import abluxxen_pb2 as pb

    bad = [
        pb.AbluxxenAction(),
        pb.AbluxxenAction(code=5),
        pb.AbluxxenAction(type=pb.ABLUXXEN_ACTION_TYPE_PLAY, value=15, naturals=1),
        pb.AbluxxenAction(type=pb.ABLUXXEN_ACTION_TYPE_PLAY, value=7, naturals=0),
        pb.AbluxxenAction(type=pb.ABLUXXEN_ACTION_TYPE_POOL, slot=-1),
        pb.AbluxxenAction(type=pb.ABLUXXEN_ACTION_TYPE_TAKE, code=2),  # code of LEAVE
        pb.AbluxxenAction(type=cast(Any, 99)),
    ]
    for message in bad:
        with pytest.raises(ab.MalformedActionError):
            wire.action_from_proto(message)
