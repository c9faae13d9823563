"""A recorded match in words, step by step, as one seat saw it or with everything
revealed (``arena replay``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from . import events as event_views
from .actions import from_code
from .cards import value_name
from .engine import apply, new_game_from_decks
from .serialize import GameRecord


def _cards(values: list[int]) -> str:
    return " ".join(value_name(v) for v in values) or "-"


_TEMPLATES = {
    "deal_start": "deal {deal} starts; {seat} begins",
    "jokers": "{seat} gets the duel jokers {cards}",
    "dealt": "{seat} is dealt {cards}",
    "refill": "pool refilled with {cards}",
    "shadow_reveal": "shadow display gets a {card}",
    "divert": "{card} diverted onto pool slot {slot}",
    "play": "{seat} plays {cards}",
    "shadowluxx": "{seat} shadowluxxes {cards}",
    "abluxx": "{seat} abluxxes {victim}'s {cards}",
    "take": "{seat} takes {victim}'s {cards}",
    "leave": "{seat} leaves the cards to {victim}",
    "take_back": "{seat} takes back {cards}",
    "discard": "{seat} discards {cards}",
    "draw": "{seat} draws {cards} from {source}",
    "pass": "{seat} passes",
    "deal_end": "deal ends ({reason}); scores {scores}",
    "match_end": "match over; totals {scores}",
}


def describe_event(view: dict[str, Any], names: list[str]) -> str:
    """One event view in words."""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else str(seat)

    slot = view.get("slot", 0)
    fields = {
        "seat": name(view.get("seat", -1)),
        "victim": name(view.get("victim", -1)),
        "cards": _cards(view["cards"]) if "cards" in view else f"{view.get('count')} hidden",
        "card": value_name(view.get("card", 0)),
        "slot": slot,
        "source": "the deck" if slot == -1 else f"pool slot {slot}",
        "deal": view.get("deal", 0) + 1,
        "reason": view.get("reason", ""),
        "scores": view.get("scores", []),
    }
    template = _TEMPLATES.get(str(view["type"]), "{seat} " + str(view["type"]))
    return template.format(**fields)


def replay_lines(
    record_json: dict[str, Any],
    decisions: Sequence[dict[str, Any]],
    names: Sequence[str],
    seat: int | None,
) -> Iterator[str]:
    """The match as text: every event ``seat`` could see (all of them for ``None``) and
    every decision with its action, time and fault; the seat's hand at its decisions."""
    record = GameRecord.from_json(record_json)
    names = list(names)
    if len(names) != record.config.players:
        raise ValueError(
            f"the record names {len(names)} seats for a table of {record.config.players}"
        )
    state = new_game_from_decks(record.config, record.decks)
    cursor = 0
    for index, (actor, code) in enumerate(record.actions):
        for view in event_views.views(state.events, seat, cursor):
            yield "  " + describe_event(view, names)
        cursor = len(state.events)
        line = decisions[index] if index < len(decisions) else {}
        kind = state.kind.name if state.kind is not None else "?"
        hand = ""
        if seat is None:
            hand = f" [hand {_cards(state.hand_values(actor))}]"
        elif actor == seat:
            hand = f" [my hand {_cards(state.hand_values(seat))}]"
        fault = line.get("fault")
        note = f"  FAULT {fault['kind']}: {fault['detail']} -> fallback" if fault else ""
        if line.get("fallback") == "arena_lag":
            note = "  ARENA LAG: the arena cut the decision short -> fallback, no strike"
        ms = f" {line['ms']:.1f} ms" if "ms" in line else ""
        yield f"#{index + 1} {names[actor]} {kind}{hand}: {from_code(code)}{ms}{note}"
        apply(state, from_code(code), actor)
    for view in event_views.views(state.events, seat, cursor):
        yield "  " + describe_event(view, names)
