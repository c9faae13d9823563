"""What a match tells its seats at its start and end: MatchStart and MatchOver.

Built only for the seats that read them: a seat that says it does not
(``reads_messages = False``: an in-process policy learns its match from its
observations) is handed an empty message, and when no seat of a match reads them
nothing is built at all. On a two-decision kuhn_poker match the messages were a large
part of the referee's own work.

Most of a MatchStart is the same for every match at a table (the game, its rules, the
seats' count, the time limits): that part is built once per table and copied into each
seat's own message, never handed out itself (a seat may change the message it gets).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from arena.games import GameResult
from arena.v1 import bot_pb2

from .seats import Seat

if TYPE_CHECKING:
    from .match import MatchSpec, SeatOutcome

TABLES_KEPT: Final = 64
"""Tables whose MatchStart part is kept (then all are dropped and built anew): a league
plays a handful."""

_TABLE_STARTS: dict[tuple[Any, ...], bot_pb2.MatchStart] = {}
"""The per-table part of MatchStart, by table (see ``_table_start``)."""


def reads_messages(seat: Seat) -> bool:
    """Whether the seat reads its MatchStart and MatchOver (unless it says it does not)."""
    return bool(getattr(seat, "reads_messages", True))


def match_starts(
    spec: MatchSpec, names: list[str], reading: list[bool]
) -> list[bot_pb2.MatchStart]:
    """Each seat's MatchStart (``reading``: whether it reads it; else it is empty)."""
    if not any(reading):
        return [bot_pb2.MatchStart() for _ in reading]
    table = _table_start(spec, len(names))
    starts = []
    for seat, reads in enumerate(reading):
        start = bot_pb2.MatchStart()
        if reads:
            start.CopyFrom(table)
            start.match_id = spec.match_id
            start.names.extend(names)
            start.seat = seat
        starts.append(start)
    return starts


def _table_start(spec: MatchSpec, players: int) -> bot_pb2.MatchStart:
    """The part of MatchStart every match at this table shares (no match id, names or
    seat), built once per table; only ever copied."""
    game = spec.game
    key = (game.name, spec.config, players, spec.deadline_ms, spec.time_bank_ms, spec.max_strikes)
    try:
        start = _TABLE_STARTS.get(key)
    except TypeError:  # a configuration that cannot be a key: built each time
        return _build_table_start(spec, players)
    if start is None:
        if len(_TABLE_STARTS) >= TABLES_KEPT:
            _TABLE_STARTS.clear()
        start = _TABLE_STARTS[key] = _build_table_start(spec, players)
    return start


def _build_table_start(spec: MatchSpec, players: int) -> bot_pb2.MatchStart:
    start = bot_pb2.MatchStart(
        players=players,
        game=spec.game.name,
        deadline_ms=spec.deadline_ms,
        time_bank_ms=spec.time_bank_ms,
        max_strikes=spec.max_strikes,
    )
    spec.game.wire.fill_start(start, spec.config)
    return start


def match_overs(
    spec: MatchSpec,
    reading: list[bool],
    outcomes: Sequence[SeatOutcome],
    result: GameResult,
    ranks: list[int],
    forfeited: list[bool],
    record_json: str,
) -> list[bot_pb2.MatchOver]:
    """Each seat's MatchOver, with its own faults (``reading``: whether it reads it;
    else it is empty). ``record_json``: the game's record, or "" unpublished."""
    if not any(reading):
        return [bot_pb2.MatchOver() for _ in reading]
    template = bot_pb2.MatchOver(
        match_id=spec.match_id, ranks=ranks, forfeited=forfeited, record_json=record_json
    )
    spec.game.wire.fill_over(template, result)
    overs = []
    for reads, outcome in zip(reading, outcomes, strict=True):
        over = bot_pb2.MatchOver()
        if reads:
            over.CopyFrom(template)
            over.faults.extend(
                bot_pb2.Fault(kind=str(f.kind), detail=f.detail, request_id=f.request_id)
                for f in outcome.faults
            )
        overs.append(over)
    return overs
