"""Abluxxen's sets as cards a person ticks (``Board.card_picks``): a play names a value,
how many of it and how many jokers, so the ticked cards are exactly one legal play."""

from __future__ import annotations

from arena.games.base import CardPicks

from .actions import Action, ActionKind
from .cards import JOKER, value_name
from .observation import Observation


def set_cards(action: Action) -> tuple[str, ...]:
    """The cards a play takes from the hand, by name (``()`` for any other action)."""
    if action.kind is not ActionKind.PLAY:
        return ()
    naturals = () if action.value == JOKER else (value_name(action.value),) * action.naturals
    return naturals + (value_name(JOKER),) * action.jokers


def card_picks(obs: Observation) -> CardPicks | None:
    """The plays of ``obs`` as sets of cards; None when it offers no play."""
    cards = tuple(set_cards(action) for action in obs.legal)
    return CardPicks(cards) if any(cards) else None
