"""Primitive card moves: lifting a card from its zone, discards, tables, draws with
Creeper replacement, reshuffles and the Radioactive Potato (FLUXX.md §2, §7.8, §8).

Each function keeps ``State.loc`` and the zone lists in step and appends its events.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import (
    DOUBLE_AGENDA,
    IS_CREEPER,
    IS_KEEPER,
    MONEY,
    POTATO,
    SILVER_LINING,
    TAXES,
    CardId,
)
from .flow import OP_AGENDA_LEFT, rng
from .state import (
    Z_DISCARD,
    Z_DRAW,
    Z_GOALS,
    Z_HAND,
    Z_POOL,
    Z_RULES,
    Z_TABLE,
    Z_TEMP,
    Z_TRANSIT,
    State,
)

_KEEP_CLEARING = (TAXES, MONEY, SILVER_LINING)


def lift(state: State, card: CardId) -> None:
    """Take ``card`` out of its zone list (``loc`` is the caller's to set). Moving Taxes
    or Money, or Silver Lining leaving play, clears a Taxes KEEP [D45]."""
    zone = state.loc[card]
    if zone >= Z_TABLE:
        state.tables[zone - Z_TABLE].remove(card)
        if IS_KEEPER[card]:
            state.keepers[zone - Z_TABLE] -= 1
    elif zone >= Z_HAND:
        state.hands[zone - Z_HAND].remove(card)
    elif zone == Z_TRANSIT:
        state.transit.remove(card)
    elif zone == Z_RULES:
        state.rules.remove(card)
    elif zone == Z_GOALS:
        state.goals.remove(card)
    elif zone == Z_DISCARD:
        state.discard.remove(card)
    elif zone == Z_DRAW:
        state.draw.remove(card)
    elif zone == Z_TEMP:
        for temp in state.temp:
            if card in temp:
                temp.remove(card)
                break
    elif zone == Z_POOL:
        if card in state.pool:
            state.pool.remove(card)
        else:
            for allot in state.allot:
                if card in allot:
                    allot.remove(card)
                    break
    else:
        raise AssertionError(f"card {card} cannot be lifted from zone {zone}")
    if card in _KEEP_CLEARING:
        state.taxes_keep = False


def discard_cards(state: State, cards: Iterable[CardId], owner: int, reason: str) -> None:
    """Put ``cards`` onto the discard pile in the order given (the last ends on top)."""
    moved = tuple(cards)
    if not moved:
        return
    loc = state.loc
    pile = state.discard
    for card in moved:
        lift(state, card)
        loc[card] = Z_DISCARD
        pile.append(card)
    state.events.append(("discard", owner, moved, reason))


def discard_rules(state: State, cards: Iterable[CardId], reason: str) -> None:
    """Discard New Rules (ascending id [D50]). If Double Agenda leaves with 2 Goals out,
    the surviving Goal is chosen next (§7.4) [D41]."""
    moved = sorted(cards)
    discard_cards(state, moved, -1, reason)
    if DOUBLE_AGENDA in moved and len(state.goals) == 2:
        state.stack.append([OP_AGENDA_LEFT])


def to_table(state: State, card: CardId, seat: int) -> None:
    """Put ``card`` (already lifted, or in transit) onto ``seat``'s table."""
    if state.loc[card] >= 0:
        lift(state, card)
    state.loc[card] = Z_TABLE + seat
    state.tables[seat].append(card)
    if IS_KEEPER[card]:
        state.keepers[seat] += 1


def move_to_table(state: State, card: CardId, seat: int, reason: str) -> None:
    """Move a Keeper or Creeper from one table to another (public)."""
    old = state.loc[card] - Z_TABLE
    to_table(state, card, seat)
    state.events.append(("move", card, old, seat, reason))


def reshuffle(state: State) -> None:
    """§8.3: the discard pile goes under the draw pile and the whole draw pile is
    shuffled; Rules Escalation raises E."""
    draw = state.draw
    pile = state.discard
    loc = state.loc
    for card in pile:
        loc[card] = Z_DRAW
    count = len(pile)
    draw[:0] = pile
    pile.clear()
    rng(state).shuffle(draw)
    if state.config.options.meta_rule == "rules_escalation":
        state.escalation += 1
    state.events.append(("reshuffle", count, state.escalation))


def draw_into(
    state: State, seat: int, count: int, dest: list[CardId], zone: int, where: str
) -> None:
    """One draw instruction (§8.1): ``count`` non-Creepers from the top into ``dest``
    (zone code ``zone``), a drawn Creeper going onto ``seat``'s table with a
    replacement (§8.2), reshuffling when the pile runs out and skipping what cannot be
    drawn (§8.4)."""
    draw = state.draw
    loc = state.loc
    got: list[CardId] = []
    while count > 0:
        if not draw:
            if not state.discard:
                break
            reshuffle(state)
        card = draw.pop()
        if IS_CREEPER[card]:
            loc[card] = Z_TABLE + seat
            state.tables[seat].append(card)
            state.events.append(("creeper", seat, card))
            continue
        loc[card] = zone
        dest.append(card)
        got.append(card)
        count -= 1
    if got:
        state.events.append(("draw", seat, tuple(got), where))
    if count:
        state.events.append(("draw_skipped", seat, count))


def goal_change(state: State) -> None:
    """§7.8: one goal change moves the Radioactive Potato to the table of seat−1."""
    zone = state.loc[POTATO]
    if zone >= Z_TABLE:
        old = zone - Z_TABLE
        move_to_table(state, POTATO, (old - 1) % state.config.players, "potato")
