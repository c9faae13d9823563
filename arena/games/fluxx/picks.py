"""Fluxx's runs of one-card discards as cards a person ticks at once
(``Board.card_picks``): down to a limit the game asks for one card a decision until the
hand (or the Keepers) is down to it, so the person ticks as many as the hand is over it;
on It's Trash Day! it asks until the seat says DONE, so the person ticks any number."""

from __future__ import annotations

from typing import Final

from arena.games.base import CardPicks

from .actions import ActionKind, DecisionKind
from .cards import NAMES
from .observation import Observation

_LIMITS: Final = {
    DecisionKind.DISCARD_HAND_LIMIT: lambda obs: obs.hand_limit,
    DecisionKind.DISCARD_KEEPER_LIMIT: lambda obs: obs.keeper_limit,
}
"""The decisions that repeat down to a limit, and the limit in force; their legal
actions are one discard per card that counts (rules in FLUXX.md §14)."""


def card_picks(obs: Observation) -> CardPicks | None:
    """The discards of a limit or Trash Day decision, one card each; None for any other
    decision."""
    if obs.decision is DecisionKind.TRASH_DAY:  # DISCARD(c) per card, and DONE
        return CardPicks(
            tuple((NAMES[a.card],) if a.kind is ActionKind.DISCARD else () for a in obs.legal),
            repeats=0,
        )
    limit = _LIMITS.get(obs.decision) if obs.decision is not None else None
    if limit is None or limit(obs) < 0:
        return None
    cards = tuple((NAMES[action.card],) for action in obs.legal)
    return CardPicks(cards, repeats=max(1, len(cards) - limit(obs)))
