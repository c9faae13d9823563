"""Events: what happened, as recorded, and as each seat may see it (FLUXX.md §13).

The engine appends compact tuples ``(type, field, …)`` to ``State.events``; ``FIELDS``
names each type's fields. ``to_json`` gives the full (unredacted) JSON object; ``view``
gives what one seat may see: the cards of a private event it is not party to become
their ``count``.

Private events: ``setup_deal`` and ``draw`` (the drawing seat), ``allot`` (the active
seat handing out Everybody Gets 1), ``give`` (giver and receiver: Everybody Gets 1,
Taxation!, Rotate Hands, Trade Hands) and ``mark`` (the marking seat: Taxation!, It's
Trash Day!). Every other event is public.
"""

from __future__ import annotations

from typing import Any, Final

from .state import Event

FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "setup_deal": ("seat", "cards"),
    "turn": ("turn", "seat", "extra"),
    "draw": ("seat", "cards", "into"),
    "draw_skipped": ("seat", "count"),
    "creeper": ("seat", "card"),
    "reshuffle": ("count", "escalation"),
    "play": ("seat", "card", "how"),
    "discard": ("seat", "cards", "reason"),
    "move": ("card", "from_seat", "to_seat", "reason"),
    "keep_death": ("seat",),
    "taxes_keep": ("seat",),
    "another_turn": ("seat",),
    "allot": ("seat", "recipient", "card"),
    "give": ("from_seat", "to_seat", "cards", "reason"),
    "mark": ("seat", "card", "reason"),
    "rotate": ("seat", "direction"),
    "trade": ("seat", "other"),
    "take": ("seat", "from_seat", "card"),
    "trash_day": ("seat", "cards"),
    "mix": ("seat", "cards"),
    "win": ("seat",),
    "game_end": ("reason", "winner"),
}
"""Each event type's fields, in tuple order. ``seat`` −1 in ``discard`` means a card
of the centre (rules, goals, an Action)."""

_TUPLE_FIELDS: Final = frozenset({"cards"})


def is_private(event: Event, seat: int) -> bool:
    """True if the cards of ``event`` may not be shown to ``seat``."""
    kind = event[0]
    if kind == "draw" or kind == "setup_deal" or kind == "allot" or kind == "mark":
        return event[1] != seat
    if kind == "give":
        return event[1] != seat and event[2] != seat
    return False


def to_json(event: Event) -> dict[str, Any]:
    """The full event as a JSON object."""
    kind = event[0]
    assert isinstance(kind, str)
    out: dict[str, Any] = {"type": kind}
    for name, value in zip(FIELDS[kind], event[1:], strict=True):
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


def from_json(data: dict[str, Any]) -> Event:
    """An event from its full JSON object."""
    kind = data["type"]
    if kind not in FIELDS:
        raise ValueError(f"unknown event type {kind!r}")
    values: list[object] = [kind]
    for name in FIELDS[kind]:
        value = data[name]
        values.append(tuple(value) if name in _TUPLE_FIELDS else value)
    return tuple(values)


def view(event: Event, seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it (``None``: everything, for finished matches):
    a private card list becomes ``count``, a private card disappears."""
    out = to_json(event)
    if seat is not None and is_private(event, seat):
        if "cards" in out:
            out["count"] = len(out.pop("cards"))
        else:
            del out["card"]
    return out


def views(events: list[Event], seat: int | None, start: int = 0) -> list[dict[str, Any]]:
    """``view`` of every event from index ``start`` on."""
    return [view(e, seat) for e in events[start:]]
