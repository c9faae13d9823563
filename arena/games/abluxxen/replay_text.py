"""A recorded match in words, step by step, as one seat saw it or with everything
revealed (``arena replay``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final

from arena import words
from arena.games.decision_words import decision_line

from . import events as event_views
from .actions import from_code
from .cards import JOKER, value_name
from .choice_words import choice_label
from .engine import apply, new_game_from_decks
from .observation import observe
from .serialize import GameRecord


def card_word(value: int) -> str:
    """A card's value as a word: "7", "joker"."""
    return "joker" if value == JOKER else value_name(value)


def cards_words(values: Sequence[int], *, singles: str = "a") -> str:
    """Cards counted: "two 12s and a joker" (in the order given; ``singles`` as
    ``arena.words.counted``)."""
    return words.counted([card_word(v) for v in values], singles=singles)


DEAL_END_WORDS: Final = {
    "hand_empty": "a hand is empty",
    "supply_exhausted": "the cards ran out",
    "turn_cap": "the turn limit was reached",
}
"""Why a deal ended (``State.deal_end``), in words."""


def deal_end_words(reason: str) -> str:
    """Why a deal ended, in words (an unknown reason spelled out)."""
    return DEAL_END_WORDS.get(reason) or words.spelled_out(reason)


_TEMPLATES = {
    "deal_start": "deal {deal} starts; {seat:begins}",
    "jokers": "{seat:gets} {cards} (the duel jokers)",
    "dealt": "{seat:is} dealt {hand}",
    "refill": "the pool is refilled with {cards}",
    "shadow_reveal": "the shadow display gets {card}",
    "divert": "{card} is diverted onto pool slot {slot}",
    "play": "{seat:plays} {cards}",
    "shadowluxx": "{seat:shadowluxxes} {cards}",
    "abluxx": "{seat:abluxxes} {victim:'s} {owned}",
    "take": "{seat:takes} {victim:'s} {owned}",
    "leave": "{seat:leaves} the cards to {victim}",
    "take_back": "{seat:takes} back {cards}",
    "discard": "{seat:discards} {cards}",
    "draw": "{seat:draws} {cards} from {source}",
    "pass": "{seat:passes}",
    "deal_end": "the deal ends: {reason}; scores: {scores}",
    "match_end": "match over; totals: {scores}",
}
"""Each event in words; ``{seat:plays}`` agrees with the seat (``arena.words.Person``)."""


def describe_event(view: dict[str, Any], names: Sequence[str]) -> str:
    """One event view in words: "greedy abluxxes your two 12s"."""

    slot = view.get("slot", 0)
    scores = view.get("scores", [])
    fields = {
        "seat": words.seat_person(names, view.get("seat", -1)),
        "victim": words.seat_person(names, view.get("victim", -1)),
        "cards": cards_words(view["cards"])
        if "cards" in view
        else words.count(view.get("count", 0), "hidden card"),
        "owned": cards_words(view.get("cards", []), singles="bare"),
        "hand": cards_words(sorted(view["cards"]), singles="bare")
        if "cards" in view
        else words.count(view.get("count", 0), "hidden card"),
        "card": words.article(card_word(view.get("card", 0))),
        "slot": slot + 1,
        "source": "the deck" if slot == -1 else f"pool slot {slot + 1}",
        "deal": view.get("deal", 0) + 1,
        "reason": deal_end_words(str(view.get("reason", ""))),
        "scores": ", ".join(f"{words.seat_person(names, s)} {n}" for s, n in enumerate(scores)),
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
        action = from_code(code)
        hand = ""
        if seat is None or actor == seat:  # a seat sees its own hand only
            hand = cards_words(sorted(state.hand_values(actor)), singles="bare")
        label = choice_label(action, observe(state, actor))
        yield decision_line(index + 1, names[actor], label, line, hand)
        apply(state, action, actor)
    for view in event_views.views(state.events, seat, cursor):
        yield "  " + describe_event(view, names)
