"""Fuzzing match record files (``arena.referee.record``): ``decode_record`` and
``read_record`` on arbitrary bytes, gzip of arbitrary bytes and of arbitrary JSON lines,
a real record cut short (compressed or not), and a real record with a few places
changed. The result is the record's lines (a match header first, a result last) or a
RecordError in plain words. What ``arena replay FILE`` then does with lines that decode
is fuzzed too: it prints the replay or one line saying what is wrong (exit status 2)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gzip
import io
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.cli.replay_cmd import print_replay
from arena.policies import RandomPolicy
from arena.referee import LocalSeat, MatchSpec, run_match
from arena.referee.record import RecordError, decode_record, encode_record, read_record

from .jsonmut import JSON_VALUES, mutated, renumbered
from .matches import GAME
from .plain import FUZZ, assert_plain


@functools.cache
def _record_lines() -> list[dict[str, Any]]:
    """The lines of a real record: a short duel of two deals."""
    config = GAME.make_config(2, "amigo", deals=2, max_turns=6)
    seats = [LocalSeat(f"s{i}", RandomPolicy(i)) for i in range(2)]
    outcome = asyncio.run(run_match(MatchSpec("fuzz-1", config, seed=5), seats))
    lines: list[dict[str, Any]] = json.loads(json.dumps(outcome.record))
    return lines


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def _jsonl(values: list[Any]) -> bytes:
    return "".join(json.dumps(v) + "\n" for v in values).encode()


@st.composite
def record_bytes(draw: st.DrawFn) -> bytes:
    """What a record file may hold."""
    real = encode_record(_record_lines())
    how = draw(st.integers(0, 7))
    if how == 0:
        return draw(st.binary(max_size=100))
    if how == 1:
        return _gzip(draw(st.binary(max_size=100)))
    if how == 2:  # any JSON lines, sometimes after a real header
        values = draw(st.lists(JSON_VALUES, max_size=4))
        if draw(st.booleans()):
            values.insert(0, _record_lines()[0])
        return _gzip(_jsonl(values))
    if how == 3:  # the compressed file cut short, or a byte changed
        at = draw(st.integers(0, len(real) - 1))
        if draw(st.booleans()):
            return real[:at]
        return real[:at] + bytes([real[at] ^ draw(st.integers(1, 255))]) + real[at + 1 :]
    if how == 4:  # the text cut short (a line half written), then compressed
        text = _jsonl(_record_lines())
        return _gzip(text[: draw(st.integers(0, len(text)))])
    if how == 5:  # lines dropped
        lines = list(_record_lines())
        del lines[draw(st.integers(0, len(lines) - 1))]
        return _gzip(_jsonl(lines))
    if how == 6:  # not UTF-8, or not JSON
        return _gzip(draw(st.sampled_from([b"\xff\xfe\n", b"{\n", b"[1, 2\n", b"nan\n"])))
    # a few places of the real record changed
    changed = draw(st.one_of(mutated(_record_lines(), top_keys=False), renumbered(_record_lines())))
    return _gzip(_jsonl(changed if isinstance(changed, list) else [changed]))


def _decoded(data: bytes) -> list[dict[str, Any]] | None:
    try:
        lines = decode_record(data)
    except RecordError as error:
        assert_plain(str(error), where="RecordError")
        return None
    assert isinstance(lines, list)
    assert all(isinstance(line, dict) for line in lines)
    assert lines[0]["type"] == "match"
    assert lines[-1]["type"] == "result"
    return lines


@settings(FUZZ, max_examples=250)
@given(data=record_bytes())
def test_any_bytes_are_a_record_or_refused(data: bytes) -> None:
    _decoded(data)


@settings(FUZZ, max_examples=150)
@given(data=record_bytes(), seat=st.sampled_from([None, 0, 1, 2, -1]))
def test_arena_replay_prints_any_record_or_says_what_is_wrong(
    data: bytes, seat: int | None
) -> None:
    lines = _decoded(data)
    if lines is None:
        return
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = print_replay(lines, seat)
    if status == 0:
        assert out.getvalue()
        assert not err.getvalue()
        return
    assert status == 2
    message = err.getvalue().splitlines()
    assert len(message) == 1, message
    assert message[0].startswith("arena replay: ")
    assert_plain(message[0].removeprefix("arena replay: "))


def test_read_record_refuses_what_is_no_file(tmp_path: Path) -> None:
    for path in (tmp_path, tmp_path / "missing.jsonl.gz"):
        try:
            read_record(path)
        except RecordError as error:
            assert_plain(str(error))
        else:
            raise AssertionError(f"{path} was read")
    real = tmp_path / "real.jsonl.gz"
    real.write_bytes(encode_record(_record_lines()))
    assert read_record(real) == _record_lines()
