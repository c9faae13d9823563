"""A recorded match in words, step by step, as one seat saw it or with everything
revealed (``arena replay``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final

from arena import words
from arena.games.decision_words import decision_line

from . import events as event_views
from .actions import from_code
from .cards import NAMES
from .choice_words import choice_label
from .engine import apply, new_game_from_seed
from .serialize import GameRecord


def _cards(cards: list[int]) -> str:
    return words.listed([NAMES[c] for c in cards])


_WORDS: Final[dict[str, dict[str, str]]] = {
    "how": {
        "hand": "from the hand",
        "temp": "from a temporary hand",
        "taken": "taken with Use What You Take",
        "replay": "again, from the discard pile",
        "random": "at random: First Play Random",
    },
    "into": {"hand": "the hand", "pool": "the Everybody Gets 1 pool", "temp": "a temporary hand"},
    "reason": {
        "action": "played",
        "death": "to Death",
        "discard_and_draw": "Discard & Draw",
        "get_on_with_it": "Get On With It!",
        "goal": "a Goal gives way",
        "hand_limit": "the hand limit",
        "keeper_limit": "the Keeper limit",
        "leftover": "left over",
        "lone_death": "a lone Death",
        "no_limits": "No Limits",
        "replaced": "replaced by a New Rule",
        "rules_reset": "Rules Reset",
        "simplify": "Let's Simplify",
        "taxes": "Taxes paid with Money",
        "trash": "trashed",
        "trash_day": "It's Trash Day!",
        "creeper_sweeper": "Creeper Sweeper",
        "taxation": "Taxation!",
        "trade": "Trade Hands",
        "everybody_gets_1": "Everybody Gets 1",
        "rotate": "Rotate Hands",
        "potato": "the Radioactive Potato moves on",
        "steal": "Steal Something",
        "war": "War moves on",
        "exchange": "Exchange Keepers",
    },
}
"""The events' word fields (how a card was played, where cards went, why) as people say
them; a value not listed is shown with spaces for its underscores."""

END_WORDS: Final = {
    "goal": "a Goal is met",
    "turn_cap": "the turn limit was reached",
    "decision_cap": "the decision limit was reached",
}
"""Why a game ended (``Result.end_reason``), in words."""


def end_words(reason: str) -> str:
    """Why a game ended, in words (an unknown reason spelled out)."""
    return END_WORDS.get(reason) or words.spelled_out(reason)


_TEMPLATES = {
    "setup_deal": "{seat:is} dealt {cards}",
    "turn": "turn {turn}: {seat:'s} turn{extra}",
    "draw": "{seat:draws} {cards} into {into}",
    "draw_skipped": "{seat:cannot} draw {count} (both piles are empty)",
    "creeper": "{seat:draws} the Creeper {card}",
    "reshuffle": "the discard pile ({count} cards) is shuffled into the draw pile",
    "play": "{seat:plays} {card} ({how})",
    "discard": "{seat:discards} {cards} ({reason})",
    "discard_centre": "to the discard pile: {cards} ({reason})",
    "move": "{card} moves from {from_seat} to {to_seat} ({reason})",
    "keep_death": "{seat:keeps} Death",
    "taxes_keep": "{seat:keeps} Taxes and Money",
    "another_turn": "{seat:will} take another turn",
    "allot": "{seat:hands} {card} to {recipient}",
    "allot_self": "{seat:keeps} {card} as {seat:'s} own share",
    "give": "{from_seat:gives} {cards} to {to_seat} ({reason})",
    "give_self": "{from_seat:takes} {cards} into {from_seat:'s} hand ({reason})",
    "mark": "{seat:picks} {card} ({reason})",
    "rotate": "{seat:rotates} the hands {direction}",
    "trade": "{seat:trades} hands with {other}",
    "take": "{seat:takes} {card} from {from_seat}",
    "trash_day": "{seat:trashes} {cards}",
    "mix": "{seat:mixes} it all up: {cards}",
    "win": "{seat:wins}",
    "game_end": "game over: {reason}",
}
"""Each event in words; ``{seat:plays}`` agrees with the seat (``arena.words.Person``)."""


def describe_event(view: dict[str, Any], names: Sequence[str]) -> str:
    """One event view in words: "you play The Brain (from the hand)"."""

    fields: dict[str, object] = dict(view)
    for key in ("seat", "from_seat", "to_seat", "recipient", "other", "winner"):
        if key in view:
            fields[key] = words.seat_person(names, view[key])
    fields["cards"] = (
        _cards(view["cards"])
        if "cards" in view
        else words.count(view.get("count", 0), "hidden card")
    )
    fields["card"] = NAMES[view["card"]] if "card" in view else "a hidden card"
    fields["extra"] = " (an extra turn)" if view.get("extra") else ""
    for key, said in _WORDS.items():
        if isinstance(view.get(key), str):
            fields[key] = said.get(view[key], view[key].replace("_", " "))
    if view["type"] == "game_end":
        fields["reason"] = end_words(str(view.get("reason", "")))
    kind = str(view["type"])
    if kind == "discard" and view.get("seat", 0) < 0:
        kind = "discard_centre"
    elif _to_itself(view):
        kind += "_self"
    template = _TEMPLATES.get(kind, kind)
    return template.format(**fields)


def _to_itself(view: dict[str, Any]) -> bool:
    """Whether a seat hands a card to itself: under Everybody Gets 1 the active seat
    deals the pool round the table starting with its own share ("allot", then "give"),
    which reads "you keep ..." rather than "you hand ... to you"."""
    if view["type"] == "allot":
        return bool(view.get("seat") == view.get("recipient"))
    if view["type"] == "give":
        return bool(view.get("from_seat") == view.get("to_seat"))
    return False


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
        action = from_code(code)
        seen = seat is None or actor == seat  # some choices are private (board.py)
        hand = _cards(sorted(state.hands[actor])) if seen else ""
        label = choice_label(action, names) if seen else None
        yield decision_line(index + 1, names[actor], label, line, hand)
        apply(state, action, actor)
    for view in event_views.views(state.events, seat, cursor):
        yield "  " + describe_event(view, names)
