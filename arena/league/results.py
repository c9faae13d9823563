"""A played match as the rows the store keeps (shared by leagues and ``arena serve``)."""

from __future__ import annotations

import time
from typing import Any

from arena.referee import MatchOutcome
from arena.referee.record import encode_record
from arena.store.rows import HeldMatch, MatchRow, SeatRow

FaultRow = tuple[int, int, str, str, int]
"""(seat, n, kind, detail, request id) of one fault, as ``Store.record_match`` takes it."""


def match_id(league_id: str, index: int) -> str:
    """The id of a league's match: from the league and the index only."""
    return f"{league_id}/{index:06d}"


def finished_match(
    outcome: MatchOutcome,
    *,
    league_id: str,
    index: int,
    ladder: str,
    seed: int,
    game_json: dict[str, Any],
) -> HeldMatch:
    """A finished match as the store will record it: its row, its configuration (the
    game's configuration as JSON, and the bots by seat), its faults and its encoded
    record."""
    row, faults = match_rows(outcome, league_id=league_id, index=index, ladder=ladder, seed=seed)
    config = {"game": game_json, "seats": [seat.name for seat in outcome.seats]}
    return HeldMatch(row, config, faults, encode_record(outcome.record, outcome.game_record_json))


def match_rows(
    outcome: MatchOutcome, *, league_id: str, index: int, ladder: str, seed: int
) -> tuple[MatchRow, list[FaultRow]]:
    """The match row (with its seats) and the fault rows of a finished match."""
    seats = []
    faults: list[FaultRow] = []
    for seat_index, seat in enumerate(outcome.seats):
        counts = seat.fault_counts()
        seats.append(
            SeatRow(
                seat=seat_index,
                bot=seat.name,
                score=seat.score,
                game_rank=seat.game_rank,
                rank=seat.rank,
                forfeited=seat.forfeited,
                decisions=seat.decisions,
                think_ms=round(seat.think_s * 1000, 3),
                timeouts=counts["timeouts"],
                errors=counts["errors"],
                invalid=counts["invalid"],
            )
        )
        faults += [
            (seat_index, n, str(f.kind), f.detail, f.request_id) for n, f in enumerate(seat.faults)
        ]
    row = MatchRow(
        id=outcome.match_id,
        league_id=league_id,
        idx=index,
        ladder=ladder,
        seed=seed,
        end_reason=outcome.result.end_reason,
        decisions=outcome.decisions,
        wall_s=round(outcome.wall_s, 4),
        finished_at=time.time(),
        seats=tuple(seats),
    )
    return row, faults
