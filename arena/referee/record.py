"""Match records: JSON lines, gzip-compressed (always in a database; in a file whose name
ends in ``.gz``; a file named otherwise is written as plain text, as its name promises,
and both read back).

Line 1 is the header (``type: match``: id, config, seat names, time limits); then one
line per decision (``type: decision``: number, seat, decision kind, action code, the time
charged to the seat in ms, the arena's own lag if any, and the fault or the reason for a
fallback if any) and per fault outside a decision (``type: fault``); the last
line (``type: result``) has scores, ranks, forfeits and the engine's full game record
(shuffles, actions, events), which is enough to replay the match exactly. The fields are
in docs/json-formats.md ("Match record").
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from arena.games import DEFAULT_GAME, AnyGame, UnknownGameError
from arena.games import get as get_game

GZIP_MAGIC = b"\x1f\x8b"
"""The first two bytes of every gzip stream."""


_COMPACT = json.JSONEncoder(separators=(",", ":"))
"""``json.dumps(..., separators=...)`` builds a new encoder per call; a record's lines
(one per decision) share this one."""


def compact_json(value: Any) -> str:
    """``value`` as JSON the way a record is written: no spaces, ASCII."""
    return _COMPACT.encode(value)


class RecordError(ValueError):
    """A file that is not a readable match record."""


def _text(lines: Iterable[dict[str, Any]], game_record_json: str | None) -> str:
    """JSON lines; the result line's ``game_record`` may come pre-serialized (the
    referee already serialized it once for MatchOver; it is most of the record)."""
    out = []
    for line in lines:
        if game_record_json is not None and line.get("type") == "result":
            rest = {k: v for k, v in line.items() if k != "game_record"}
            head = _COMPACT.encode(rest)
            out.append(f'{head[:-1]},"game_record":{game_record_json}}}\n')
        else:
            out.append(_COMPACT.encode(line) + "\n")
    return "".join(out)


def write_record(
    path: str | Path, lines: Iterable[dict[str, Any]], game_record_json: str | None = None
) -> None:
    """Write a record atomically (a crash never leaves half a file under ``path``),
    gzip-compressed if the name ends in ``.gz`` and plain JSON lines otherwise."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as raw:
            if target.name.endswith(".gz"):
                raw.write(encode_record(lines, game_record_json))
            else:
                raw.write(_text(lines, game_record_json).encode())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def encode_record(lines: Iterable[dict[str, Any]], game_record_json: str | None = None) -> bytes:
    """A record as gzip-compressed JSON lines (level 6: nearly level 9's size, in a
    fraction of its time)."""
    return gzip.compress(_text(lines, game_record_json).encode(), compresslevel=6, mtime=0)


def decode_record(data: bytes) -> list[dict[str, Any]]:
    """Record lines from ``encode_record``'s bytes (or from plain JSON lines)."""
    try:
        text = (gzip.decompress(data) if data[:2] == GZIP_MAGIC else data).decode()
        lines = [json.loads(line) for line in text.splitlines() if line]
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RecordError(f"not a match record: {error}") from None
    except RecursionError:
        raise RecordError("not a match record: its JSON nests too deeply") from None
    _check(lines)
    return lines


def read_record(path: str | Path) -> list[dict[str, Any]]:
    """The lines of a record file; RecordError if it is not one."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror}") from None
    return decode_record(data)


def _check(lines: list[dict[str, Any]]) -> None:
    """The shape ``replay`` and the views rely on: a header with the seats' names, decision
    lines with a seat, time and fault, and a result line with the game's record."""
    for number, line in enumerate(lines, start=1):
        if not isinstance(line, dict) or not isinstance(line.get("type"), str):
            raise RecordError(f"not a match record: line {number} is not a JSON object with a type")
    if not lines or lines[0].get("type") != "match":
        raise RecordError("not a match record: the first line is not a match header")
    if lines[-1].get("type") != "result":
        raise RecordError("the record is incomplete: it has no result line")
    problem = _problem(lines)
    if problem is not None:
        raise RecordError(f"the record is damaged: {problem}")


def _problem(lines: list[dict[str, Any]]) -> str | None:
    header, result = lines[0], lines[-1]
    seats = header.get("seats")
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        return "the header does not name the seats"
    if not isinstance(header.get("match_id"), str) or not isinstance(header.get("game", ""), str):
        return "the header's match id or game is not a string"
    for number, line in enumerate(lines[1:-1], start=2):
        if line["type"] != "decision":
            continue
        fault = line.get("fault")
        if (
            not isinstance(line.get("seat"), int)
            or not isinstance(line.get("ms", 0), int | float)
            or not (fault is None or _is_fault(fault))
        ):
            return f"decision line {number} lacks its seat, time or fault"
    for key in ("ranks", "scores", "forfeited"):
        if not isinstance(result.get(key), list) or len(result[key]) != len(seats):
            return f"the result has no {key} for each of the {len(seats)} seats"
    if not isinstance(result.get("game_record"), dict):
        return "the result holds no game record"
    return None


def _is_fault(fault: object) -> bool:
    return (
        isinstance(fault, dict)
        and isinstance(fault.get("kind"), str)
        and isinstance(fault.get("detail"), str)
    )


def record_game(lines: list[dict[str, Any]]) -> AnyGame:
    """The game a record was played in (its header's ``game``; records made before there
    were several games all name theirs, and a header without one is of the default)."""
    name = lines[0].get("game", DEFAULT_GAME)
    try:
        return get_game(str(name))
    except UnknownGameError as error:
        raise RecordError(f"the record is of a game this arena does not know: {error}") from None


def game_record(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The game's own record inside a match record (``Game.record_json`` output)."""
    record: dict[str, Any] = lines[-1]["game_record"]
    return record
