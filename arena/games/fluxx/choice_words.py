"""A Fluxx action in words for a person choosing it ("Play The Brain", "Give War to
seat 2 (greedy)"): the human seat's buttons, the replay's choices and its text. A seat
is named by its number, and by its name when the names are known."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .actions import Action, ActionKind
from .cards import NAMES

_VERBS: Final = {
    ActionKind.PLAY: "Play {card}",
    ActionKind.DISCARD: "Discard {card}",
    ActionKind.TARGET: "Choose {card}",
    ActionKind.TAKE: "Take {card}",
    ActionKind.GIVE: "Give {card}",
    ActionKind.DISCARD_GOAL: "Discard the Goal {card}",
    ActionKind.GIVE_WAR: "Give War to {seat}",
    ActionKind.SEAT: "Choose {seat}",
    ActionKind.EXCHANGE: "Exchange my {card} for {other}",
    ActionKind.GET_ON_WITH_IT: "Get on with it",
    ActionKind.DISCARD_LONE_DEATH: "Discard Death",
    ActionKind.DONE: "Done",
    ActionKind.DISCARD_DEATH: "Discard Death",
    ActionKind.KEEP_DEATH: "Keep Death",
    ActionKind.PAY: "Pay: discard Taxes and Money",
    ActionKind.KEEP: "Keep Taxes and Money",
    ActionKind.LEFT: "Rotate left",
    ActionKind.RIGHT: "Rotate right",
    ActionKind.STOP: "Stop",
}


def seat_words(seat: int, names: Sequence[str] = ()) -> str:
    """ "seat 2 (greedy)", or "seat 2" when the names are not known."""
    if 0 <= seat < len(names):
        return f"seat {seat} ({names[seat]})"
    return f"seat {seat}"


def choice_label(action: Action, names: Sequence[str] = ()) -> str:
    """An action in words for a person choosing it."""
    template = _VERBS.get(action.kind)
    if template is None:
        return str(action)
    return template.format(
        card=NAMES[action.card] if action.card >= 0 else "",
        other=NAMES[action.other] if action.other >= 0 else "",
        seat=seat_words(action.seat, names),
    )
