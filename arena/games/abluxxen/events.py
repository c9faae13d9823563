"""Events: what happened, as recorded, and as each seat may see it (RULES.md §10).

The engine appends compact tuples ``(type, field, …)`` to ``State.events``; the field
names of each type are in ``FIELDS``. Card fields hold card ids. ``to_json`` gives the
full (unredacted) JSON object; ``view`` gives what one seat may see: card ids replaced by
values, and the cards of another seat's deal and deck draws replaced by their count.
"""

from __future__ import annotations

from typing import Any, Final

from .cards import NUM_CARDS, VALUE_OF
from .state import Event

FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "deal_start": ("deal", "seat"),
    "jokers": ("seat", "cards"),
    "dealt": ("seat", "cards"),
    "refill": ("cards",),
    "shadow_reveal": ("card",),
    "divert": ("card", "slot"),
    "play": ("seat", "value", "cards"),
    "shadowluxx": ("seat", "value", "cards"),
    "abluxx": ("seat", "victim", "cards"),
    "take": ("seat", "victim", "cards"),
    "leave": ("seat", "victim"),
    "take_back": ("seat", "cards"),
    "discard": ("seat", "cards"),
    "draw": ("seat", "slot", "cards"),
    "pass": ("seat",),
    "deal_end": ("deal", "reason", "scores", "hand_cards"),
    "match_end": ("scores",),
}
"""Each event type's fields, in tuple order. ``draw.slot`` is -1 for the deck."""

_TUPLE_FIELDS: Final = frozenset({"cards", "scores", "hand_cards"})


def is_private(event: Event, seat: int) -> bool:
    """True if the cards of ``event`` may not be shown to ``seat``: another seat's deal,
    or another seat's draw from the deck."""
    kind = event[0]
    if kind == "dealt":
        return event[1] != seat
    if kind == "draw":
        return event[2] == -1 and event[1] != seat
    return False


def to_json(event: Event) -> dict[str, Any]:
    """The full event as a JSON object (card fields are card ids)."""
    kind = event[0]
    assert isinstance(kind, str)
    out: dict[str, Any] = {"type": kind}
    for name, value in zip(FIELDS[kind], event[1:], strict=True):
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


def from_json(data: dict[str, Any]) -> Event:
    """An event from its full JSON object; ValueError naming what is wrong if it is not
    one (an unknown type, a missing field, a field of another type)."""
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ValueError(f"unknown event type {kind!r}")
    values: list[object] = [kind]
    for name in FIELDS[kind]:
        if name not in data:
            raise ValueError(f"a {kind} event has no {name!r}")
        value = data[name]
        if name in _TUPLE_FIELDS:
            if not isinstance(value, list) or not all(_is_int(v) for v in value):
                raise ValueError(f"a {kind} event's {name!r} is not a list of integers")
            value = tuple(value)
        elif not (isinstance(value, str) if name == "reason" else _is_int(value)):
            raise ValueError(
                f"a {kind} event's {name!r} is not {_KIND_OF_FIELD.get(name, 'an integer')}"
            )
        if name in ("cards", "card") and not all(
            0 <= c < NUM_CARDS for c in (value if name == "cards" else (value,))
        ):
            raise ValueError(f"a {kind} event's {name!r} holds no card id (0..{NUM_CARDS - 1})")
        values.append(value)
    return tuple(values)


_KIND_OF_FIELD: Final = {"reason": "a string"}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def view(event: Event, seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it (``None``: everything, for finished matches).

    Card ids become values (14 = joker); a private card list becomes ``count``.
    """
    out = to_json(event)
    if seat is not None and is_private(event, seat):
        out["count"] = len(out.pop("cards"))
        return out
    if "cards" in out:
        out["cards"] = [VALUE_OF[c] for c in out["cards"]]
    if "card" in out:
        out["card"] = VALUE_OF[out["card"]]
    return out


def views(events: list[Event], seat: int | None, start: int = 0) -> list[dict[str, Any]]:
    """``view`` of every event from index ``start`` on."""
    return [view(e, seat) for e in events[start:]]
