"""How an OpenSpiel match ended: its returns, as the arena's scores and ranks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class OpenSpielResult:
    """``returns`` are OpenSpiel's, exact; ``scores`` the returns rounded to the nearest
    integer (the interface's scores are integers; every game of the curated list has
    integer returns, so nothing is lost there); ``ranks`` come from the exact returns,
    equal returns sharing a rank."""

    returns: tuple[float, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    end_reason: str
    decisions: int

    def to_json(self) -> dict[str, Any]:
        """As JSON (the returns as floats)."""
        return {
            "returns": list(self.returns),
            "ranks": list(self.ranks),
            "scores": list(self.scores),
            "end_reason": self.end_reason,
            "decisions": self.decisions,
        }


def ranks_of(returns: Sequence[float]) -> tuple[int, ...]:
    """1 + the number of seats with a strictly higher return."""
    return tuple([1 + sum([other > mine for other in returns]) for mine in returns])


def result_of(returns: Sequence[float], decisions: int) -> OpenSpielResult:
    """The result of a terminal state's returns."""
    values = tuple(map(float, returns))
    return OpenSpielResult(
        values, ranks_of(values), tuple(map(round, values)), "terminal", decisions
    )
