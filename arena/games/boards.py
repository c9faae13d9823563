"""A moment of a match as the web shows it, through the game's ``Board``: one seat's
view (its board, and its legal actions in words when it decides) or everything revealed.

The human seat's page, the replay viewer and the conformance kit's differential test
all build a seat's view here, so the test checks exactly what the pages show.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import Board, CapabilityMissingError
from .registry import AnyGame


def board_of(game: AnyGame) -> Board[Any, Any, Any]:
    """The game's board; CapabilityMissingError if it has none."""
    board = game.board
    if board is None:
        raise CapabilityMissingError(f"{game.title} has no board for the web")
    return board


def seat_moment(
    game: AnyGame, obs: Any, events: Sequence[object], names: Sequence[str]
) -> dict[str, Any]:
    """What ``obs.seat`` sees: ``board`` (the game's view model from its observation
    and the events since the previous moment) and ``choices`` (its legal actions in
    words, in the canonical order; empty unless it decides)."""
    board = board_of(game)
    return {
        "board": board.seat_view(obs, events, names),
        "choices": [board.choice_label(action, obs, names) for action in obs.legal],
    }


def revealed_moment(
    game: AnyGame, state: Any, events: Sequence[object], names: Sequence[str]
) -> dict[str, Any]:
    """Everything revealed (finished matches only): the board with every hand, and the
    deciding seat's legal actions in words."""
    board = board_of(game)
    seat = game.deciding(state)
    obs = game.observe(state, seat) if seat is not None else None
    return {
        "board": board.full_view(state, events, names),
        "choices": [] if obs is None else [board.choice_label(a, obs, names) for a in obs.legal],
    }
