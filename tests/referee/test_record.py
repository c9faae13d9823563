"""Match records: exact round trips, replays, and clear errors for bad files."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from arena.games import abluxxen as ab
from arena.games.abluxxen.greedy import GreedyPolicy
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchOutcome, MatchSpec, run_match
from arena.referee.record import (
    RecordError,
    decode_record,
    encode_record,
    game_record,
    read_record,
    write_record,
)
from arena.referee.replay import replay_lines


def _match(players: int = 3, preset: str = "amigo") -> MatchOutcome:
    seats = [LocalSeat(f"s{i}", RandomPolicy(i)) for i in range(players - 1)]
    seats.append(LocalSeat("greedy", GreedyPolicy(1)))
    spec = MatchSpec("m-1", ab.make_config(players, preset, deals=2), seed=4)
    return asyncio.run(run_match(spec, seats))


@pytest.mark.slow
def test_the_pre_serialized_game_record_encodes_identically() -> None:
    outcome = _match()
    plain = decode_record(encode_record(outcome.record))
    spliced = decode_record(encode_record(outcome.record, outcome.game_record_json))
    assert plain == spliced == json.loads(json.dumps(outcome.record))


def test_a_record_file_round_trips_and_replays_exactly(tmp_path: Path) -> None:
    outcome = _match(2, "amigo")
    path = tmp_path / "m.jsonl.gz"
    write_record(path, outcome.record, outcome.game_record_json)
    lines = read_record(path)
    assert lines == json.loads(json.dumps(outcome.record))
    assert ab.replay(ab.GameRecord.from_json(game_record(lines))).result == outcome.result
    assert not list(tmp_path.glob(".*.tmp"))  # the atomic write left nothing behind


def test_replay_for_one_seat_hides_the_others(tmp_path: Path) -> None:
    outcome = _match()
    lines = json.loads(json.dumps(outcome.record))
    seat0 = list(replay_lines(lines, 0))
    everything = list(replay_lines(lines, None))
    assert any("(hand: " in line for line in seat0)
    assert any("13 hidden" in line for line in seat0)  # the others' deals
    assert not any("hidden" in line for line in everything)
    assert seat0[-1].startswith("final ranks")


def test_a_record_file_not_named_gz_is_plain_json_lines(tmp_path: Path) -> None:
    outcome = _match(2, "amigo")
    path = tmp_path / "m.jsonl"
    write_record(path, outcome.record, outcome.game_record_json)
    text = path.read_text(encoding="utf-8")  # not gzip: the name says JSON lines
    assert [json.loads(line) for line in text.splitlines()] == json.loads(
        json.dumps(outcome.record)
    )
    assert read_record(path) == read_record_of(tmp_path / "m.jsonl.gz", outcome)


def read_record_of(path: Path, outcome: MatchOutcome) -> list[dict[str, object]]:
    write_record(path, outcome.record, outcome.game_record_json)
    assert path.read_bytes()[:2] == b"\x1f\x8b"  # gzip, as the name says
    return read_record(path)


@pytest.mark.parametrize(
    "content", [b"", b"not gzip", b"\x1f\x8b\x08\x00garbage", b'{"type": "match"}\n']
)
def test_unreadable_records_are_a_clear_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.gz"
    path.write_bytes(content)
    with pytest.raises(RecordError):
        read_record(path)
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "missing.gz")
