"""The web board of an OpenSpiel game: OpenSpiel's own strings, laid out as text.

A seat's board is its observation and nothing else: OpenSpiel's information-state and
observation strings for that player (the tensors are for programs, not shown). The
revealed board (finished matches) shows the whole state as OpenSpiel writes it
(``State.to_string``) and every seat's strings beside it. The public board (people
following a match live) shows only what every seat may see (``public.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from arena.games.base import Board

from .match import MatchState
from .observation import Observation, Views, observe
from .public import public_text


def _lines(text: str) -> list[str]:
    """A string as its lines: the page writes the line breaks itself (its text filter
    shows a control character, a newline too, as an escape)."""
    return text.split("\n")


def _views(obs: Observation) -> list[dict[str, Any]]:
    """The seat's strings, each with what it is, as lines."""
    shown = []
    if obs.information_state is not None:
        shown.append({"label": "information state", "lines": _lines(obs.information_state)})
    if obs.observation is not None:
        shown.append({"label": "observation", "lines": _lines(obs.observation)})
    return shown


class OpenSpielBoard(Board[MatchState, Observation, int]):
    """One board for every game of the family."""

    def seat_view(
        self, obs: Observation, events: Sequence[object], names: Sequence[str]
    ) -> dict[str, Any]:
        """The seat's OpenSpiel strings."""
        return {
            "game": obs.game,
            "viewer": obs.seat,
            "seats": [{"seat": obs.seat, "name": names[obs.seat], "views": _views(obs)}],
            "deciding": obs.decision is not None,
            "state_label": None,
            "state": None,
            "returns": None,
        }

    def full_view(
        self, state: MatchState, events: Sequence[object], names: Sequence[str]
    ) -> dict[str, Any]:
        """The whole state and every seat's strings."""
        inner = state.state
        views = Views.of(inner.get_game().get_type())
        seats = [
            {
                "seat": seat,
                "name": names[seat],
                "views": _views(observe(state.config.game_string, views, inner, seat)),
            }
            for seat in range(state.config.players)
        ]
        return {
            "game": state.config.game_string,
            "viewer": None,
            "seats": seats,
            "deciding": not inner.is_terminal(),
            "state_label": "state",
            "state": _lines(str(inner)),
            "returns": [f"{r:g}" for r in inner.returns()] if inner.is_terminal() else None,
        }

    def public_view(
        self, state: MatchState, events: Sequence[object], names: Sequence[str]
    ) -> dict[str, Any]:
        """The public observation (or a perfect-information game's state), the seats'
        names without their strings; CapabilityMissingError where the game has neither."""
        inner = state.state
        label, text = public_text(state.config.game_string, inner)
        return {
            "game": state.config.game_string,
            "viewer": None,
            "seats": [
                {"seat": seat, "name": names[seat], "views": None}
                for seat in range(state.config.players)
            ],
            "deciding": not inner.is_terminal(),
            "state_label": label,
            "state": _lines(text),
            "returns": [f"{r:g}" for r in inner.returns()] if inner.is_terminal() else None,
        }

    def choice_label(self, action: int, obs: Observation, names: Sequence[str] = ()) -> str:
        """OpenSpiel's name of the action (it names seats as OpenSpiel does)."""
        return obs.legal_names[obs.legal.index(action)]


BOARD: Final = OpenSpielBoard()
"""The board every ``OpenSpielGame`` offers."""
