"""The replay viewer's steps: a recorded match on the game's board, step by step, as one
seat saw it (its own hand only, its legal choices only when it decides) or with
everything revealed; the decision, time and fault of each step; the result at the end."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from arena.games import all_games, get
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchSpec, run_match
from arena.referee.record import RecordError
from arena.referee.replay_steps import replay_step


@pytest.fixture(
    scope="module",
    params=[game.name for game in all_games() if game.board is not None],
)
def lines(request: pytest.FixtureRequest) -> list[dict[str, Any]]:
    game = get(request.param)
    seats = [LocalSeat(name, RandomPolicy(i)) for i, name in enumerate(["a", "<b>", "c"])]
    spec = MatchSpec("m/1", game.make_config(3), seed=5, game=game)
    outcome = asyncio.run(run_match(spec, seats))
    records: list[dict[str, Any]] = json.loads(json.dumps(outcome.record))
    return records


def _hands(step: dict[str, Any]) -> list[Any]:
    return [s["hand"] for s in step["board"]["seats"]]


def test_a_seat_sees_only_its_own_hand_at_every_step(lines: list[dict[str, Any]]) -> None:
    decisions = [line for line in lines if line["type"] == "decision"]
    for index in range(0, len(decisions) + 1, 7):
        for seat in range(3):
            step = replay_step(lines, index, seat)
            hands = _hands(step)
            assert hands[seat] is not None
            assert [h for i, h in enumerate(hands) if i != seat] == [None, None]
            deciding = step["decision"]["seat"] if step["decision"] else None
            assert bool(step["choices"]) == (deciding == seat)
        revealed = replay_step(lines, index, None)
        assert all(h is not None for h in _hands(revealed))


def test_steps_follow_the_record(lines: list[dict[str, Any]]) -> None:
    decisions = [line for line in lines if line["type"] == "decision"]
    first = replay_step(lines, 0, None)
    assert first["step"] == 0
    assert first["steps"] == len(decisions) + 1
    assert first["decision"]["seat"] == decisions[0]["seat"]
    assert first["decision"]["ms"] == decisions[0]["ms"]
    assert first["decision"]["taken"] in first["choices"]
    assert first["names"] == ["a", "<b>", "c"]
    last = replay_step(lines, 10**9, 1)  # clamped to the end
    assert last["step"] == len(decisions)
    assert last["decision"] is None
    assert last["result"]["ranks"] == lines[-1]["ranks"]
    assert last["board"]["over"]


def test_a_seat_that_does_not_exist_is_refused_in_words(lines: list[dict[str, Any]]) -> None:
    with pytest.raises(RecordError, match=r"seat must be 0\.\.2"):
        replay_step(lines, 0, 3)


def test_a_damaged_record_is_refused_in_words(lines: list[dict[str, Any]]) -> None:
    damaged = json.loads(json.dumps(lines))
    damaged[-1]["game_record"]["actions"] = [{"seat": 0, "code": 424242}]
    with pytest.raises(RecordError, match="the record is damaged"):
        replay_step(damaged, 1, None)
