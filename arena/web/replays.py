"""A finished match's replay for the web, under exactly the gRPC API's secrecy rules
(``ArenaServicer.GetMatch``): a running match is never shown, a duplicate deal's table
is hidden until its whole deal group is in (``arena.league.secrecy``), a seat's view is
what ``arena.referee.replay`` tells that seat, and the full record goes out only with
everything revealed."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from arena.league.secrecy import deal_in_play
from arena.referee.record import RecordError, decode_record
from arena.referee.replay import replay_lines
from arena.store import Store
from arena.store.rows import MatchRow

from .handling import Refused, whole_number
from .source import WebSource

ALL = None
"""The view with everything revealed."""


def view_param(text: str | None) -> int | None:
    """``?seat=N`` as a seat number; absent or ``all``: everything revealed."""
    if text is None or text in ("", "all"):
        return ALL
    return whole_number(text, "seat (a seat number, or all)")


@dataclass
class Replay:
    """What may be shown of one match, from one view."""

    match: MatchRow
    seat: int | None
    """The seat whose view this is (None: everything revealed)."""
    lines: list[str]
    """The replay as text, one step a line (``replay_lines``)."""
    record: list[dict[str, Any]] = field(default_factory=list)
    """The whole record's lines (with everything revealed only)."""

    def as_json(self) -> dict[str, Any]:
        """The JSON the replay endpoint answers."""
        m = self.match
        return {
            "match": {
                "id": m.id,
                "ladder": m.ladder,
                "end_reason": m.end_reason,
                "decisions": m.decisions,
                "finished_at": m.finished_at,
                "seats": [
                    {
                        "seat": s.seat,
                        "bot": s.bot,
                        "score": s.score,
                        "rank": s.rank,
                        "forfeited": s.forfeited,
                        "timeouts": s.timeouts,
                        "errors": s.errors,
                        "invalid": s.invalid,
                    }
                    for s in m.seats
                ],
            },
            "seat": self.seat,
            "lines": self.lines,
            "record": self.record,
        }


def attachment(match_id: str, seat: int | None) -> str:
    """The ``Content-Disposition`` of a replay downloaded as a file: a file name made of
    the match id's safe characters and the view ("...-seat-1.json", "...-all.json")."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", match_id)[:120].strip("._") or "match"
    view = "all" if seat is None else f"seat-{seat}"
    return f'attachment; filename="{safe}-{view}.json"'


def shown_match(store: Store, source: WebSource, match_id: str) -> MatchRow:
    """The finished match ``match_id`` if it may be shown at all; Refused otherwise."""
    if len(match_id) > 200:
        raise Refused(400, "that match id is too long")
    if match_id in source.running():
        raise Refused(
            409,
            f"match {match_id!r} is still being played; its record is published once it ends",
        )
    match = store.match(match_id)
    if match is None or not source.shows(match.ladder):
        raise Refused(404, f"no finished match {match_id!r} here")
    problem = deal_in_play(store, match)
    if problem is not None:
        raise Refused(403, problem)
    return match


def replay(store: Store, source: WebSource, match_id: str, seat: int | None) -> Replay:
    """The replay of ``match_id`` from ``seat``'s view (None: everything revealed)."""
    match = shown_match(store, source, match_id)
    if seat is not None and not 0 <= seat < len(match.seats):
        raise Refused(400, f"seat must be 0..{len(match.seats) - 1}")
    try:
        lines = decode_record(store.record(match_id) or b"")
        text = list(replay_lines(lines, seat))
    except RecordError as error:
        raise Refused(500, f"the record of {match_id!r} is unreadable: {error}") from None
    return Replay(match, seat, text, lines if seat is None else [])
