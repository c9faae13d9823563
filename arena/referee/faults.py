"""Faults: what a seat did wrong at one decision. A fault is an outcome, not a crash:
the referee plays the fallback action, records a strike of the fault's kind, and goes on."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Final

from arena.text import capped

MAX_DETAIL: Final = 1000
"""Characters of a fault's detail kept (it may quote a bot: its error status, its reply)."""


class FaultKind(enum.StrEnum):
    """The kinds of fault a seat can commit (docs/bot-protocol.md)."""

    TIMEOUT = "TIMEOUT"
    """No valid reply before the deadline (and the time bank) ran out."""
    DISCONNECTED = "DISCONNECTED"
    """The stream could not be opened, or the bot closed it, or the connection broke."""
    ERROR = "ERROR"
    """The bot ended the stream with an error status (any it sends itself, including
    RESOURCE_EXHAUSTED and DEADLINE_EXCEEDED)."""
    MALFORMED = "MALFORMED"
    """The reply names no action: no choice, an index out of range, a bad action; or the
    bot sent more messages than it was asked for (which breaks the stream)."""
    ILLEGAL = "ILLEGAL"
    """The reply names a well-formed action that is not legal now."""
    STALE = "STALE"
    """The reply carries a request id that was never issued to this seat (another
    seat's, or one written before its request arrived: ``request_ids.py``)."""
    OVERSIZED = "OVERSIZED"
    """The reply is larger than the arena's cap (above the channel's receive cap, gRPC
    fails the call locally with RESOURCE_EXHAUSTED, and the stream breaks)."""

    @property
    def category(self) -> str:
        """The leaderboard's column: ``timeouts``, ``errors`` or ``invalid``."""
        if self is FaultKind.TIMEOUT:
            return "timeouts"
        if self in (FaultKind.MALFORMED, FaultKind.ILLEGAL, FaultKind.STALE, FaultKind.OVERSIZED):
            return "invalid"
        return "errors"


@dataclass(frozen=True, slots=True)
class Fault:
    """One fault at one decision."""

    kind: FaultKind
    """What went wrong."""
    detail: str
    """What happened, in words a bot author can act on."""
    request_id: int = 0
    """The request it concerns (0 if none)."""

    def __post_init__(self) -> None:
        if len(self.detail) > MAX_DETAIL:  # as given, capped: shown only through ``shown``
            object.__setattr__(self, "detail", capped(self.detail, MAX_DETAIL))

    def to_json(self) -> dict[str, Any]:
        """The fault as a JSON object."""
        return {"kind": str(self.kind), "detail": self.detail, "request_id": self.request_id}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fault:
        """A fault from its JSON object."""
        return cls(FaultKind(data["kind"]), data["detail"], data.get("request_id", 0))
