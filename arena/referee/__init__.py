"""The referee: runs one match between seats (remote gRPC bots or in-process policies),
enforcing the rules, per-decision deadlines, hidden information and fault handling."""

from .faults import Fault, FaultKind
from .match import MatchOutcome, MatchSpec, SeatOutcome, run_match
from .seats import DownSeat, LocalSeat, RemoteSeat, Seat, seats_ended

__all__ = [
    "DownSeat",
    "Fault",
    "FaultKind",
    "LocalSeat",
    "MatchOutcome",
    "MatchSpec",
    "RemoteSeat",
    "Seat",
    "SeatOutcome",
    "run_match",
    "seats_ended",
]
