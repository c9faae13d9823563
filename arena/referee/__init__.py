"""The referee: runs one match between seats (remote gRPC bots or in-process policies),
enforcing the rules, per-decision deadlines, hidden information and fault handling."""

from .faults import Fault, FaultKind
from .match import MatchOutcome, MatchSpec, SeatOutcome, run_match
from .seats import DownSeat, LocalSeat, ProcessSeat, RemoteSeat, Seat, builtin_seat, seats_ended

__all__ = [
    "DownSeat",
    "Fault",
    "FaultKind",
    "LocalSeat",
    "MatchOutcome",
    "MatchSpec",
    "ProcessSeat",
    "RemoteSeat",
    "Seat",
    "SeatOutcome",
    "builtin_seat",
    "run_match",
    "seats_ended",
]
