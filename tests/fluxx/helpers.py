"""Helpers for the Fluxx engine tests: cards by key, answering decisions, random play."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from arena.games import fluxx as fx
from arena.games.fluxx.actions import Action, DecisionKind
from arena.games.fluxx.layout import CardRef, card_id
from arena.games.fluxx.state import State


def c(ref: CardRef) -> int:
    """A card id from its key (or id)."""
    return card_id(ref)


def cards(*refs: CardRef) -> list[int]:
    """Card ids, in the order given."""
    return [card_id(r) for r in refs]


def ids(*refs: CardRef) -> set[int]:
    """A set of card ids."""
    return {card_id(r) for r in refs}


def layout(**kwargs: Any) -> State:
    """``new_game_from_layout`` with the events of the set-up dropped."""
    return fx.new_game_from_layout(**kwargs)


def expect(state: State, kind: DecisionKind, seat: int | None = None) -> None:
    """Assert the pending decision (and its seat)."""
    assert state.kind is kind, (state.kind, state.deciding, state.legal)
    if seat is not None:
        assert state.deciding == seat, (kind, state.deciding)


def answer(state: State, action: Action) -> None:
    """Answer the pending decision for the deciding seat (checked)."""
    fx.apply(state, action, state.deciding)


def play(state: State, ref: CardRef) -> None:
    """PLAY(card) (also in PLAY_TEMP)."""
    answer(state, fx.play(c(ref)))


def legal_cards(state: State) -> set[int]:
    """The cards named by the pending legal set."""
    return {a.card for a in state.legal if a.card >= 0}


def hand(state: State, seat: int) -> set[int]:
    """A seat's main hand as a set."""
    return set(state.hands[seat])


def table(state: State, seat: int) -> set[int]:
    """A seat's table as a set."""
    return set(state.tables[seat])


def events_of(state: State, kind: str, start: int = 0) -> list[tuple[object, ...]]:
    """The events of one type from index ``start`` on."""
    return [e for e in state.events[start:] if e[0] == kind]


def random_game(config: fx.GameConfig, seed: int, check: bool = False) -> Iterator[State]:
    """Play a uniformly random game, yielding the state before every decision and once
    at the end."""
    rng = random.Random(seed)
    state = fx.new_game(config, rng)
    while not state.is_over:
        if check:
            fx.check_invariants(state)
        yield state
        fx.apply(state, rng.choice(state.legal), state.deciding)
    if check:
        fx.check_invariants(state)
    yield state
