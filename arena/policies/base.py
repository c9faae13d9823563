"""The policy interface shared by in-process seats and served bots: observation in,
action out. The optional hooks get plain Python values, never protobuf messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.games.base import GameResult, Policy


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """What a policy's ``match_start`` hook learns about its match."""

    match_id: str
    """The match's id."""
    seat: int
    """The policy's seat."""
    names: tuple[str, ...]
    """The entrants, by seat."""
    game: str
    """The game's registry name."""
    config: Any
    """The game's configuration (players, rules)."""

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.names)


@dataclass(frozen=True, slots=True)
class FaultInfo:
    """A fault recorded against the policy's seat."""

    kind: str
    """TIMEOUT, DISCONNECTED, ERROR, MALFORMED, ILLEGAL, STALE or OVERSIZED."""
    detail: str
    """What happened."""
    request_id: int
    """The request it concerns (0 if none)."""


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """What a policy's ``match_over`` hook learns when its match ends."""

    match_id: str
    """The match's id."""
    ranks: tuple[int, ...]
    """Final ranks by seat, forfeits applied."""
    forfeited: tuple[bool, ...]
    """Forfeited seats."""
    faults: tuple[FaultInfo, ...]
    """This seat's faults."""
    result: GameResult | None
    """The game's result (None if the game could not read it)."""
    record_json: str
    """The whole match record as JSON, or "" when the arena withholds it."""


__all__ = ["FaultInfo", "MatchEnd", "MatchInfo", "Policy"]
