"""A recorded match in words, step by step, as one seat saw it or with everything
revealed (``arena replay``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from . import events as event_views
from .actions import from_code
from .cards import NAMES
from .engine import apply, new_game_from_seed
from .serialize import GameRecord


def _cards(cards: list[int]) -> str:
    return "; ".join(NAMES[c] for c in cards) or "-"


_TEMPLATES = {
    "setup_deal": "{seat} is dealt {cards}",
    "turn": "turn {turn}: {seat}{extra}",
    "draw": "{seat} draws {cards} into {into}",
    "draw_skipped": "{seat} cannot draw {count} (both piles empty)",
    "creeper": "{seat} draws the Creeper {card}",
    "reshuffle": "the discard pile ({count}) is shuffled into the draw pile",
    "play": "{seat} plays {card} ({how})",
    "discard": "{seat} discards {cards} ({reason})",
    "move": "{card} moves from {from_seat} to {to_seat} ({reason})",
    "keep_death": "{seat} keeps Death",
    "taxes_keep": "{seat} keeps Taxes and Money",
    "another_turn": "{seat} will take another turn",
    "allot": "{seat} hands {card} to {recipient}",
    "give": "{from_seat} gives {cards} to {to_seat} ({reason})",
    "mark": "{seat} picks {card} ({reason})",
    "rotate": "{seat} rotates the hands {direction}",
    "trade": "{seat} trades hands with {other}",
    "take": "{seat} takes {card} from {from_seat}",
    "trash_day": "{seat} trashes {cards}",
    "mix": "{seat} mixes it all up: {cards}",
    "win": "{seat} wins",
    "game_end": "game over ({reason})",
}


def describe_event(view: dict[str, Any], names: list[str]) -> str:
    """One event view in words."""

    def name(seat: object) -> str:
        if not isinstance(seat, int):
            return "?"
        if seat < 0:
            return "the centre"
        return names[seat] if seat < len(names) else str(seat)

    fields: dict[str, object] = dict(view)
    for key in ("seat", "from_seat", "to_seat", "recipient", "other", "winner"):
        if key in view:
            fields[key] = name(view[key])
    fields["cards"] = _cards(view["cards"]) if "cards" in view else f"{view.get('count')} hidden"
    fields["card"] = NAMES[view["card"]] if "card" in view else "a hidden card"
    fields["extra"] = " (extra turn)" if view.get("extra") else ""
    template = _TEMPLATES.get(str(view["type"]), str(view["type"]))
    return template.format(**fields)


def replay_lines(
    record_json: dict[str, Any],
    decisions: Sequence[dict[str, Any]],
    names: Sequence[str],
    seat: int | None,
) -> Iterator[str]:
    """The match as text: every event ``seat`` could see (all for ``None``) and every
    decision with its action, time and fault; the seat's hand at its decisions."""
    record = GameRecord.from_json(record_json)
    names = list(names)
    state = new_game_from_seed(record.config, record.seed)
    cursor = 0
    for index, (actor, code) in enumerate(record.actions):
        for view in event_views.views(state.events, seat, cursor):
            yield "  " + describe_event(view, names)
        cursor = len(state.events)
        line = decisions[index] if index < len(decisions) else {}
        kind = state.kind.name if state.kind is not None else "?"
        hand = ""
        if seat is None or actor == seat:
            hand = f" [hand {_cards(sorted(state.hands[actor]))}]"
        fault = line.get("fault")
        note = f"  FAULT {fault['kind']}: {fault['detail']} -> fallback" if fault else ""
        ms = f" {line['ms']:.1f} ms" if "ms" in line else ""
        yield f"#{index + 1} {names[actor]} {kind}{hand}: {from_code(code)}{ms}{note}"
        apply(state, from_code(code), actor)
    for view in event_views.views(state.events, seat, cursor):
        yield "  " + describe_event(view, names)
