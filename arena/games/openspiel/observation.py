"""What a seat may know: OpenSpiel's observer for that player, and nothing else.

The views are OpenSpiel's own (``information_state_string``/``_tensor``,
``observation_string``/``_tensor``), each present when the game's ``GameType`` says it
provides it; the deciding seat also gets its legal action ids with their names. Nothing
here is derived from the state by the arena.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from .witness import Witness, witness


class Decision(enum.Enum):
    """The one decision kind of an OpenSpiel game: choose one of the legal actions."""

    ACT = 1


@dataclass(frozen=True, slots=True)
class Views:
    """Which of OpenSpiel's four views a game provides."""

    information_state: bool
    information_state_tensor: bool
    observation: bool
    observation_tensor: bool

    @classmethod
    def of(cls, game_type: Any) -> Views:
        """From a ``pyspiel.GameType``."""
        return cls(
            bool(game_type.provides_information_state_string),
            bool(game_type.provides_information_state_tensor),
            bool(game_type.provides_observation_string),
            bool(game_type.provides_observation_tensor),
        )


@dataclass(frozen=True, slots=True)
class Observation:
    """A seat's view of a match (``game.observe``), as the bot receives it. ``legal``
    are OpenSpiel action ids (empty unless the seat decides), ``legal_names`` their
    names; a view the game does not provide is None."""

    game: str
    seat: int
    legal: tuple[int, ...]
    legal_names: tuple[str, ...]
    decision: Decision | None
    information_state: str | None
    information_state_tensor: tuple[float, ...] | None
    observation: str | None
    observation_tensor: tuple[float, ...] | None
    history: tuple[int, ...] | None = None
    """A deciding seat's witness: a history (action ids from the start, chance outcomes
    included) it cannot tell from the real one (``witness``); None where the game
    gives none, and for a seat that does not decide."""


def observe(
    game_string: str, views: Views, state: Any, seat: int, witnessed: Witness | None = None
) -> Observation:
    """``seat``'s observation of the OpenSpiel ``state`` (never at a chance node);
    ``witnessed``: how a deciding seat's witness is drawn, where it gets one."""
    deciding = not state.is_terminal() and state.current_player() == seat
    legal: tuple[int, ...] = tuple(state.legal_actions(seat)) if deciding else ()
    return Observation(
        game=game_string,
        seat=seat,
        legal=legal,
        legal_names=tuple([state.action_to_string(seat, a) for a in legal]),
        decision=Decision.ACT if deciding else None,
        information_state=(
            state.information_state_string(seat) if views.information_state else None
        ),
        information_state_tensor=(
            tuple(state.information_state_tensor(seat)) if views.information_state_tensor else None
        ),
        observation=state.observation_string(seat) if views.observation else None,
        observation_tensor=(
            tuple(state.observation_tensor(seat)) if views.observation_tensor else None
        ),
        history=witness(state, seat, witnessed) if deciding and witnessed is not None else None,
    )
