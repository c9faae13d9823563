"""An Abluxxen action in words for a person choosing it ("Play three 7s and one joker",
"Draw from the deck"): the human seat's buttons, the replay's choices and its text."""

from __future__ import annotations

from arena import words

from .actions import Action, ActionKind
from .cards import JOKER, value_name
from .observation import Observation


def choice_label(action: Action, obs: Observation) -> str:
    """An action in words for a person choosing it."""
    kind = action.kind
    if kind is ActionKind.PLAY:
        if action.value == JOKER:
            return f"Play {words.count(action.jokers, 'joker')}"
        extra = f" and {words.count(action.jokers, 'joker')}" if action.jokers else ""
        return f"Play {words.count(action.naturals, value_name(action.value))}{extra}"
    if kind is ActionKind.POOL:
        slot = obs.pool[action.slot] if action.slot < len(obs.pool) else ()
        cards = " + ".join(value_name(v) for v in slot) or "empty"
        return f"Draw from the pool: slot {action.slot + 1} ({cards})"
    if kind is ActionKind.SHADOW_PICK:
        return f"Abluxx the shadow display's {value_name(action.value)}s"
    return {
        ActionKind.TAKE: "Take the abluxxed cards",
        ActionKind.LEAVE: "Leave them to their owner",
        ActionKind.TAKE_BACK: "Take them back into the hand",
        ActionKind.DISCARD: "Discard them and draw as many",
        ActionKind.DECK: "Draw from the deck",
        ActionKind.PASS: "Pass (draw nothing)",
    }.get(kind, str(action))
