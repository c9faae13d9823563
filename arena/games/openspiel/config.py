"""A table of an OpenSpiel game: the game string at a number of seats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

PLAYERS_PARAMETER: Final = "players"
"""OpenSpiel's parameter for the table size, in the games that take one."""


@dataclass(frozen=True, slots=True)
class OpenSpielConfig:
    """One table: the family game's spec (``kuhn_poker``) and its seats; ``game_string``
    is what ``pyspiel.load_game`` loads (the seats in it where the game takes them)."""

    spec: str
    players: int
    game_string: str

    def to_json(self) -> dict[str, Any]:
        """Spec, seats and game string."""
        return {"spec": self.spec, "players": self.players, "game_string": self.game_string}


def table_string(pyspiel: Any, spec: str, players: int, takes_players: bool) -> str:
    """The game string of ``spec`` at ``players`` seats: with ``players=N`` added where
    the game takes that parameter and the spec does not fix it."""
    if not takes_players:
        return spec
    params = pyspiel.game_parameters_from_string(spec)
    params[PLAYERS_PARAMETER] = players
    return str(pyspiel.game_parameters_to_string(params))
