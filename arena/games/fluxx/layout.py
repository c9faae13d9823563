"""Hand-built positions: a match started from a described layout of the cards.

For tests, worked examples and analysis tools. Cards are named by id or key
(``"jackpot"``); every card not placed goes to ``rest`` (by default the bottom of the
draw pile, in id order). The position is taken as settled; the match starts at the
beginning of ``active``'s turn (``start="turn"``) or in its play phase right after its
draw (``start="play"``: ``drawn`` equals the draw target, the owed-draw window open).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from .cards import BY_KEY, DECK_CARDS, IS_CREEPER, NUM_CARDS, CardId
from .engine import run
from .flow import OP_END_PHASE, OP_NEXT_TURN, OP_PLAY_PHASE, OP_TURN_START
from .numbers import draw_target
from .options import make_config
from .state import (
    Z_BASIC,
    Z_BOX,
    Z_DISCARD,
    Z_DRAW,
    Z_GOALS,
    Z_HAND,
    Z_META,
    Z_RULES,
    Z_TABLE,
    State,
    card_locations,
    count_keepers,
    empty_state,
)

CardRef = CardId | str
"""A card by id or by key."""


def card_id(ref: CardRef) -> CardId:
    """The id of a card given by id or key."""
    if isinstance(ref, str):
        try:
            return BY_KEY[ref]
        except KeyError:
            raise ValueError(f"no card has the key {ref!r}") from None
    if not 0 <= ref < NUM_CARDS:
        raise ValueError(f"{ref!r} is not a card id 0..99")
    return ref


def new_game_from_layout(
    players: int = 4,
    preset_name: str = "pegasus-2011",
    *,
    hands: Mapping[int, Sequence[CardRef]] | None = None,
    tables: Mapping[int, Sequence[CardRef]] | None = None,
    rules: Sequence[CardRef] = (),
    goals: Sequence[CardRef] = (),
    discard: Sequence[CardRef] = (),
    draw: Sequence[CardRef] = (),
    rest: Literal["draw", "discard"] | int = "draw",
    active: int = 0,
    turns_done: int = 0,
    escalation: int = 0,
    seed: int = 0,
    start: Literal["turn", "play"] = "turn",
    **options: Any,
) -> State:
    """A match from a layout. ``draw`` lists the draw pile top first; ``discard``
    bottom first; ``rest`` says where unplaced cards go (``draw``: below ``draw``;
    ``discard``: below ``discard``; a seat number: into that seat's hand, Creepers
    onto its table)."""
    config = make_config(players, preset_name, **options)
    state = empty_state(config, seed)
    loc = state.loc
    loc[0] = Z_BASIC
    meta = config.options.meta_rule
    placed = [False] * NUM_CARDS
    placed[0] = True

    def place(refs: Sequence[CardRef], zone: int) -> list[CardId]:
        cards = [card_id(r) for r in refs]
        for c in cards:
            if placed[c]:
                raise ValueError(f"card {c} is placed twice (or is not a deck card)")
            placed[c] = True
            loc[c] = zone
        return cards

    if meta == "none":
        state.box.append(1)
        loc[1] = Z_BOX
    else:
        loc[1] = Z_META
    placed[1] = True
    if meta == "no_creepers":
        state.box += place([c for c in DECK_CARDS if IS_CREEPER[c]], Z_BOX)
    for seat, refs in (hands or {}).items():
        state.hands[seat] = place(refs, Z_HAND + seat)
        if any(IS_CREEPER[c] for c in state.hands[seat]):
            raise ValueError("a Creeper can never be in a hand")
    for seat, refs in (tables or {}).items():
        state.tables[seat] = place(refs, Z_TABLE + seat)
    state.rules = place(rules, Z_RULES)
    state.goals = place(goals, Z_GOALS)
    state.discard = place(discard, Z_DISCARD)
    top_first = place(draw, Z_DRAW)
    leftover = [c for c in range(NUM_CARDS) if not placed[c]]
    if rest == "draw":
        state.draw = place(leftover, Z_DRAW)[::-1] + top_first[::-1]
    else:
        state.draw = top_first[::-1]
        if rest == "discard":
            state.discard[:0] = place(leftover, Z_DISCARD)
        else:
            creepers = [c for c in leftover if IS_CREEPER[c]]
            state.tables[rest] += place(creepers, Z_TABLE + rest)
            state.hands[rest] += place([c for c in leftover if not IS_CREEPER[c]], Z_HAND + rest)
    count_keepers(state)
    state.active = active
    state.turn = turns_done
    state.escalation = escalation
    card_locations(state)
    if start == "turn":
        state.stack = [[OP_TURN_START]]
    else:
        state.turn += 1
        state.events.append(("turn", state.turn, active, False))
        state.drawn = draw_target(state)
        state.window = True
        state.stack = [[OP_NEXT_TURN], [OP_END_PHASE], [OP_PLAY_PHASE]]
    run(state)
    return state
